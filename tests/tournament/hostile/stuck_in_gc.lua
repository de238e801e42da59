-- hostile: a move stuck in one long garbage collection, which no budget
-- inside the Lua VM can stop (they act between instructions). The main
-- chunk builds a chain through a weak-keyed table (an ephemeron table:
-- a value is kept only while its key is), the keys in random order and
-- held strongly for now. Its move lets go of the keys and fills memory:
-- the next full collection (a major one, or the emergency collection at
-- the memory cap) must then walk the chain one link per pass over the
-- table, which is quadratic: tens of seconds in one C call. Only the hard
-- line (the process playing it killed past the deadline and the slack)
-- ends the move.
local N = 50000
local chain = setmetatable({}, {__mode = "k"})
local keys = {}
for i = 1, N do keys[i] = {} end
for i = N, 2, -1 do
    local j = math.random(i)
    keys[i], keys[j] = keys[j], keys[i]
end
for i = 1, N - 1 do chain[keys[i]] = keys[i + 1] end
local head = keys[1]
return function(game)
    keys = nil
    local hold = {}
    for i = 1, 1000 do hold[i] = ("x"):rep(1 << 20) .. i end
    return chain[head] and game:calc_legal_moves()[1]
end
