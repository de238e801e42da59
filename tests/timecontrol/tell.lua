-- tests/timecontrol/tell.lua: an AI that fails at once with what it was
-- given, "time_left=L timelimit=T" (-1: absent), for `marubatsu brain`
-- (its MESSAGE line shows the failure; tests/timecontrol/run.sh).
return {name = "tell", fn = function(_, params)
    error(("time_left=%.3f timelimit=%.3f"):format(params.time_left or -1, params.timelimit or -1), 0)
end}
