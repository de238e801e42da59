-- hostile: string.dump is gone, so it forges a binary chunk and loads it;
-- load takes text only: "error: ... binary ...".
return function(game, params)
    local forged = "\27LuaT\0\25\147\13\10\26\10\4\8\8" .. ("\0"):rep(64)
    if load(function() return forged end) then return -1 end
    assert(load(forged, "forged", "b"))
    return game:calc_legal_moves()[1]
end
