-- hostile: a coroutine would run without the hook the time budget sets on
-- the player's main thread: there is no coroutine library ("error: ...").
return function(game)
    local co = coroutine.wrap(function() while true do end end)
    co()
    return game:calc_legal_moves()[1]
end
