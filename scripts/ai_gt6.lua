-- ai_gt6: the best moves of the position's board from a table (ais.md §5):
-- candidate = table[key].bestmoves. params.table: a table of
-- mb.load_bestmoves / mb.bestmoves_table (default: the plain one, built
-- from the engine's game tree once, on first use).
local mb = require "marubatsu"

local function candidates(game, params)
    local t = params.table or mb.cached_bestmoves_table("old")
    local row = t[game:board_to_str()]
    if not row then error("ai_gt6: board " .. game:board_to_str() .. " is not in the table", 2) end
    return row.bestmoves or row
end

return mb.ai_by_candidate(candidates, "ai_gt6", {"table"})
