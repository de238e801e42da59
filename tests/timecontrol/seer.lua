-- tests/timecontrol/seer.lua: plays the first legal move and notes the
-- params.time_left and params.timelimit it is given (-1: absent); at its
-- third move of a game it stops with the error "seen L1 L2 L3 / T1 T2 T3",
-- so the journal's forfeit reason shows what it saw (tests/timecontrol/run.sh).
local seen, limits = {}, {}
return {name = "seer", fn = function(game, params)
    if game.move_count <= 1 then seen, limits = {}, {} end
    seen[#seen + 1] = ("%.9f"):format(params.time_left or -1)
    limits[#limits + 1] = ("%.9f"):format(params.timelimit or -1)
    if #seen == 3 then error("seen " .. table.concat(seen, " ") .. " / " .. table.concat(limits, " "), 0) end
    return game:calc_legal_moves()[1]
end}
