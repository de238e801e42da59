-- brain.lua: `marubatsu brain` keeping to its time (issue 14's target:
-- never over the limit in 1,000 moves at 100 ms/move). Drives PROGRAM
-- brain AI as a Gomocup manager would: INFO timeout_turn 100, START 15,
-- then games of random replies (TURN) until MOVES answers were timed,
-- each from the TURN (or BEGIN) written to its move read. Prints the
-- moves, how many were over 100 ms, the median and the largest time, and
-- the fallbacks the brain announced (MESSAGE lines).
-- Usage: marubatsu run tests/bench/brain.lua PROGRAM [AI] [MOVES]
local mb = require "marubatsu"

local program = assert(arg and arg[1], "usage: brain.lua PROGRAM [AI] [MOVES]")
local ai = arg[2] or "mcts"
local moves = tonumber(arg[3]) or 1000
local LIMIT = 100

local p = assert(mb.brainproc.spawn{argv = {program, "brain", ai, "--seed", "1"}})
local function send(line) assert(p:send(line, 1000), "the brain stopped reading") end
local function answer()
    local fallbacks = 0
    while true do
        local line = assert(p:recv(5000), "no answer within 5 s")
        local a = assert(mb.gomocup.parse_answer(line))
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
        local t0 = mb.brainproc.now()
        send(cmd)
        local a, f = answer()
        local dt = mb.brainproc.now() - t0
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
