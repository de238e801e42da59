-- ai13s: weighted patterns without the centre rule, plus SPECIAL
-- (ais.md §4). Score of the position after the AI's move, with M(l,t,e) =
-- the number of lines with l of the AI's marks, t of the opponent's and e
-- empty (markpats, mb.rules.patterns):
--   the move won                         -> score_victory (300)
--   the opponent has an open two         -> score_defeat (-100) * M(0,2,1),
--                                           one penalty per open two
--   I have a fork, M(2,0,1) >= 2         -> score_sure_victory (200)
--   SPECIAL (mb.rules.special)           -> score_special (100)
--   otherwise the positional terms (mb.rules.positional): score_201 (2)
--   if M(2,0,1) == 1, plus score_102 (0.5) per M(1,0,2) line, plus
--   score_012 (-1) per M(0,1,2) line.
-- It differs from ai12s only in the defeat case, scaled by the number of
-- the opponent's open twos.
-- Parameters are read from params on every call (overridable per call).
-- Patterns generalise to any k; SPECIAL holds only on 3x3.
local mb = require "marubatsu"

local rules = mb.rules
local patterns, special, positional = rules.patterns, rules.special, rules.positional

local function eval(game, params)
    if game.status == game.last_turn then return params.score_victory or 300 end
    local m021, m201, m102, m012 = game:markpats(patterns(game.k))
    if m021 > 0 then return (params.score_defeat or -100) * m021 end
    if m201 >= 2 then return params.score_sure_victory or 200 end
    if special(game) then return params.score_special or 100 end
    return positional(params, m201, m102, m012)
end

return mb.ai_by_score(eval, "ai13s",
    {"score_victory", "score_sure_victory", "score_defeat", "score_special", "score_201", "score_102", "score_012"})
