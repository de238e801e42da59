-- ai_nws_3score: fail-soft alpha-beta with strict cuts, root window (0, 0)
-- (ais.md §6), under ai_by_score.
-- Run in C by mb.searcher (options: rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_nws_3score", function(game, params) return mb.searcher("ai_nws_3score", game, params) end,
    {kind = "search"})
