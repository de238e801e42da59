-- hostile: sorting a big table without a comparator would run in C, out
-- of the budgets' reach; the sandbox sorts it with a Lua comparator, so
-- an instruction budget stops it ("instructions"); so would a deadline
-- ("time"), though the sort itself is no runaway: it takes about 0.2 s.
return function(game)
    local t = {}
    for i = 1, 200000 do t[i] = (i * 7919) % 200003 end
    table.sort(t)
    return game:calc_legal_moves()[1]
end
