-- ai5: the first legal move that wins at once, else any legal move
-- (ais.md §4). Only the FIRST winning move is returned, while ai5s ties all
-- of them (ais.md §13 #8). "Wins" is judged as the series' move + judge
-- does: the game's status after the move is the mover (judge never sees a
-- win before move 2k-1). Any board size.
local mb = require "marubatsu"

local function candidates(game)
    local legal = game:calc_legal_moves()
    local me, win_from = game.turn, 2 * game.k - 1
    if game.move_count + 1 >= win_from then
        for _, m in ipairs(legal) do
            if game:wins_with(m, me) then return {m} end
        end
    end
    return legal
end

return mb.ai_by_candidate(candidates, "ai5")
