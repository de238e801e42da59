-- ai5: the first legal move that wins at once, else any legal move
-- (ais.md §4). Only the FIRST winning move is returned, while ai5s ties all
-- of them (ais.md §13 #8). "Wins" is judged as the series' move + judge
-- does (mb.rules.winning_move): the game's status after the move is the
-- mover (judge never sees a win before move 2k-1). Any board size.
local mb = require "marubatsu"

local winning_move = mb.rules.winning_move

local function candidates(game)
    local legal = game:calc_legal_moves()
    local m = winning_move(game, game.turn, legal)
    if m then return {m} end
    return legal
end

return mb.ai_by_candidate(candidates, "ai5", {})
