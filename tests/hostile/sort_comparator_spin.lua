-- hostile: a table.sort comparator that never returns (C calls back into
-- Lua): the budgets still stop it ("time", or "instructions" under an
-- instruction budget).
return function(game)
    table.sort({3, 1, 2}, function(a, b) while true do end end)
    return game:calc_legal_moves()[1]
end
