-- hostile: collectgarbage("stop") (then allocate without collection) and
-- the other options that stop the collector or change its mode or pace:
-- only "collect", "step" and "count" exist in the sandbox: "error: ...".
return function(game)
    collectgarbage("stop")
    return game:calc_legal_moves()[1]
end
