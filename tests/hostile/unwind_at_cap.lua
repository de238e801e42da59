-- hostile: fills its state with live data (500,000 small tables, about
-- 44 MB of the default 64 MiB cap, while loading), then each move spins at
-- the bottom of 150 nested pcalls, each with a to-be-closed variable. Once
-- the time budget runs out, every instruction raises; each pcall catches
-- the error and each __close runs one more instruction. Raising must not
-- allocate: when the budgets raised memory errors, by an allocation they
-- refused, each one came after a full emergency collection of the 44 MB,
-- one per level unwound (12 s past a 1 s budget). "time", at once.
local live = {}
for i = 1, 500000 do live[i] = {i} end
local closer = setmetatable({}, {__close = function() end})
return function(game, params)
    assert(#live == 500000) -- the move holds the data
    local function deep(d)
        local c <close> = closer
        if d == 0 then while true do end end
        pcall(deep, d - 1)
        return d
    end
    deep(params.depth or 150)
    return game:calc_legal_moves()[1]
end
