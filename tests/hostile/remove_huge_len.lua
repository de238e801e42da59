-- hostile: table.remove of the first element of a table whose __len says
-- 2^50, inside pcall: Lua shifted 2^50 elements in one C loop, out of the
-- budgets' reach; the sandbox's table.remove counts them, and the budget's
-- error goes through pcall: "time", or "instructions".
return function(game)
    local t = setmetatable({}, {__len = function() return 1 << 50 end})
    pcall(table.remove, t, 1)
    return game:calc_legal_moves()[1]
end
