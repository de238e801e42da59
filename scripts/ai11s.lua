-- ai11s: ai10s with weighted positional terms (ais.md §4). Score after the
-- AI's move, with M(l,t,e) = the number of lines with l of the AI's marks,
-- t of the opponent's and e empty (markpats, mb.rules.patterns):
--   the move is the centre -> 300;  it won -> 200;
--   the opponent has an open two, M(0,2,1) > 0 -> -100;
--   I have a fork, M(2,0,1) >= 2 -> 100;
--   otherwise the positional terms (mb.rules.positional): score_201 (2)
--   if M(2,0,1) == 1, plus score_102 (0.5) per M(1,0,2) line, plus
--   score_012 (-1) per M(0,1,2) line.
-- The weights are read from params on every call (overridable per call).
-- Centre (mb.rules.centre): (1,1) on 3x3, the middle square of a board with
-- odd width and height, an error otherwise. Patterns generalise to any k.
local mb = require "marubatsu"

local rules = mb.rules
local centre, patterns, positional = rules.centre, rules.patterns, rules.positional

local function eval(game, params)
    if game.last_move == centre(game, "ai11s") then return 300 end
    if game.status == game.last_turn then return 200 end
    local m021, m201, m102, m012 = game:markpats(patterns(game.k))
    if m021 > 0 then return -100 end
    if m201 >= 2 then return 100 end
    return positional(params, m201, m102, m012)
end

return mb.ai_by_score(eval, "ai11s", {"score_201", "score_102", "score_012"})
