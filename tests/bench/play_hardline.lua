-- play_hardline.lua: how long `marubatsu play` takes to end a sandboxed
-- move stuck inside one C call (tests/tournament/hostile/stuck_in_gc.lua,
-- a collection of about 30 s) once its deadline has passed: the time from
-- the deadline (the move's start + its 1 s budget) to play's message, as
-- a person sees it. The move's start is when its last line of output
-- arrives (play writes its screen out just before it arms the move): the
-- board before the stuck player's first move, or the echoed "hint" line.
-- Prints the median, minimum and maximum for the stuck player and the
-- stuck hint, with the default slack (0.5 s) and with none (what the
-- hard line itself adds: the parent's wake-up, the kill, the message).
-- Usage: marubatsu run tests/bench/play_hardline.lua [RUNS] [PROGRAM]
local mb = require "marubatsu"

local runs = tonumber(arg and arg[1]) or 5
local prog = arg and arg[2] or "build/marubatsu"
local common = dofile(arg[0]:match("^(.-)[^/]*$") .. "common.lua")
local median = common.median
local STUCK = "tests/tournament/hostile/stuck_in_gc.lua"
local BUDGET = 1.0

local input = os.tmpname()
do
    local f = assert(io.open(input, "w"))
    f:write("hint\nexit\n")
    f:close()
end

-- one run -> seconds from the deadline to the message, and the message
local function once(kind, slack)
    local cmd
    if kind == "player" then
        cmd = ("%s play --o %s --x ai2 --ascii --slack %s 2>&1"):format(prog, STUCK, slack)
    else
        cmd = ("%s play --x ai2 --hint %s --ascii --slack %s --input %s 2>&1"):format(prog, STUCK, slack, input)
    end
    local p = assert(io.popen(cmd, "r"))
    local start, at, text
    for line in p:lines() do
        local now = mb.clock()
        if kind == "player" and line == "Turn o" then start = now end
        if kind == "hint" and not start and line:match(": hint$") then start = now end
        if not at and line:find("killed after", 1, true) then at, text = now, line end
    end
    p:close()
    assert(start and at, "no stuck move or no message: " .. cmd)
    return at - (start + BUDGET), text
end

for _, slack in ipairs({"0.5", "0"}) do
    for _, kind in ipairs({"player", "hint"}) do
        local d, text = {}, nil
        for i = 1, runs do d[i], text = once(kind, slack) end
        table.sort(d)
        print(("%-6s slack %-3s deadline -> message: median %.3f s (%.3f to %.3f, %d runs)"):format(kind, slack,
            median(d), d[1], d[#d], runs))
        print("       " .. text)
    end
end
os.remove(input)
