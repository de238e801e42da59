-- ai_gtsv: ai_gt6 fed the shortest-victory table (tree.md §6, the series'
-- menu name): candidate = table[key].bestmoves with the table of
-- mb.bestmoves_table("sv") (built once per Lua state). params.table
-- overrides it as for ai_gt6.
local mb = require "marubatsu"

local function candidates(game, params)
    local t = params.table or mb.cached_bestmoves_table("sv")
    local row = t[game:board_to_str()]
    if not row then error("ai_gtsv: board " .. game:board_to_str() .. " is not in the table", 2) end
    return row.bestmoves or row
end

return mb.ai_by_candidate(candidates, "ai_gtsv", {"table"})
