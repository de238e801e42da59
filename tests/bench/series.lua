-- series.lua: marubatsu's side of the README's speed comparison with the
-- series' Python, measured as that side is (docs/engine.md, "Measuring the
-- series' Python side by side"): CPU time (os.clock), medians of RUNS runs.
-- Its rows, in this order:
--   the full game tree: mb.bestmoves_table(), the C build of the 549,946
--     nodes, their minimax scores and best moves and the table by board
--     that `marubatsu tree` prints; the first build in this process (made
--     before anything else, so it pays for its fresh memory as a new
--     process does) and the median of the builds after it;
--   ai2 VS ai2 and ai14s VS ai2 (the built-in Lua AIs) through mb.ai_match,
--     what `marubatsu match` runs: seed 0, then PAIRS pairs (two games
--     each) on the default board (bitboard, no counters), pairs/s;
--   the series' ai_abs_dls benchmark call from the empty board (ai14s in
--     minimax form as evaluator, the table on, maxdepth 8), with the Lua
--     ai14s in the series' form (eval_func, eval_params) and with the C
--     evaluator (eval = "ai14s"), median of 201 calls each run.
-- Each row checks what it timed (node and table counts, the golden ai2
-- table, the call's node count) and stops with an error if it differs.
-- Usage: marubatsu run tests/bench/series.lua [RUNS] [PAIRS]
local mb = require "marubatsu"

local runs = tonumber(arg and arg[1]) or 5
local pairs_n = tonumber(arg and arg[2]) or 50000

local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median

local function count_keys(t)
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    return n
end

-- CPU seconds of one full tree build, its table checked.
local function tree_build()
    local t0 = os.clock()
    local t = mb.bestmoves_table()
    local dt = os.clock() - t0
    assert(count_keys(t) == 5478, "the table by board has not 5,478 boards")
    return dt
end

local first = tree_build()
local rebuilt = {}
for r = 1, runs do rebuilt[r] = tree_build() end

-- pairs/s of one match after seed 0, in CPU time.
local function match_rate(ai0, ai1)
    local times, total = {}, nil
    for r = 1, runs do
        mb.seed(0)
        local t0 = os.clock()
        local res = mb.ai_match{ai = {ai0, ai1}, match_num = pairs_n, quiet = true,
            progress = false}
        times[r] = os.clock() - t0
        total = res.total
    end
    return pairs_n / median(times), total
end

local ai2_rate, ai2_total = match_rate("ai2", "ai2")
if pairs_n == 50000 then
    assert(ai2_total.win == 43662 and ai2_total.lose == 43944 and ai2_total.draw == 12394,
        "ai2 VS ai2 after seed 0 is not the series' golden table")
end
local ai14s_rate = match_rate("ai14s", "ai2")

-- Microseconds of CPU time for one benchmark call (median of 201 calls),
-- each returning a move drawn among the best, as the series' call does;
-- one call with the analysis first checks the node count.
local ai14s = mb.ai("ai14s")
local function call_us(opts)
    local g, each = mb.Marubatsu(), {}
    opts.maxdepth, opts.use_tt, opts.analyze = 8, true, true
    assert(mb.search_abs_dls(g, opts).count == 1175, "the call did not visit 1,175 nodes")
    opts.analyze = false
    for i = 1, 201 do
        local t0 = os.clock()
        mb.search_abs_dls(g, opts)
        each[i] = os.clock() - t0
    end
    return median(each) * 1e6
end
local lua_us, c_us = {}, {}
for r = 1, runs do
    lua_us[r] = call_us({eval_func = ai14s, eval_params = {minimax = true}})
    c_us[r] = call_us({eval = "ai14s"})
end

print(("the series' rows, marubatsu's side: CPU time (os.clock), medians of %d runs"):format(runs))
print(("  full tree (mb.bestmoves_table), first build       %9.1f ms"):format(first * 1e3))
print(("  full tree, built again                            %9.1f ms"):format(
    median(rebuilt) * 1e3))
print(("  ai2 VS ai2 (mb.ai_match, %d pairs)             %9.0f pairs/s"):format(pairs_n,
    ai2_rate))
print(("  ai14s VS ai2 (mb.ai_match, %d pairs)           %9.0f pairs/s"):format(pairs_n,
    ai14s_rate))
print(("  ai_abs_dls call, eval_func = Lua ai14s            %9.1f us"):format(median(lua_us)))
print(("  ai_abs_dls call, eval = \"ai14s\" (C)               %9.1f us"):format(median(c_us)))
