-- hostile: an endless loop inside pcall, retried forever; the budget's error
-- must get through the script's pcall: "instructions".
return function(game, params)
    while true do pcall(function() while true do end end) end
end
