-- hostile: an endless loop inside pcall, retried forever; the budget's error
-- must get through the script's pcall: "time" (the default budgets), or
-- "instructions" under an instruction budget.
return function(game, params)
    while true do pcall(function() while true do end end) end
end
