-- ai7s: the score version of ai7 (ais.md §4): 2 if the AI's move is the
-- centre; 1 if it won; -1 if the opponent then has an open two
-- (M(0,2,1) > 0, a line with two of its marks and an empty square;
-- markpats, mb.rules.patterns); 0 otherwise.
-- The series' 196 code crashes here like ai6s (ais.md §13 #1); this is the
-- intended rule of its ai_new.py, which the test vectors use.
-- Centre (mb.rules.centre): (1,1) on 3x3, the middle square of a board with
-- odd width and height, an error otherwise. Patterns generalise to any k:
-- M(0,k-1,1).
local mb = require "marubatsu"

local centre, patterns = mb.rules.centre, mb.rules.patterns

local function eval(game)
    if game.last_move == centre(game, "ai7s") then return 2 end
    if game.status == game.last_turn then return 1 end
    local m021 = game:markpats(patterns(game.k))
    if m021 > 0 then return -1 end
    return 0
end

return mb.ai_by_score(eval, "ai7s", {})
