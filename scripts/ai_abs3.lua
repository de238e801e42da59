-- ai_abs3: fail-soft alpha-beta, root window (-1, 1) (ais.md §6), under
-- ai_by_score.
-- Run in C by mb.searcher (options: rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_abs3", function(game, params) return mb.searcher("ai_abs3", game, params) end,
    {kind = "search"})
