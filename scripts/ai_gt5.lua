-- ai_gt5: a best-move table keyed by move history (ais.md §5).
-- DEFECT IN THE SERIES (196): its body already returns choice(list), one
-- move, and the ai_by_candidate wrapper then calls choice on that (x, y)
-- pair, so it plays a bare coordinate integer; its stored data/bestmoves.dat
-- is also keyed with None as records[0] instead of (-1, -1). This script
-- implements the INTENDED behaviour instead: candidate = bestmoves[records],
-- the whole list, keyed by the full record tuple with the -1 marker
-- (mb.records_key: "-1,4,3").
-- params.bestmoves: such a table, key -> list of engine moves (default
-- mb.bestmoves_by_records(params.scoring), from the game tree).
local mb = require "marubatsu"

local function candidates(game, params)
    local t = params.bestmoves or mb.bestmoves_by_records(params.scoring)
    local key = mb.records_key(game)
    local best = t[key]
    if not best then error("ai_gt5: records " .. key .. " are not in the table", 2) end
    return best
end

return mb.ai_by_candidate(candidates, "ai_gt5", {"bestmoves", "scoring"})
