-- ai_abs_tt2: fail-soft alpha-beta with a (lower, upper) bound table, STORE2
-- (old bounds discarded), fresh per root child (ais.md §6), under ai_by_score.
-- Run in C by mb.searcher (options: shortest_victory, rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_abs_tt2", function(game, params) return mb.searcher("ai_abs_tt2", game, params) end,
    {kind = "search"})
