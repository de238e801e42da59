-- hostile: switches the line features on for 200 32x32 games (each
-- about 64 KB the engine allocates), keeping every game: the features'
-- memory counts against the sandbox's cap (8 MB in its test: without the
-- features the 200 games fit), so the move ends in "memory".
local mb = require "marubatsu"
local kept = {}
return function(game)
    for i = 1, 200 do
        local g = mb.Marubatsu{width = 32, height = 32, k = 5}
        g:hash()
        kept[i] = g
    end
    return game:calc_legal_moves()[1]
end
