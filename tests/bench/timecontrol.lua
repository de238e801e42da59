-- timecontrol.lua: what time controls cost and how well searches keep to
-- them (scripts/lib/timecontrol.lua, src/lua/l_timed.c). Prints medians of:
--   a plain Lua loop (3,000,000 additions) called directly and under
--   host.timed_call (a timer, no hook before the deadline): the ratio shows
--   what a trusted AI's Lua code pays for being timed;
--   20,000 ai14s moves called directly and under host.timed_call: the
--   per-call cost of the timer (two timer_settime calls);
--   ai_ab_iddfs and mcts given params.timelimit on 7x7 with k = 4 after D4:
--   the seconds they take beyond it (a time control's hard limit must
--   leave room for this; SOFT = 0.8 of the move's budget).
-- Usage: marubatsu run tests/bench/timecontrol.lua [RUNS]
local mb = require "marubatsu"
local host = require "marubatsu.host"

local runs = tonumber(arg and arg[1]) or 7

local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median

local function time_of(f)
    local t0 = mb.clock()
    f()
    return mb.clock() - t0
end

local function loop()
    local x = 0
    for i = 1, 3000000 do x = x + i end
    return x
end

local g = mb.Marubatsu()
g:move(4)
local ai14s = mb.ai("ai14s")
local fn, p = ai14s.fn, {rand = false}
local N = 20000
local cases = {
    {"Lua loop, direct", loop},
    {"Lua loop, timed_call", function() host.timed_call(60, loop) end},
    {"20,000 ai14s moves, direct", function() for _ = 1, N do fn(g, p) end end},
    {"20,000 ai14s moves, timed_call", function() for _ = 1, N do host.timed_call(60, fn, g, p) end end},
}
local t = {}
for r = 1, runs do
    -- alternate the cases within each run, so a noisy moment hits all
    for i, c in ipairs(cases) do
        t[i] = t[i] or {}
        t[i][r] = time_of(c[2])
    end
end
print(("time controls: medians of %d runs"):format(runs))
for i, c in ipairs(cases) do print(("  %-34s %9.4f s"):format(c[1], median(t[i]))) end
local m = {}
for i = 1, #cases do m[i] = median(t[i]) end
print(("  Lua loop timed / direct            %9.2f x"):format(m[2] / m[1]))
print(("  timed_call cost per call           %9.2f us"):format((m[4] - m[3]) / N * 1e6))

local limit = 0.3
local big = mb.Marubatsu{width = 7, height = 7, k = 4}
big:move(mb.move("D4", big))
for _, name in ipairs {"ai_ab_iddfs", "mcts"} do
    local ai = mb.ai(name)
    local over = {}
    for r = 1, math.min(runs, 5) do over[r] = time_of(function() ai(big, {timelimit = limit}) end) - limit end
    table.sort(over)
    print(("  %-12s timelimit %.1f s: beyond it median %.3f s, most %.3f s"):format(name, limit, median(over),
        over[#over]))
end
