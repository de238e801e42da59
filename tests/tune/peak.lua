-- peak.lua: a synthetic AI for the tune tests whose strength peaks at a
-- known parameter value. With parameter x it plays ai14s's move with
-- probability 1 - |x - 5| / 8 (at least 0), else a random legal move: it
-- is strongest at x = 5, and the further x is from 5 the weaker it plays.
local mb = require "marubatsu"
local strong = mb.ai("ai14s")

local function peak(game, params)
    local x = params.x or 0
    local p = math.max(0, 1 - math.abs(x - 5) / 8)
    if mb.random() < p then return strong(game) end
    return mb.choice(game:calc_legal_moves())
end

return mb.make_ai("peak", peak, {params = {}, tune = {x = {default = 0.0, min = -10.0, max = 20.0, step = 1.0}}})
