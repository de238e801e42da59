-- ai_mtdf: MTD(f) from f = 0 over ai_abs_all's inner search, null-window
-- passes until the bounds meet (ais.md §7.4), under ai_by_mmscore (o-view,
-- shared table by default).
-- Run in C by mb.searcher (options: shortest_victory, use_tt, init_ab, share_tt, rand, analyze,
-- debug); strongly solves tic-tac-toe (431/431).
local mb = require "marubatsu"

return mb.make_ai("ai_mtdf", function(game, params) return mb.searcher("ai_mtdf", game, params) end,
    {kind = "search"})
