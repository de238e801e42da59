-- hostile: a string.gsub callback that never returns, inside pcall: the
-- budgets still stop it ("time", or "instructions" under an instruction
-- budget).
return function(game)
    pcall(string.gsub, "abc", ".", function() while true do end end)
    return game:calc_legal_moves()[1]
end
