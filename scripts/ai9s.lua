-- ai9s: ai8s that prefers a fork (ais.md §4). Score of the position after
-- the AI's move, with M(l,t,e) = the number of lines with l of the AI's
-- marks, t of the opponent's and e empty (markpats, mb.rules.patterns):
--   the move is the centre -> 4;  it won -> 3;
--   the opponent has an open two, M(0,2,1) > 0 -> -1;
--   I have two or more open twos (a fork), M(2,0,1) >= 2 -> 2;
--   exactly one, M(2,0,1) == 1 -> 1;  otherwise 0.
-- Centre (mb.rules.centre): (1,1) on 3x3, the middle square of a board with
-- odd width and height, an error otherwise. Patterns generalise to any k.
local mb = require "marubatsu"

local centre, patterns = mb.rules.centre, mb.rules.patterns

local function eval(game)
    if game.last_move == centre(game, "ai9s") then return 4 end
    if game.status == game.last_turn then return 3 end
    local m021, m201 = game:markpats(patterns(game.k))
    if m021 > 0 then return -1 end
    if m201 >= 2 then return 2 end
    if m201 == 1 then return 1 end
    return 0
end

return mb.ai_by_score(eval, "ai9s", {})
