-- ai7: the centre if it is empty, otherwise ai6's candidates (ais.md §4):
-- win, else block, else any move. ai6's rule is asked directly (its
-- candidate function, as the series' analyze=True call), so no random
-- draw happens inside; the wrapper draws once from the list. ai6's quirk
-- (no block of an opponent win before move 2k - 1, see ai6.lua) comes
-- with it. Centre (mb.rules.centre): (1,1) on 3x3, the middle square when
-- width and height are odd, an error on a board with an even side.
local mb = require "marubatsu"

local centre = mb.rules.centre
local ai6 = mb.ai("ai6")

local function candidates(game, params)
    local c = centre(game, "ai7")
    if game:getmark_by_move(c) == "." then return {c} end
    return ai6.candidate(game, params)
end

return mb.ai_by_candidate(candidates, "ai7", {})
