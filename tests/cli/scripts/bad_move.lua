-- bad_move.lua: a user AI that returns something that is not a move.
return {name = "bad_move", fn = function() return "B2" end}
