-- hostile: an endless loop in the move; ends as "time" (the default budgets),
-- or "instructions" under an instruction budget.
return function(game, params)
    while true do end
end
