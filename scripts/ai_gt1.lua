-- ai_gt1: walks the full game tree from its root along the move history
-- (records[1:]) and returns the moves, in the node's child order (the legal
-- order), whose child's score equals the node's score (ais.md §5).
-- params.scoring: the tree's scores, "old" (default), "sv" or "sv_rd" (the
-- tree is built once per Lua state and scoring). With "sv_rd" this can
-- differ from the node's bestmoves, as in the series.
local mb = require "marubatsu"

local function candidates(game, params)
    local node = mb.tree_node(mb.history(game), params.scoring)
    if not node then error("ai_gt1: the position is not in the game tree", 2) end
    local cand = {}
    for i, m in ipairs(node.children) do
        if node.child_scores[i] == node.score then cand[#cand + 1] = m end
    end
    return cand
end

return mb.ai_by_candidate(candidates, "ai_gt1", {"scoring"})
