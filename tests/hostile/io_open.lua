-- hostile: reads a file; there is no io in the sandbox: "error: ... 'io'".
return function(game, params)
    local f = io.open("/etc/passwd")
    return game:calc_legal_moves()[1]
end
