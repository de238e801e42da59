-- hostile: writes a global and module fields another player would read
-- (_G.shared_marker, rawset on mb, mb.rules and string) and plays an illegal
-- move if it ever sees another player's marker there; with one state per
-- player it only ever sees its own, and plays legally.
local mb = require "marubatsu"
local me = mb.random()
rawset(_G, "shared_marker", me)
rawset(mb, "planted", me)
rawset(mb.rules, "planted", me)
rawset(string, "planted", me)
return function(game, params)
    for _, seen in ipairs {rawget(_G, "shared_marker"), rawget(mb, "planted"),
        rawget(mb.rules, "planted"), rawget(string, "planted")} do
        if seen ~= me then return -1 end
    end
    return game:calc_legal_moves()[1]
end
