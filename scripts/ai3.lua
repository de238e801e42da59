-- ai3: the centre if it is empty, otherwise any legal move (ais.md §4).
-- The series' centre is (1,1) on 3x3. Generalised: the middle square of a
-- board with odd width and height; on a board with an even side there is
-- no centre and the AI raises an error.
local mb = require "marubatsu"

local function centre_of(game)
    local w, h = game.width, game.height
    if w % 2 == 0 or h % 2 == 0 then
        error(("ai3: the centre rule needs odd width and height (board is %dx%d)")
            :format(w, h), 0)
    end
    return game:xy_to_move(w // 2, h // 2)
end

local function candidates(game)
    local c = centre_of(game)
    if game:getmark_by_move(c) == "." then return {c} end
    return game:calc_legal_moves()
end

return mb.ai_by_candidate(candidates, "ai3")
