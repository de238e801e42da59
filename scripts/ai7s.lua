-- ai7s: the score version of ai7 (ais.md §4): 2 if the AI's move is the
-- centre; 1 if it won; -1 if the opponent then has an open two
-- (M(0,2,1) > 0); 0 otherwise.
-- The series' 196 code crashes here like ai6s (ais.md §13 #1); this is the
-- intended rule of its ai_new.py, which the test vectors use.
-- Centre: (1,1) on 3x3, the middle square of a board with odd width and
-- height, an error otherwise. Patterns generalise to any k: M(0,k-1,1).
local mb = require "marubatsu"

local mp = {}
local K, P021 = 3, "0,2,1"

-- The pattern key for k in a row (written for 3, rebuilt if k changes).
local function set_keys(k)
    K = k
    P021 = ("0,%d,1"):format(k - 1)
end

-- The centre square: (1,1) on 3x3, the middle square of a board with odd
-- width and height; an error on a board with an even side.
local function centre(game)
    local w, h = game.width, game.height
    if w % 2 == 0 or h % 2 == 0 then
        error(("ai7s: the centre rule needs odd width and height (board is %dx%d)")
            :format(w, h), 0)
    end
    return h // 2 + (w // 2) * h
end

local function eval(game)
    if game.last_move == centre(game) then return 2 end
    if game.status == game.last_turn then return 1 end
    if K ~= game.k then set_keys(game.k) end
    game:count_markpats(mp)
    if mp[P021] > 0 then return -1 end
    return 0
end

return mb.ai_by_score(eval, "ai7s")
