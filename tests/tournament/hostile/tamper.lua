-- Changes the game it is given (its own copy in the sandbox), then plays.
return function(g)
    local m = g:calc_legal_moves()[1]
    g:move(m)
    return g:calc_legal_moves()[1]
end
