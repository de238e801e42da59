-- hostile: returns a square's name ("B2") with an even number of moves
-- played, a table with an odd number: "illegal move: ...".
return function(game, params)
    if game.move_count % 2 == 0 then return "B2" end
    return {4}
end
