-- ai14s: the series' strongest rule-based evaluator and the benchmark AI
-- (ais.md §4). Mover-view score of the position after the AI's move, with
-- M(l,t,e) = the number of lines with l of the mover's marks, t of the
-- opponent's and e empty (markpats, mb.rules.patterns):
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
-- SPECIAL (mb.rules.special: x's second move, x in the centre, o on two
-- opposite corners, x on an edge: the only safe reply) is a 3x3 rule; on
-- other boards it never holds. The patterns generalise to any k: open
-- two = (0,k-1,1), (k-1,0,1), single = (1,0,k-1), (0,1,k-1).
--
-- This evaluator runs for every child of every decision, so it takes the
-- fast path: game:markpats(i, ...) returns just the four counts it needs,
-- at indexes (mb.rules.patterns) kept in upvalues for the k last seen, so
-- that a child costs no call but markpats; SPECIAL is asked only of the
-- positions it can hold (move 4); parameters are read only on the branch
-- that needs them.
local mb = require "marubatsu"

local patterns, special = mb.rules.patterns, mb.rules.special
local K, I021, I201, I102, I012 -- the pattern indexes for k = K

local function eval(game, params)
    if game.status == game.last_turn then return params.score_victory or 300 end
    local k = game.k
    if k ~= K then
        I021, I201, I102, I012 = patterns(k)
        K = k
    end
    local m021, m201, m102, m012 = game:markpats(I021, I201, I102, I012)
    local score = 0
    if m021 > 0 then
        score = (params.score_defeat or -100) * m021
    elseif m201 >= 2 then
        return params.score_sure_victory or 200
    end
    if game.move_count == 4 and special(game) then return params.score_special or 100 end
    if m201 == 1 then score = score + (params.score_201 or 2) end
    return score + m102 * (params.score_102 or 0.5) + m012 * (params.score_012 or -1)
end

return mb.ai_by_score(eval, "ai14s",
    {"score_victory", "score_sure_victory", "score_defeat", "score_special", "score_201", "score_102", "score_012"})
