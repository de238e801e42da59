-- hostile: mb.solve on 7x7 with k = 5, a search of hours, from one move.
-- The solver takes the player's deadline: "time", within 10 ms of it.
local mb = require "marubatsu"
return function(game)
    mb.solve(mb.Marubatsu{width = 7, height = 7, k = 5})
    return game:calc_legal_moves()[1]
end
