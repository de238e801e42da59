-- ai_nws_3score2: fail-soft alpha-beta, root window (-0.5, 0.5) (ais.md §6), under
-- ai_by_score.
-- Run in C by mb.searcher (options: rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_nws_3score2", function(game, params) return mb.searcher("ai_nws_3score2", game, params) end,
    {kind = "search"})
