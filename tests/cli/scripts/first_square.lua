-- first_square.lua: a user AI for the golden tests: the first legal move.
return function(game)
    return game:calc_legal_moves()[1]
end
