-- ai10s: ai9s on a wider scale, adding one point per line that holds one
-- of my marks and nothing else (ais.md §4). Score after the AI's move,
-- with M(l,t,e) = the number of lines with l of the AI's marks, t of the
-- opponent's and e empty (markpats, mb.rules.patterns):
--   the move is the centre -> 300;  it won -> 200;
--   the opponent has an open two, M(0,2,1) > 0 -> -100;
--   I have a fork, M(2,0,1) >= 2 -> 100;
--   otherwise (1 if M(2,0,1) == 1 else 0) + M(1,0,2).
-- Centre (mb.rules.centre): (1,1) on 3x3, the middle square of a board with
-- odd width and height, an error otherwise. Patterns generalise to any k.
local mb = require "marubatsu"

local centre, patterns = mb.rules.centre, mb.rules.patterns

local function eval(game)
    if game.last_move == centre(game, "ai10s") then return 300 end
    if game.status == game.last_turn then return 200 end
    local m021, m201, m102 = game:markpats(patterns(game.k))
    if m021 > 0 then return -100 end
    if m201 >= 2 then return 100 end
    local score = m102
    if m201 == 1 then score = score + 1 end
    return score
end

return mb.ai_by_score(eval, "ai10s", {})
