-- ai_scout: Scout / NegaScout with window width 1: null-window tests and full
-- re-searches, optional bound table (ais.md §7.3), under ai_by_mmscore
-- (o-view, shared table by default).
-- Run in C by mb.searcher (options: shortest_victory, use_tt, init_ab, share_tt, rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_scout", function(game, params) return mb.searcher("ai_scout", game, params) end,
    {kind = "search"})
