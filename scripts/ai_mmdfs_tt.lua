-- ai_mmdfs_tt: minimax with an exact-value table keyed by board (symmetric
-- stores), fresh per root child (ais.md §6), under ai_by_score.
-- Run in C by mb.searcher (options: shortest_victory, rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_mmdfs_tt", function(game, params) return mb.searcher("ai_mmdfs_tt", game, params) end,
    {kind = "search"})
