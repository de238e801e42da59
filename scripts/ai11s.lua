-- ai11s: ai10s with weighted positional terms (ais.md §4). Score after the
-- AI's move:
--   the move is the centre -> 300;  it won -> 200;
--   the opponent has an open two, M(0,2,1) > 0 -> -100;
--   I have a fork, M(2,0,1) >= 2 -> 100;
--   otherwise score_201 (2) if M(2,0,1) == 1, plus score_102 (0.5) per
--   M(1,0,2) line, plus score_012 (-1) per M(0,1,2) line.
-- The weights are read from params on every call (overridable per call).
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
        error(("ai11s: the centre rule needs odd width and height (board is %dx%d)")
            :format(w, h), 0)
    end
    return h // 2 + (w // 2) * h
end

local function eval(game, params)
    if game.last_move == centre(game) then return 300 end
    if game.status == game.last_turn then return 200 end
    if K ~= game.k then set_keys(game.k) end
    game:count_markpats(mp)
    if mp[P021] > 0 then return -100 end
    local m201 = mp[P201]
    if m201 >= 2 then return 100 end
    local score = 0
    if m201 == 1 then score = params.score_201 or 2 end
    return score + mp[P102] * (params.score_102 or 0.5) + mp[P012] * (params.score_012 or -1)
end

return mb.ai_by_score(eval, "ai11s")
