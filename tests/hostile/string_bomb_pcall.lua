-- hostile: doubles a string inside pcall until the memory cap refuses it,
-- then goes on as if nothing happened; the refusal still ends the game:
-- "memory".
return function(game, params)
    pcall(function()
        local s = "x"
        while true do s = s .. s end
    end)
    return game:calc_legal_moves()[1]
end
