-- hostile: debug.sethook would switch the budgets' hook off: there is no
-- debug library ("error: ...").
return function(game)
    debug.sethook()
    while true do end
end
