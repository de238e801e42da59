-- hostile: keeps the game object of its first move and later plays on the
-- kept object: "tampered" (or an illegal move); the host's game never
-- changes.
local kept
return function(game, params)
    if kept == nil then
        kept = game
        return game:calc_legal_moves()[1]
    end
    local m = kept:calc_legal_moves()[1]
    kept:move(m)
    return m
end
