-- ai1: the first empty square, scanning row by row (y outer, x inner), which
-- is the first legal move (ais.md §4). Always a one-move list; the wrapper
-- still draws once from the stream when it picks it. Any board size.
local mb = require "marubatsu"

local function candidates(game)
    local legal = game:calc_legal_moves()
    return {legal[1]}
end

return mb.ai_by_candidate(candidates, "ai1", {})
