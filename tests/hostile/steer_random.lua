-- hostile: reading or advancing another player's random stream: mb.draws,
-- mb.stream, mb.Random and mb.tourney_seed are not reachable, and burning
-- draws of its own stream changes nobody else's ("error: ...").
local mb = require "marubatsu"
return function(game)
    for _ = 1, 100 do mb.random() end
    local copy = mb.Random(mb.draws())
    return copy:choice(game:calc_legal_moves())
end
