-- hostile: an endless loop in the move; ends as "instructions" (or "time").
return function(game, params)
    while true do end
end
