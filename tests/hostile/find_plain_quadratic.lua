-- hostile: a plain string.find whose every start almost matches (2 MB of
-- "a", a pattern of 1 MB of "a" then "b"): Lua's plain search compares
-- up to #s * #p bytes (here 1e12) in C, where no budget could stop it (so
-- did s:find(p), a pattern without magic characters being searched the
-- same way); the sandbox's search counts the bytes it compares: "time",
-- or "instructions".
local s = ("a"):rep(2000000) -- made while loading: the move is the search
local p = ("a"):rep(1000000) .. "b"
return function(game)
    assert(s:find(p, 1, true) == nil)
    return game:calc_legal_moves()[1]
end
