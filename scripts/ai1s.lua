-- ai1s: the score version of ai1 (ais.md §4). The AI's move (x, y) scores
-- 8 - (x + 3y) on 3x3, in general ncells - 1 - (x + width*y): the earlier
-- the square in row-major order, the higher, so the unique best move is the
-- first empty square, as in ai1. The series' dead branch (no last move ->
-- 0) is kept for calc_score on an empty board. Any board size.
local mb = require "marubatsu"

local function eval(game)
    local m = game.last_move
    if m < 0 then return 0 end
    local w, h = game.width, game.height
    local x, y = m // h, m % h
    return w * h - 1 - (x + w * y)
end

return mb.ai_by_score(eval, "ai1s", {})
