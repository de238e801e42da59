-- hostile: table.move over a range of 2^63 - 2 elements between two empty
-- tables: Lua's loop ran in C, where no budget could stop it; the
-- sandbox's table.move counts the elements it moves against the budgets:
-- "time", or "instructions" under an instruction budget.
return function(game)
    table.move({}, 1, math.maxinteger - 1, 1, {})
    return game:calc_legal_moves()[1]
end
