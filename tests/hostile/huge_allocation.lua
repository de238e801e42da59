-- hostile: one allocation of 1 GiB at once (string.rep) inside pcall, then
-- a legal move: the memory cap refuses it before a byte is used, and the
-- refusal still ends the game: "memory", under any budgets and at once.
return function(game)
    pcall(string.rep, "x", 1 << 30)
    return game:calc_legal_moves()[1]
end
