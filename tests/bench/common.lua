-- common.lua: what the Lua bench scripts of tests/bench share. Loaded with
--   local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
-- so that it is found next to the script whatever the working directory.
local mb = require "marubatsu"

local common = {}

-- The median of a list of numbers (sorts the list in place).
function common.median(v)
    table.sort(v)
    local n = #v
    return n % 2 == 1 and v[(n + 1) // 2] or (v[n // 2] + v[n // 2 + 1]) / 2
end

-- A 15x15 game with k = 5 after the moves of an Excel list ("H8,I9").
function common.position(list)
    local g = mb.Marubatsu{width = 15, height = 15, k = 5}
    for sq in list:gmatch("[^,]+") do g:move(mb.move(sq, g)) end
    return g
end

return common
