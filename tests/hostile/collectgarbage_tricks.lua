-- hostile: collectgarbage("stop") (then allocate without collection) and
-- other options: only "count" exists in the sandbox: "error: ...".
return function(game)
    collectgarbage("stop")
    return game:calc_legal_moves()[1]
end
