-- ai_nws_3score_tt: fail-soft alpha-beta with a bound table, STORE3, miss default
-- (-1, 1), root window (-0.05, 0.05), fresh per root child (ais.md §6), under
-- ai_by_score.
-- Run in C by mb.searcher (options: rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_nws_3score_tt", function(game, params) return mb.searcher("ai_nws_3score_tt", game, params) end,
    {kind = "search"})
