-- matches.lua: match speed with the Lua AIs (make bench). Medians of RUNS
-- runs of each match, quiet, on the continuing stream after mb.seed(0), as
-- the series' benchmark() does; one pair = one iteration = two games.
-- Usage: marubatsu run tests/bench/matches.lua [RUNS] [PAIRS]
local mb = require "marubatsu"

local runs = tonumber(arg and arg[1]) or 7
local pairs_n = tonumber(arg and arg[2]) or 50000

local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median

local function rate(ai0, ai1, mbparams)
    local times = {}
    for r = 1, runs do
        mb.seed(0)
        local t0 = mb.clock()
        mb.ai_match{ai = {ai0, ai1}, match_num = pairs_n, mbparams = mbparams, quiet = true,
            progress = false}
        times[r] = mb.clock() - t0
    end
    return pairs_n / median(times)
end

print(("Lua AIs, %d pairs per match, medians of %d runs (pairs/s)"):format(pairs_n, runs))
print(("%-9s %-8s %12s %12s"):format("back-end", "counters", "ai2 VS ai2", "ai14s VS ai2"))
for _, board in ipairs({"list", "list1d", "bitboard"}) do
    for _, counters in ipairs({false, true}) do
        local p = {board = board, count_linemark = counters}
        local a = rate("ai2", "ai2", p)
        local b = rate("ai14s", "ai2", p)
        print(("%-9s %-8s %12.0f %12.0f"):format(board, counters and "on" or "off", a, b))
    end
end

-- The floor of the ai14s VS ai2 row: the same match with ai14s's
-- evaluator replaced by a Lua function returning 0, through the same
-- wrapper (ai_by_score: every legal move scored, one choice among the
-- ties), so what is left is the match loop, ai2 and the loop over the
-- children with the cheapest Lua evaluator. Its games are longer (random
-- play on both sides), hence the evaluated children a pair beside it.
local zero = mb.ai_by_score(function() return 0 end, "zero", {})
local function children_a_pair(ai, n)
    local count = 0
    local counted = mb.ai_by_score(function(game, params)
        count = count + 1
        return ai.eval(game, params)
    end, "counted", {})
    mb.seed(0)
    mb.ai_match{ai = {counted, "ai2"}, match_num = n, quiet = true, progress = false}
    return count / n
end
print()
print(("ai_by_score VS ai2 (list, counters off), %d pairs, medians of %d runs"):format(pairs_n, runs))
print(("  ai14s's evaluator       %8.0f pairs/s, %5.1f children a pair"):format(
    rate("ai14s", "ai2", {}), children_a_pair(mb.ai("ai14s"), 2000)))
print(("  a Lua eval returning 0  %8.0f pairs/s, %5.1f children a pair (the floor)"):format(
    rate(zero, "ai2", {}), children_a_pair(zero, 2000)))

-- The series' benchmark call of ai_abs_dls from the empty board (maxdepth 8,
-- use_tt: 1,175 nodes, 235 leaves) with the Lua ai14s as its evaluator,
-- as a function and in the series' form (eval_func, eval_params), beside
-- the C evaluator: medians of 201 calls.
local function call_time(opts)
    local g, t = mb.Marubatsu(), {}
    opts.maxdepth, opts.use_tt, opts.rand = 8, true, false
    for i = 1, 201 do
        local t0 = mb.clock()
        mb.search_abs_dls(g, opts)
        t[i] = mb.clock() - t0
    end
    return median(t) * 1e6
end
local ai14s = mb.ai("ai14s")
local eval14, P = ai14s.fn, {calc_score = true, minimax = true}
print()
print("ai_abs_dls benchmark call (empty board, maxdepth 8, use_tt), median of 201 calls")
print(("  C ai14s                                   %8.1f us"):format(call_time({eval = "ai14s"})))
print(("  Lua ai14s, eval = function                %8.1f us"):format(
    call_time({eval = function(game) return eval14(game, P) end})))
print(("  Lua ai14s, eval_func/eval_params          %8.1f us"):format(
    call_time({eval_func = ai14s, eval_params = {minimax = true}})))
