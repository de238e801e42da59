-- ai3: the centre if it is empty, otherwise any legal move (ais.md §4).
-- The series' centre is (1,1) on 3x3. Generalised (mb.rules.centre): the
-- middle square of a board with odd width and height; on a board with an
-- even side there is no centre and the AI raises an error.
local mb = require "marubatsu"

local centre = mb.rules.centre

local function candidates(game)
    local c = centre(game, "ai3")
    if game:getmark_by_move(c) == "." then return {c} end
    return game:calc_legal_moves()
end

return mb.ai_by_candidate(candidates, "ai3", {})
