-- ai2: a uniformly random legal move (ais.md §4). One mb.choice over the
-- legal moves, in the normative order, per move: the series' random player.
local mb = require "marubatsu"

local function candidates(game)
    return game:calc_legal_moves()
end

return mb.ai_by_candidate(candidates, "ai2")
