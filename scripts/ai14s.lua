-- ai14s: the series' strongest rule-based evaluator and the benchmark AI
-- (ais.md §4). Mover-view score of the position after the AI's move, with
-- M(l,t,e) = the number of lines with l of the mover's marks, t of the
-- opponent's and e empty (count_markpats):
--   the move won                 -> score_victory (300)
--   the opponent has open twos   -> score_defeat (-100) * M(0,2,1), and go on
--     (unlike ai12s/ai13s the positional terms below are added to it)
--   else I have 2+ open twos     -> score_sure_victory (200), a fork
--   SPECIAL                      -> score_special (100)
--   otherwise add score_201 (2) if M(2,0,1) == 1, score_102 (0.5) per
--   M(1,0,2) and score_012 (-1) per M(0,1,2).
-- A draw scores 0. Parameters are read from params on every call, so a
-- call can override any of them.
--
-- SPECIAL (x's second move, x in the centre, o on two opposite corners,
-- x on an edge: the only safe reply) is a 3x3 rule; on other boards it
-- never holds. The patterns generalise to any k: open two = (0,k-1,1),
-- (k-1,0,1), single = (1,0,k-1), (0,1,k-1).
--
-- This evaluator runs for every child of every decision, so it takes the
-- fast path: game:markpats(i, ...) returns just the four counts it needs,
-- at indexes computed once per k (mb.markpat_index), without filling a
-- table; parameters are read only on the branch that needs them.
local mb = require "marubatsu"

local K, P021, P201, P102, P012

local function set_keys(k)
    K = k
    P021 = mb.markpat_index(0, k - 1, k)
    P201 = mb.markpat_index(k - 1, 0, k)
    P102 = mb.markpat_index(1, 0, k)
    P012 = mb.markpat_index(0, 1, k)
end
set_keys(3)

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
    local k = game.k
    if k ~= K then set_keys(k) end
    local m021, m201, m102, m012 = game:markpats(P021, P201, P102, P012)
    local score = 0
    if m021 > 0 then
        score = (params.score_defeat or -100) * m021
    elseif m201 >= 2 then
        return params.score_sure_victory or 200
    end
    if special(game) then return params.score_special or 100 end
    if m201 == 1 then score = score + (params.score_201 or 2) end
    return score + m102 * (params.score_102 or 0.5) + m012 * (params.score_012 or -1)
end

return mb.ai_by_score(eval, "ai14s")
