-- An AI that prints while it thinks: in the sandbox its print goes to
-- stderr, so a tournament's table on stdout stays clean.
return function(game)
    print("thinking", game.move_count, nil)
    return game:calc_legal_moves()[1]
end
