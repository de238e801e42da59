-- ai_gt3: looks up the node by the full record tuple (the -1 marker of
-- records[0] included, mb.records_key) in the tree's records -> node map
-- (mb.nodes_by_records) and returns its bestmoves (ais.md §5).
-- params.scoring: "old" (default), "sv" or "sv_rd".
local mb = require "marubatsu"

local function candidates(game, params)
    local node = mb.nodes_by_records(params.scoring)[mb.records_key(game)]
    if not node then error("ai_gt3: the position is not in the game tree", 2) end
    return node.bestmoves
end

return mb.ai_by_candidate(candidates, "ai_gt3", {"scoring"})
