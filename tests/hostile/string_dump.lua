-- hostile: dumps a function's bytecode, as a string method and from the
-- string table: "error: ... 'dump' ...".
return function(game, params)
    if pcall(function() return ("").dump(print) end) then return -1 end
    local code = string.dump(function() end)
    return game:calc_legal_moves()[1]
end
