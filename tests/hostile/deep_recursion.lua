-- hostile: unbounded Lua recursion; ends as "error: ... stack overflow", not
-- a crash.
local function deeper(n) return 1 + deeper(n + 1) end
return function(game, params)
    return deeper(1)
end
