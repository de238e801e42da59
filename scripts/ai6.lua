-- ai6: win if you can, else block the opponent's win, else any move
-- (ais.md §4):
--   1. a single legal move is returned as it is;
--   2. the first legal move that wins for the side to move;
--   3. the first legal move on which the opponent would win;
--   4. otherwise all legal moves.
--
-- The series' quirk, reproduced on purpose (ais.md §4, §13 #2): step 3
-- copies the game, overwrites its turn with the opponent and plays m, so
-- the opponent's mark lands as move move_count + 1, and judge returns
-- "playing" without looking at the board before move 2k - 1 (5 on 3x3).
-- An opponent win that would come before that cannot be seen: playing x,
-- ai6 does not block o's open two on its first chance (after o(0,0),
-- x(1,1), o(1,0) it returns all 6 moves, not (2,0)). mb.rules.winning_move
-- judges this way: before move 2k - 1 it finds no win for either side.
-- Any board size.
local mb = require "marubatsu"

local winning_move = mb.rules.winning_move

local function candidates(game)
    local legal = game:calc_legal_moves()
    if #legal == 1 then return legal end
    local me = game.turn
    local opponent = me == "o" and "x" or "o"
    local m = winning_move(game, me, legal) or winning_move(game, opponent, legal)
    if m then return {m} end
    return legal
end

return mb.ai_by_candidate(candidates, "ai6", {})
