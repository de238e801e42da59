-- mcts: Monte Carlo tree search as an AI: the native UCT of mb.mcts (random
-- playouts to the end, children within `radius` of a stone), its tree kept
-- from move to move within a game. Any board, any k.
--
-- params: playouts (default 2000 when no time is given), time (seconds per
-- move; a brain's or a caller's timelimit is used when time is absent),
-- solver (false; mcts_solver sets it), c (0.7), radius (2), max_nodes
-- (2^20). Each search is seeded from mb's stream, so a seeded match or
-- tournament plays the same games again (with playouts; a time limit
-- depends on the machine's speed). With analyze: {move, candidate = {move},
-- score_by_move = the share of the root's visits each child got (percent),
-- score = the expected score of the side to move (0 to 1), playouts, proven}.
local mb = require "marubatsu"

local searchers = {} -- one per set of tree options, with the length of its last game

local function get(params)
    local key = ("%s|%s|%s|%s"):format(tostring(params.solver or false), tostring(params.c or 0.7),
        tostring(params.radius or 2), tostring(params.max_nodes or "-"))
    local s = searchers[key]
    if not s then
        s = {tree = mb.mcts{solver = params.solver or false, c = params.c, radius = params.radius,
            max_nodes = params.max_nodes}, last = math.huge}
        searchers[key] = s
    end
    return s
end

local function mcts(game, params)
    params = params or {}
    local s = get(params)
    -- a game that does not follow the last one searched: a new tree
    if game.move_count <= s.last then s.tree:reset() end
    s.last = game.move_count
    local time = params.time or params.timelimit
    local playouts = params.playouts or (time == nil and 2000 or nil)
    local move, info = s.tree:search(game, {playouts = playouts, time = time, seed = mb.getrandbits(62)})
    if not params.analyze then return move end
    local children, total, shares, moves = s.tree:children(), 0, {}, {}
    for _, c in ipairs(children) do total = total + c.visits end
    for i, c in ipairs(children) do -- most visited first
        shares[c.move] = total > 0 and math.floor(1000 * c.visits / total + 0.5) / 10 or 0.0
        moves[i] = c.move
    end
    return {move = move, candidate = {move}, score_by_move = shares, moves = moves, score = info.value,
        playouts = info.playouts, proven = info.proven, score_label = "visit share %", width = game.width,
        height = game.height}
end

return {name = "mcts", fn = mcts}
