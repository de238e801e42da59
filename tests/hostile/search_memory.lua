-- hostile: a deep search with a transposition table on 5x5, whose table
-- grows past the memory cap: refused before it doubles ("memory").
local mb = require "marubatsu"
return function(game)
    local g = mb.Marubatsu{width = 5, height = 5, k = 4}
    mb.search_abs_dls(g, {maxdepth = 24, use_tt = true, rand = false})
    return game:calc_legal_moves()[1]
end
