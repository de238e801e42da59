-- ai_abs_tt4: fail-soft alpha-beta with a bound table, STORE3, miss default and
-- root window (min, max) = (-1, 1) or (-2, 3) with shortest_victory, fresh per
-- root child (ais.md §6), under ai_by_score.
-- Run in C by mb.searcher (options: shortest_victory, rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_abs_tt4", function(game, params) return mb.searcher("ai_abs_tt4", game, params) end,
    {kind = "search"})
