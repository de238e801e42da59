-- ai_abs: fail-hard alpha-beta, root window (-inf, +inf) (ais.md §6), under
-- ai_by_score.
-- Run in C by mb.searcher (options: rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_abs", function(game, params) return mb.searcher("ai_abs", game, params) end,
    {kind = "search"})
