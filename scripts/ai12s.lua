-- ai12s: weighted patterns without the centre rule, plus SPECIAL
-- (ais.md §4). Score of the position after the AI's move:
--   the move won                         -> score_victory (300)
--   the opponent has an open two         -> score_defeat (-100)
--   I have a fork, M(2,0,1) >= 2         -> score_sure_victory (200)
--   SPECIAL (see below)                  -> score_special (100)
--   otherwise score_201 (2) if M(2,0,1) == 1, plus score_102 (0.5) per
--   M(1,0,2) line, plus score_012 (-1) per M(0,1,2) line.
-- Parameters are read from params on every call (overridable per call).
-- Patterns generalise to any k; SPECIAL holds only on 3x3.
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

-- SPECIAL (ais.md §4), a 3x3 rule, false on any other board: x has just
-- made its second move (move 4), x holds the centre, o holds two opposite
-- corners, and x holds an edge: the only safe reply to that opening.
local function special(game)
    if game.move_count ~= 4 or game.width ~= 3 or game.height ~= 3 or game.k ~= 3 then
        return false
    end
    if game:getmark(1, 1) ~= "x" then return false end
    if not ((game:getmark(0, 0) == "o" and game:getmark(2, 2) == "o")
            or (game:getmark(2, 0) == "o" and game:getmark(0, 2) == "o")) then
        return false
    end
    return game:getmark(1, 0) == "x" or game:getmark(0, 1) == "x"
        or game:getmark(2, 1) == "x" or game:getmark(1, 2) == "x"
end

local function eval(game, params)
    if game.status == game.last_turn then return params.score_victory or 300 end
    if K ~= game.k then set_keys(game.k) end
    game:count_markpats(mp)
    local m021 = mp[P021]
    if m021 > 0 then return params.score_defeat or -100 end
    local m201 = mp[P201]
    if m201 >= 2 then return params.score_sure_victory or 200 end
    if special(game) then return params.score_special or 100 end
    local score = 0
    if m201 == 1 then score = params.score_201 or 2 end
    return score + mp[P102] * (params.score_102 or 0.5) + mp[P012] * (params.score_012 or -1)
end

return mb.ai_by_score(eval, "ai12s")
