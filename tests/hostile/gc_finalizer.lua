-- hostile: a __gc finalizer would run after the move returned, with hooks
-- off, outside every budget. A __gc added to a metatable after
-- setmetatable never runs (Lua marks objects for finalization only when
-- the metatable is set); one given to setmetatable is refused:
-- "error: ... __gc ...".
return function(game)
    local mt = {}
    setmetatable({}, mt)
    mt.__gc = function() while true do end end
    collectgarbage("count")
    setmetatable({}, {__gc = function() while true do end end})
    return game:calc_legal_moves()[1]
end
