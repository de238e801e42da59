-- hostile: the AI's list of parameters is swapped, after mb.make_ai, for a
-- table whose lookups never return. The tournament checks a player's
-- NAME:key=value parameters once, before its first game, by looking each
-- key up in that list: run as tests/hostile/params_spin.lua:depth=3 this
-- spun with no budget and hung the tournament. The check now runs under
-- the budgets of a move: every game is lost with "time" (or
-- "instructions").
local mb = require "marubatsu"
local ai = mb.make_ai("params_spin", function(game) return game:calc_legal_moves()[1] end,
    {params = {"depth"}})
ai.params = setmetatable({}, {__index = function() while true do end end})
return ai
