-- ai4s: the score version of ai4 (ais.md §4). The AI's move scores 10 on
-- the centre, 9 - (x + 3y) on a corner ((0,0) = 9, (2,0) = 7, (0,2) = 3,
-- (2,2) = 1), 0 elsewhere; so the best move is the one ai4 picks.
-- Generalised: centre ncells + 1 (the middle square; odd width and height
-- required, an error otherwise: mb.rules.centre), corner (mb.rules.is_corner)
-- ncells - (x + width*y), which keeps ai4's corner order on every board.
local mb = require "marubatsu"

local centre, is_corner = mb.rules.centre, mb.rules.is_corner

local function eval(game)
    local m, w, h = game.last_move, game.width, game.height
    if m == centre(game, "ai4s") then return w * h + 1 end
    if is_corner(game, m) then
        local x, y = m // h, m % h
        return w * h - (x + w * y)
    end
    return 0
end

return mb.ai_by_score(eval, "ai4s", {})
