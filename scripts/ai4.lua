-- ai4: the centre if it is empty; otherwise the first empty corner in the
-- order (0,0), (2,0), (0,2), (2,2); otherwise any legal move (ais.md §4).
-- Generalised: the centre is the middle square when width and height are
-- odd (an error otherwise; mb.rules.centre), the corners are (0,0),
-- (w-1,0), (0,h-1), (w-1,h-1) in that order (mb.rules.corners).
local mb = require "marubatsu"

local centre, corners = mb.rules.centre, mb.rules.corners

local function candidates(game)
    local c = centre(game, "ai4")
    if game:getmark_by_move(c) == "." then return {c} end
    for _, m in ipairs(corners(game)) do
        if game:getmark_by_move(m) == "." then return {m} end
    end
    return game:calc_legal_moves()
end

return mb.ai_by_candidate(candidates, "ai4", {})
