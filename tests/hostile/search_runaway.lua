-- hostile: a depth-40 alpha-beta search on 7x7 from one move, without a
-- time limit of its own. The player's deadline stops it ("time"); under an
-- instruction budget its nodes count against it ("instructions").
local mb = require "marubatsu"
return function(game)
    local g = mb.Marubatsu{width = 7, height = 7, k = 5}
    mb.search_abs_dls(g, {maxdepth = 40, rand = false})
    return game:calc_legal_moves()[1]
end
