-- ai_abs_all: fail-soft alpha-beta with an optional bound table (STORE3, miss
-- default (min, max)) and root window (min, max) with init_ab (ais.md §7.2),
-- under ai_by_mmscore (o-view, shared table by default).
-- Run in C by mb.searcher (options: shortest_victory, use_tt, init_ab, share_tt, rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_abs_all", function(game, params) return mb.searcher("ai_abs_all", game, params) end,
    {kind = "search"})
