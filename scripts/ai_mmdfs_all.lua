-- ai_mmdfs_all: minimax with an optional exact-value table (ais.md §7.1), under
-- ai_by_mmscore: o-view scores, max for 〇 and min for ×, one table shared
-- by the root children by default.
-- Run in C by mb.searcher (options: shortest_victory, use_tt, share_tt, rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_mmdfs_all", function(game, params) return mb.searcher("ai_mmdfs_all", game, params) end,
    {kind = "search"})
