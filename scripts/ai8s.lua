-- ai8s: centre, win, no open two for the opponent, an open two for me
-- (ais.md §4). Score of the position after the AI's move:
--   the move is the centre -> 3;  it won -> 2;
--   the opponent has an open two, M(0,2,1) > 0 -> -1;
--   I have an open two, M(2,0,1) > 0 -> 1;  otherwise 0.
-- Centre: (1,1) on 3x3, the middle square of a board with odd width and
-- height, an error otherwise. Patterns generalise to any k.
local mb = require "marubatsu"

local mp = {}
local K, P021, P201, P102, P012 = 3, "0,2,1", "2,0,1", "1,0,2", "0,1,2"

-- The pattern keys for k in a row (written for 3, rebuilt if k changes).
local function set_keys(k)
    K = k
    P021 = ("0,%d,1"):format(k - 1)
    P201 = ("%d,0,1"):format(k - 1)
    P102 = ("1,0,%d"):format(k - 1)
    P012 = ("0,1,%d"):format(k - 1)
end

-- The centre square: (1,1) on 3x3, the middle square of a board with odd
-- width and height; an error on a board with an even side.
local function centre(game)
    local w, h = game.width, game.height
    if w % 2 == 0 or h % 2 == 0 then
        error(("ai8s: the centre rule needs odd width and height (board is %dx%d)")
            :format(w, h), 0)
    end
    return h // 2 + (w // 2) * h
end

local function eval(game)
    if game.last_move == centre(game) then return 3 end
    if game.status == game.last_turn then return 2 end
    if K ~= game.k then set_keys(game.k) end
    game:count_markpats(mp)
    if mp[P021] > 0 then return -1 end
    if mp[P201] > 0 then return 1 end
    return 0
end

return mb.ai_by_score(eval, "ai8s")
