-- ai3s: the score version of ai3 (ais.md §4): 1 when the AI's move is the
-- centre, 0 otherwise. Centre as in ai3 (mb.rules.centre): (1,1) on 3x3,
-- the middle square when width and height are odd, an error on a board
-- with an even side.
local mb = require "marubatsu"

local centre = mb.rules.centre

local function eval(game)
    if game.last_move == centre(game, "ai3s") then return 1 end
    return 0
end

return mb.ai_by_score(eval, "ai3s", {})
