-- mcts.lua: the speed of the native MCTS (mb.mcts), on 15x15 with k = 5,
-- single core. Prints medians of RUNS searches of 1 s each:
--   UCT from the empty board and from a middle game position (20 stones),
--   the solver variant on the same middle game position: playouts/s,
--   against the target of issue 14 (>= 50 k playouts/s);
--   the solver proving 3x3 a draw: playouts and ms.
-- Each search starts a fresh tree (a new searcher), seeded by the run.
-- Usage: marubatsu run tests/bench/mcts.lua [RUNS]
local mb = require "marubatsu"

local runs = tonumber(arg and arg[1]) or 5

local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median
local position = common.position

local empty = position("")
local middle = position("H8,I9,G9,I7,I8,G8,J8,F7,H9,H7,J7,K6,G10,F11,J10,J9,K9,L8,H10,H11")

print(("MCTS on 15x15 k=5, 1 s searches, median of %d (target >= 50 k playouts/s)"):format(runs))
print(("%-34s %12s %10s"):format("search", "playouts/s", "nodes"))
for _, case in ipairs {
    {"UCT, empty board", empty, false},
    {"UCT, middle game (20 stones)", middle, false},
    {"solver, middle game (20 stones)", middle, true},
} do
    local rates, nodes = {}, {}
    for r = 1, runs do
        local s = mb.mcts{seed = r, solver = case[3], max_nodes = 1 << 22}
        local _, info = s:search(case[2], {time = 1.0})
        rates[#rates + 1] = info.playouts / info.seconds
        nodes[#nodes + 1] = info.nodes
    end
    print(("%-34s %10.1f k %10d"):format(case[1], median(rates) / 1000, math.floor(median(nodes))))
end

local ms, po = {}, {}
for r = 1, runs do
    local s = mb.mcts{seed = r, solver = true, max_nodes = 1 << 20}
    local _, info = s:search(mb.Marubatsu(), {playouts = 1000000})
    assert(info.proven == "draw", "3x3 not proven a draw")
    ms[#ms + 1] = info.seconds * 1000
    po[#po + 1] = info.playouts
end
print(("%-34s %10.1f ms, %d playouts"):format("solver proves 3x3 a draw", median(ms), math.floor(median(po))))
