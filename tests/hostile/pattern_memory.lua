-- hostile: switches the pattern codes on for 100 32x32 games (each about
-- 70 KB the engine allocates, over the 64 KB of the line features under
-- them), keeping every game: their memory counts against the sandbox's cap
-- (10 MB in its test), so the move ends in "memory". With
-- params.features_only it switches on the line features alone, which fit.
local mb = require "marubatsu"
local kept = {}
return function(game, params)
    for i = 1, 100 do
        local g = mb.Marubatsu{width = 32, height = 32, k = 5}
        if params.features_only then g:hash() else g:pattern(0, 1, "o") end
        kept[i] = g
    end
    kept = {}
    return game:calc_legal_moves()[1]
end
