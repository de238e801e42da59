-- features.lua: αβ on 15x15 with k = 5 with an evaluator written in Lua
-- that reads the line features (game:window_counts into a reused table,
-- game:threat_counts), beside the C evaluator "lines" on the same searches
-- (issue 14: >= 300 k nodes/s for the Lua evaluator). Single core, medians
-- of RUNS runs; every run searches two middle-game positions at maxdepth 1
-- below every legal root move (search_abs_dls, table shared).
-- Usage: marubatsu run tests/bench/features.lua [RUNS]
local mb = require "marubatsu"

local runs = tonumber(arg and arg[1]) or 5

local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median
local position = common.position

local positions = {
    position("H8,I9,G9,I7,I8,G8,J8,F7,H9,H7"),
    position("H8,I9,G9,I7,I8,G8,J8,F7,H9,H7,J7,K6,G10,F11,J10,J9,K9,L8,H10,H11"),
}

-- the evaluator: windows by marks, weights 4^(j-1), and a side to move
-- with a win square wins (the C "lines" evaluator without open squares)
local wo, wx = {}, {}
local function eval(game)
    local st = game.status
    if st == "o" then return 1e9 elseif st == "x" then return -1e9 elseif st == "draw" then return 0 end
    local turn = game.turn
    if game:threat_counts(turn) > 0 then return turn == "o" and 1e8 or -1e8 end
    game:window_counts("o", wo)
    game:window_counts("x", wx)
    return (wo[1] - wx[1]) + 4 * (wo[2] - wx[2]) + 16 * (wo[3] - wx[3]) + 64 * (wo[4] - wx[4])
end

local function nodes_per_second(evaluator)
    local nodes, t0 = 0, mb.clock()
    for _, g in ipairs(positions) do
        local r = mb.search_abs_dls(g, {maxdepth = 1, eval = evaluator, use_tt = true, analyze = true,
            rand = false})
        nodes = nodes + r.count
    end
    return nodes / (mb.clock() - t0), nodes
end

local lua_nps, c_nps, nodes = {}, {}, 0
for r = 1, runs do
    lua_nps[r], nodes = nodes_per_second(eval)
    c_nps[r] = nodes_per_second("lines")
end
print(("αβ on 15x15 k=5 with the line features, median of %d runs (%d nodes a run):"):format(runs, nodes))
print(("%-44s %10s  %s"):format("evaluator", "nodes/s", "target"))
print(("%-44s %8.0f k  %s"):format("Lua, reading window_counts / threat_counts", median(lua_nps) / 1e3,
    ">= 300 k nodes/s"))
print(("%-44s %8.0f k"):format("C \"lines\"", median(c_nps) / 1e3))
