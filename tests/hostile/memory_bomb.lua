-- hostile: grows a table until the memory cap of its state stops it: "memory".
return function(game, params)
    local t = {}
    for i = 1, math.huge do t[i] = {i, i + 1, i + 2} end
    return game:calc_legal_moves()[1]
end
