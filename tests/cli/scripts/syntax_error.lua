-- syntax_error.lua: a user AI that does not compile (a parenthesis left
-- open): a tournament refuses it before any game (the pre-flight).
return function(game
    return game:calc_legal_moves()[1]
end
