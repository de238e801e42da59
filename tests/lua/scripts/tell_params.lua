-- tell_params.lua: an AI that fails its first move with the keys of the
-- params it is given (sorted), so that a tournament's journal shows which
-- of a spec's keys reached the AI (tests/lua/tournament_spec.lua: player
-- options are the tournament's, not the AI's).
return function(_, params)
    local keys = {}
    for k in pairs(params) do keys[#keys + 1] = k end
    table.sort(keys)
    error("keys: " .. table.concat(keys, " "), 0)
end
