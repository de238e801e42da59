-- ai2: a uniformly random legal move (ais.md §4). One mb.choice over the
-- legal moves, in the normative order, per move: the series' random player.
local mb = require "marubatsu"

-- One table, refilled on every call: ai2 runs in every random match, and
-- the wrapper copies the list when an analysis keeps it.
local legal = {}

local function candidates(game)
    return game:calc_legal_moves(legal)
end

return mb.ai_by_candidate(candidates, "ai2", {})
