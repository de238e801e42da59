-- returns_nil.lua: a user AI script that returns nothing, so no AI: a
-- tournament refuses it before any game (the pre-flight).
local function first(game) return game:calc_legal_moves()[1] end
local _ = first
return nil
