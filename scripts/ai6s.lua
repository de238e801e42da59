-- ai6s: the score version of ai6 (ais.md §4): 1 if the AI's move won;
-- -1 if the opponent then has an open two, M(0,2,1) > 0 (a line with two of
-- its marks and an empty square: it wins next move); 0 otherwise.
-- The series' 196 code calls a method that no longer exists and crashes
-- (ais.md §13 #1); this is the intended rule of its ai_new.py, which the
-- test vectors use. Patterns generalise to any k: M(0,k-1,1).
local mb = require "marubatsu"

local mp = {}
local K, P021 = 3, "0,2,1"

-- The pattern key for k in a row (written for 3, rebuilt if k changes).
local function set_keys(k)
    K = k
    P021 = ("0,%d,1"):format(k - 1)
end

local function eval(game)
    if game.status == game.last_turn then return 1 end
    if K ~= game.k then set_keys(game.k) end
    game:count_markpats(mp)
    if mp[P021] > 0 then return -1 end
    return 0
end

return mb.ai_by_score(eval, "ai6s")
