-- ai3s: the score version of ai3 (ais.md §4): 1 when the AI's move is the
-- centre, 0 otherwise. Centre as in ai3: (1,1) on 3x3, the middle square
-- when width and height are odd, an error on a board with an even side.
local mb = require "marubatsu"

local function eval(game)
    local w, h = game.width, game.height
    if w % 2 == 0 or h % 2 == 0 then
        error(("ai3s: the centre rule needs odd width and height (board is %dx%d)")
            :format(w, h), 0)
    end
    -- the middle square (w // 2, h // 2) is move h // 2 + (w // 2) * h
    if game.last_move == h // 2 + (w // 2) * h then return 1 end
    return 0
end

return mb.ai_by_score(eval, "ai3s")
