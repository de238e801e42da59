-- ai_gt2: the same walk as ai_gt1 along the move history; returns the
-- node's stored bestmoves (ais.md §5). params.scoring: "old" (default),
-- "sv" or "sv_rd".
local mb = require "marubatsu"

local function candidates(game, params)
    local node = mb.tree_node(mb.history(game), params.scoring)
    if not node then error("ai_gt2: the position is not in the game tree", 2) end
    return node.bestmoves
end

return mb.ai_by_candidate(candidates, "ai_gt2", {"scoring"})
