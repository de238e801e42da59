-- mcts_solver: the mcts AI with the solver on: proven wins, draws and
-- losses are propagated up the tree, a proven win is played at once and a
-- proven loss never chosen. The same params as mcts.
local mb = require "marubatsu"

local mcts = mb.ai("mcts")

return {name = "mcts_solver", fn = function(game, params)
    local p = {}
    for k, v in pairs(params or {}) do p[k] = v end
    if p.solver == nil then p.solver = true end
    return mcts.fn(game, p)
end}
