-- ai5s: 1 if the AI's move won the game, else 0 (ais.md §4). Every winning
-- move ties, so the tie list can be longer than ai5's single move. Any
-- board size.
local mb = require "marubatsu"

local function eval(game)
    if game.status == game.last_turn then return 1 end
    return 0
end

return mb.ai_by_score(eval, "ai5s", {})
