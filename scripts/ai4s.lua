-- ai4s: the score version of ai4 (ais.md §4). The AI's move scores 10 on
-- the centre, 9 - (x + 3y) on a corner ((0,0) = 9, (2,0) = 7, (0,2) = 3,
-- (2,2) = 1), 0 elsewhere; so the best move is the one ai4 picks.
-- Generalised: centre ncells + 1 (the middle square; odd width and height
-- required, an error otherwise), corner ncells - (x + width*y), which keeps
-- ai4's corner order on every board.
local mb = require "marubatsu"

local function eval(game)
    local w, h = game.width, game.height
    if w % 2 == 0 or h % 2 == 0 then
        error(("ai4s: the centre rule needs odd width and height (board is %dx%d)")
            :format(w, h), 0)
    end
    local m = game.last_move
    local x, y = m // h, m % h
    if x == w // 2 and y == h // 2 then return w * h + 1 end
    if (x == 0 or x == w - 1) and (y == 0 or y == h - 1) then return w * h - (x + w * y) end
    return 0
end

return mb.ai_by_score(eval, "ai4s")
