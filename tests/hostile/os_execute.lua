-- hostile: runs a command; os has only clock, time and date:
-- "error: ... 'execute'".
return function(game, params)
    os.execute("touch /tmp/marubatsu_sandbox_escaped")
    return game:calc_legal_moves()[1]
end
