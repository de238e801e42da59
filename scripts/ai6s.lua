-- ai6s: the score version of ai6 (ais.md §4): 1 if the AI's move won;
-- -1 if the opponent then has an open two, M(0,2,1) > 0 (a line with two of
-- its marks and an empty square: it wins next move; markpats,
-- mb.rules.patterns); 0 otherwise.
-- The series' 196 code calls a method that no longer exists and crashes
-- (ais.md §13 #1); this is the intended rule of its ai_new.py, which the
-- test vectors use. Patterns generalise to any k: M(0,k-1,1).
local mb = require "marubatsu"

local patterns = mb.rules.patterns

local function eval(game)
    if game.status == game.last_turn then return 1 end
    local m021 = game:markpats(patterns(game.k))
    if m021 > 0 then return -1 end
    return 0
end

return mb.ai_by_score(eval, "ai6s", {})
