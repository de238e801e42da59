-- tamper.lua: a user AI that plays a move on the game it is given (its own
-- copy in the sandbox), then returns another square.
return function(g)
    g:move(g:calc_legal_moves()[1])
    return g:calc_legal_moves()[1]
end
