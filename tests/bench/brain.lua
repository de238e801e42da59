-- brain.lua: `marubatsu brain` keeping to its time (issue 14's target:
-- never over the limit in 1,000 moves at 100 ms/move). Drives PROGRAM
-- brain AI as a Gomocup manager would: INFO timeout_turn 100, START 15,
-- then games of random replies (TURN) until MOVES answers were timed,
-- each from the TURN (or BEGIN) written to its move read. Prints the
-- moves, how many were over 100 ms, the median and the largest time, and
-- the fallbacks the brain announced (MESSAGE lines).
-- Then the cost of a brain's box (src/brainproc_box.c): the time from spawn to
-- the answer to START, and to its end after END, for PROGRAM brain AI and
-- for a shell that only answers OK, in the box and as a plain child
-- (isolation = "none"), alternating, 20 of each; medians.
-- Usage: marubatsu run tests/bench/brain.lua PROGRAM [AI] [MOVES]
local mb = require "marubatsu"
local host = require "marubatsu.host"

local program = assert(arg and arg[1], "usage: brain.lua PROGRAM [AI] [MOVES]")
local ai = arg[2] or "mcts"
local moves = tonumber(arg[3]) or 1000
local LIMIT = 100

local p = assert(host.brainproc.spawn{argv = {program, "brain", ai, "--seed", "1"}})
print(("(the brain runs in isolation %s, memory %s)"):format(p.isolation and p:isolation() or "none (an older build)",
    p.memory_mode and p:memory_mode() or "-"))
local function send(line) assert(p:send(line, 1000), "the brain stopped reading") end
local function answer()
    local fallbacks = 0
    while true do
        local line = assert(p:recv(5000), "no answer within 5 s")
        local a = assert(host.gomocup.parse_answer(line))
        if a.kind == "MESSAGE" then fallbacks = fallbacks + 1
        elseif a.kind ~= "DEBUG" then return a, fallbacks end
    end
end
send("INFO timeout_turn " .. LIMIT)
send("START 15")
assert(answer().kind == "OK")

mb.seed(1)
local times, over, fell, timed = {}, 0, 0, 0
while timed < moves do
    local g = mb.Marubatsu{width = 15, height = 15, k = 5}
    send("RESTART")
    assert(answer().kind == "OK")
    local cmd = mb.randbelow(2) == 0 and "BEGIN" or nil
    if not cmd then
        local m = mb.choice(g:calc_legal_moves())
        g:move(m)
        local x, y = g:move_to_xy(m)
        cmd = ("TURN %d,%d"):format(x, y)
    end
    while g.status == "playing" and timed < moves do
        local t0 = host.brainproc.now()
        send(cmd)
        local a, f = answer()
        local dt = host.brainproc.now() - t0
        assert(a.kind == "move", "the brain answered " .. a.kind)
        timed = timed + 1
        times[#times + 1] = dt
        if dt > LIMIT then over = over + 1 end
        fell = fell + f
        g:move(g:xy_to_move(a.x, a.y))
        if g.status ~= "playing" then break end
        local m = mb.choice(g:calc_legal_moves())
        g:move(m)
        local x, y = g:move_to_xy(m)
        cmd = ("TURN %d,%d"):format(x, y)
    end
end
send("END")
p:close(500)
table.sort(times)
print(("brain %s at %d ms/move on 15x15: %d moves, %d over the limit, median %.1f ms, max %.1f ms, %d fallbacks")
    :format(ai, LIMIT, timed, over, times[(#times + 1) // 2], times[#times], fell))

-- the box's cost: spawn to OK, and END to the end of everything in it
local function median(t)
    table.sort(t)
    return t[(#t + 1) // 2]
end
local function start_stop(argv, isolation)
    local t0 = host.brainproc.now()
    local q = assert(host.brainproc.spawn{argv = argv, isolation = isolation, memory = 1 << 30})
    assert(q:send("START 15", 1000))
    repeat
        local line = assert(q:recv(10000), "no answer to START")
    until line == "OK"
    local t1 = host.brainproc.now()
    q:send("END", 100)
    q:close(2000)
    return t1 - t0, host.brainproc.now() - t1
end
local shell = {"sh", "-c", "read l; echo OK; cat >/dev/null"}
local starts = {{"marubatsu brain " .. ai, {program, "brain", ai, "--seed", "1"}}, {"sh answering OK", shell}}
for _, which in ipairs(starts) do
    local up, down = {auto = {}, none = {}}, {auto = {}, none = {}}
    for _ = 1, 20 do
        for _, iso in ipairs {"auto", "none"} do
            local a, b = start_stop(which[2], iso)
            up[iso][#up[iso] + 1], down[iso][#down[iso] + 1] = a, b
        end
    end
    print(("start of %s: in the box %.1f ms to OK, %.1f ms to its end; plain %.1f ms to OK, %.1f ms to its end")
        :format(which[1], median(up.auto), median(down.auto), median(up.none), median(down.none)))
end
