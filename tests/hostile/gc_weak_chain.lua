-- hostile: a weak-keyed table holding a long chain (each key's value holds
-- the next key, one table away), grown by params.n links a move and kept.
-- Lua's collector settles a weak-keyed table in one C loop that goes over
-- the whole table once per link, so every full collection is quadratic in
-- the chain: about 1 s for 20,000 links, 20 s for 90,000, and no hook can
-- stop it. Lua collects as the chain grows, and as a move allocates
-- (params.garbage: 10 MB). The move must lose on time with the time past
-- the deadline counted (stats().overrun), and the state that holds the
-- chain is not run again: it is loaded anew (params.probe: return the
-- number of moves this state made before, as a square of an empty board).
local chain = setmetatable({}, {__mode = "k"})
local root = {} -- kept by the move below: the whole chain lives through it
local tail, moves = root, 0
return function(game, params)
    moves = moves + 1
    chain[0] = root
    if params.probe then return moves - 1 end
    for _ = 1, params.n or 20000 do
        local nxt = {}
        chain[tail] = {nxt}
        tail = nxt
    end
    if params.garbage then
        local t = {}
        for i = 1, 150000 do t[i] = {i} end
    end
    return game:calc_legal_moves()[1]
end
