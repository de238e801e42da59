-- ai_gt4: the tree's records -> bestmoves map (mb.bestmoves_by_records),
-- looked up by the full record tuple, -1 marker included (ais.md §5).
-- params.scoring: "old" (default), "sv" or "sv_rd".
local mb = require "marubatsu"

local function candidates(game, params)
    local best = mb.bestmoves_by_records(params.scoring)[mb.records_key(game)]
    if not best then error("ai_gt4: the position is not in the game tree", 2) end
    return best
end

return mb.ai_by_candidate(candidates, "ai_gt4", {"scoring"})
