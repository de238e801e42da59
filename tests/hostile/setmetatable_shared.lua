-- hostile: tries to replace protected metatables (an AI object's), to see
-- the string metatable, and to reach into it: "error: ...".
local mb = require "marubatsu"
return function(game, params)
    if pcall(setmetatable, mb.make_ai("x", function() end), {}) then return -1 end
    if pcall(setmetatable, {}, {__gc = function() while true do end end}) then return -1 end
    if getmetatable("") ~= nil then return -1 end
    getmetatable("").__index.upper = string.lower
    return game:calc_legal_moves()[1]
end
