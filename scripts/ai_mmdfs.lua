-- ai_mmdfs: plain minimax to the end of the game, values +1/-1/0 (ais.md §6),
-- as an evaluator under ai_by_score: every root child scored in mover-view,
-- the best (max) played.
-- Run in C by mb.searcher (options: rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_mmdfs", function(game, params) return mb.searcher("ai_mmdfs", game, params) end,
    {kind = "search"})
