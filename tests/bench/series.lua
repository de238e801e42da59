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
--     evaluator (eval = "ai14s"): each run the median of 21 batches of 10
--     calls (a call takes tens of microseconds, os.clock counts whole ones).
-- Each row checks what it timed (the table's 5,478 boards, the tallies of
-- both matches, the call's 1,175 nodes) and stops with an error if it
-- differs. ROW names (tree, ai2, ai14s, abs) run only those rows, so that
-- a driver can alternate each row with the series' (docs/engine.md).
-- Usage: marubatsu run tests/bench/series.lua [RUNS [PAIRS [ROW...]]]
local mb = require "marubatsu"

local runs = tonumber(arg and arg[1]) or 5
local pairs_n = tonumber(arg and arg[2]) or 50000
local rows = {}
for i = 3, #arg do rows[arg[i]] = true end
if next(rows) == nil then rows = {tree = true, ai2 = true, ai14s = true, abs = true} end
for name in pairs(rows) do
    assert(({tree = 1, ai2 = 1, ai14s = 1, abs = 1})[name], "series.lua: unknown row " .. name)
end

local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median

print(("the series' rows, marubatsu's side: CPU time (os.clock), medians of %d runs"):format(runs))

-- CPU seconds of one full tree build, its table checked.
local function tree_build()
    local t0 = os.clock()
    local t = mb.bestmoves_table()
    local dt = os.clock() - t0
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    assert(n == 5478, "the table by board has not 5,478 boards")
    return dt
end

if rows.tree then
    local first = tree_build()
    local again = {}
    for r = 1, runs do again[r] = tree_build() end
    print(("  full tree (mb.bestmoves_table), first build       %9.1f ms"):format(first * 1e3))
    print(("  full tree, built again                            %9.1f ms"):format(
        median(again) * 1e3))
end

-- pairs/s of one match after seed 0, in CPU time; with 50,000 pairs its
-- tallies must be those of the series' ai_match after seed(0).
local function match_rate(ai0, win, lose, draw)
    local times = {}
    for r = 1, runs do
        mb.seed(0)
        local t0 = os.clock()
        local res = mb.ai_match{ai = {ai0, "ai2"}, match_num = pairs_n, quiet = true,
            progress = false}
        times[r] = os.clock() - t0
        local t = res.total
        assert(pairs_n ~= 50000 or (t.win == win and t.lose == lose and t.draw == draw),
            ai0 .. " VS ai2 after seed 0: not the series' tallies")
    end
    print(("  %-5s VS ai2 (mb.ai_match, %d pairs)           %9.0f pairs/s"):format(ai0,
        pairs_n, pairs_n / median(times)))
end
if rows.ai2 then match_rate("ai2", 43662, 43944, 12394) end
if rows.ai14s then match_rate("ai14s", 93593, 0, 6407) end

-- Microseconds of CPU time for one benchmark call: the median of 21
-- batches of 10 calls, each call returning a move drawn among the best as
-- the series' call does; one call with the analysis first checks the node
-- count.
local function call_us(opts)
    local g, each = mb.Marubatsu(), {}
    opts.maxdepth, opts.use_tt, opts.analyze = 8, true, true
    assert(mb.search_abs_dls(g, opts).count == 1175, "the call did not visit 1,175 nodes")
    opts.analyze = false
    for i = 1, 21 do
        local t0 = os.clock()
        for _ = 1, 10 do mb.search_abs_dls(g, opts) end
        each[i] = (os.clock() - t0) / 10
    end
    return median(each) * 1e6
end
if rows.abs then
    local ai14s = mb.ai("ai14s")
    local lua_us, c_us = {}, {}
    for r = 1, runs do
        lua_us[r] = call_us({eval_func = ai14s, eval_params = {minimax = true}})
        c_us[r] = call_us({eval = "ai14s"})
    end
    print(("  ai_abs_dls call, eval_func = Lua ai14s            %9.1f us"):format(
        median(lua_us)))
    print(("  ai_abs_dls call, eval = \"ai14s\" (C)               %9.1f us"):format(
        median(c_us)))
end
