-- Prints without end (about 1 MB per move) with terminal escape sequences,
-- then plays the first empty square.
return function(g)
    local line = "\27]0;owned\7\27[2J" .. string.rep("p", 1000)
    for _ = 1, 1000 do print(line) end
    return g:calc_legal_moves()[1]
end
