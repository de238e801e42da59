-- sandbox.lua: what the sandbox costs (mb.sandbox). Prints medians of:
--   the time from a budget running out (instructions, time, memory) to the
--   move's return, for the runaway scripts of tests/hostile/, from
--   player:stats().overrun (for time: from the deadline), runaway native
--   calls (mb.solve, mb.search_abs_dls) and long C loops of the library
--   (table.move, mb.shuffle, a plain string.find) included;
--   one move of ai14s, trusted (mb.ai) and sandboxed (mb.sandbox.load:
--   the default budgets, time and memory; then with the opt-in instruction
--   budget too), on the same positions, and the differences: the per-move
--   overhead of the sandbox (copying the game and params in, the budgets,
--   the checks) and what the instruction budget's count hook adds;
--   the memory of an empty sandbox state, and the time to load one.
-- Usage: marubatsu run tests/bench/sandbox.lua [RUNS]
local mb = require "marubatsu"

local runs = tonumber(arg and arg[1]) or 21

local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median

local function us(s) return ("%8.1f us"):format(s * 1e6) end

print("time from budget exhaustion to return (median of " .. runs .. ")")
for _, case in ipairs {
    {"infinite_loop", {instructions = 1000000}, "instructions"},
    {"infinite_loop_pcall", {instructions = 1000000}, "instructions"},
    {"infinite_loop", {time = 0.01}, "time"},
    {"string_bomb_pcall", {memory = 16 * 1024 * 1024}, "memory"},
    {"memory_bomb", {memory = 16 * 1024 * 1024}, "memory"},
    -- native calls: a runaway solve or search, a growing table
    {"solve_runaway", {time = 0.05}, "time"},
    {"search_runaway", {time = 0.05}, "time"},
    {"search_runaway", {instructions = 1000000}, "instructions"},
    {"search_memory", {memory = 4 * 1024 * 1024}, "memory"},
    -- C loops of the library under the budgets (src/lua/l_bounded.c)
    {"move_huge_range", {time = 0.01}, "time"},
    {"move_huge_range", {instructions = 1000000}, "instructions"},
    {"shuffle_huge_len", {time = 0.01}, "time"},
    {"find_plain_quadratic", {time = 0.1}, "time"},
} do
    local name, limits, want = case[1], case[2], case[3]
    local p = assert(mb.sandbox.load("tests/hostile/" .. name .. ".lua", limits))
    local overrun, total = {}, {}
    for r = 1, runs do
        local t0 = mb.clock()
        local _, reason = p:move(mb.Marubatsu(), {})
        total[r] = mb.clock() - t0
        assert(reason == want, reason)
        overrun[r] = p:stats().overrun
    end
    print(("  %-20s %-13s %s  (whole move %s)"):format(name, want, us(median(overrun)),
        us(median(total))))
    p:close()
end

-- positions: the first moves of seeded ai2 games, every ply
local positions = {}
mb.seed(0)
local ai2 = mb.ai("ai2")
for _ = 1, 40 do
    local g = mb.Marubatsu()
    while g.status == "playing" do
        positions[#positions + 1] = g:copy()
        g:move(ai2(g, {}))
    end
end

local trusted = mb.ai("ai14s")
local sandboxed = assert(mb.sandbox.load("ai14s"))
local counted = assert(mb.sandbox.load("ai14s", {instructions = 10000000}))
local function per_move(move)
    local times = {}
    for r = 1, runs do
        mb.seed(r)
        local t0 = mb.clock()
        for _, g in ipairs(positions) do move(g) end
        times[r] = (mb.clock() - t0) / #positions
    end
    return median(times)
end
local params = {}
local t_trusted = per_move(function(g) return trusted(g, params) end)
local t_sandboxed = per_move(function(g) return assert(sandboxed:move(g, params)) end)
local t_counted = per_move(function(g) return assert(counted:move(g, params)) end)
print(("one ai14s move over %d positions (median of %d)"):format(#positions, runs))
print("  trusted                          " .. us(t_trusted))
print("  sandboxed (default budgets)      " .. us(t_sandboxed) .. "   overhead " .. us(t_sandboxed - t_trusted))
print("  sandboxed, --instructions 10^7   " .. us(t_counted) .. "   overhead " .. us(t_counted - t_trusted))

local loads, base = {}, nil
for r = 1, runs do
    local t0 = mb.clock()
    local p = assert(mb.sandbox.load("tests/hostile/illegal_move.lua"))
    loads[r] = mb.clock() - t0
    base = p:stats().baseline
    p:close()
end
print(("an empty sandbox state: %d bytes (%.0f KiB); load %s"):format(base, base / 1024,
    us(median(loads))))
