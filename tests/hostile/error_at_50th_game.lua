-- hostile: plays the first legal move, counting games in a global (a game
-- is new when game.move_count <= 1), and raises in its 50th game.
games = 0
return function(game, params)
    if game.move_count <= 1 then games = games + 1 end
    if games == 50 then error("boom in game " .. games) end
    return game:calc_legal_moves()[1]
end
