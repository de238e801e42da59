-- hostile: returns an occupied square (or one off the board on an empty
-- board): "illegal move: ...".
return function(game, params)
    for m = 0, game.width * game.height - 1 do
        if game:getmark_by_move(m) ~= "." then return m end
    end
    return game.width * game.height
end
