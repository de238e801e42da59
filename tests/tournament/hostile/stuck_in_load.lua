-- hostile: a move stuck in one call to load, which no budget inside the
-- Lua VM can stop (the compiler runs in C, no hook sees it). The chunk
-- "return a and a and ... a" (200,000 ands, 1.2 MB) compiles in quadratic
-- time: each `and` walks the whole list of jumps made so far. Only the hard
-- line (the process playing it killed past the deadline and the slack)
-- ends the move.
local source = "local a = ... return a" .. (" and a"):rep(200000)
return function(game)
    load(source)
    return game:calc_legal_moves()[1]
end
