-- hostile: sorting a big table without a comparator would run in C, out
-- of the budgets' reach; the sandbox sorts it with a Lua comparator, so
-- the instruction budget stops it ("instructions").
return function(game)
    local t = {}
    for i = 1, 200000 do t[i] = (i * 7919) % 200003 end
    table.sort(t)
    return game:calc_legal_moves()[1]
end
