-- tests/timecontrol/spin.lua: an AI that never returns (a loop with no
-- end), for the time forfeits of tests/timecontrol/run.sh.
return {name = "spin", fn = function()
    while true do end
end}
