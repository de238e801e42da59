-- hostile: table.insert at position 1 of a table whose __len says 2^50:
-- Lua shifted 2^50 elements in one C loop, out of the budgets' reach; the
-- sandbox's table.insert counts them: "time", or "instructions".
return function(game)
    local t = setmetatable({}, {__len = function() return 1 << 50 end})
    table.insert(t, 1, "x")
    return game:calc_legal_moves()[1]
end
