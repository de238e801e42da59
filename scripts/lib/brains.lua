-- scripts/lib/brains.lua: external Gomocup brains as tournament players
-- (the manager side of the protocol). Embedded; runs once with mb and the
-- library's private table, where it leaves private.brains for
-- scripts/lib/tournament.lua.
--
-- A player spec "brain:COMMAND[:key=value,...]" runs COMMAND (a path, or a
-- name looked up in PATH, then its words as arguments) as a child process
-- for each game, in a box of its own (src/brainproc_box.c: its own PID, mount
-- and network namespaces, a read-only file system but for a private /tmp,
-- no capabilities, no descriptor of ours; where namespaces are refused, a
-- weaker process group under a subreaper, with a note on stderr once). The
-- box ends with everything in it at the end of the game, and dies with the
-- worker that started it. While its opponent is to move the brain is
-- stopped (every process of it), unless ponder=1. Keys:
--   timeout_turn  ms per move (default 1000)
--   timeout_match ms for the whole game, the brain's own clock (0: none)
--   max_memory    bytes the brain may really use, all its processes
--                 together (default 1 GiB; 0: no limit); it is told 3/4 of
--                 it (INFO max_memory), which it can allocate in full
--   tolerance     ms added to both limits for pipes and scheduling (0)
--   ponder        1: the brain keeps running during its opponent's moves (0)
--   log           a file the brain's stderr (64 KiB a game, then a note) and its
--                 MESSAGE and DEBUG lines are appended to (default: dropped)
-- A tournament's time control (--move-time S, --game-time S[+INC]:
-- scripts/lib/timecontrol.lua) sets the timeout keys a spec leaves out:
-- timeout_turn = the move time (the game time when only a clock is given),
-- timeout_match = the game time, and the increment is added to the brain's
-- clock after each of its moves (time_left tells it; the protocol has no
-- increment of its own). Keys the player spec gives are that brain's own time
-- control and win over the tournament's.
-- The brain hears INFO timeout_turn / timeout_match / max_memory / rule 0
-- (five or more wins; rule 1, exactly five, in an exact-rule game) / game_type 1, then START N (RECTSTART W,H off the
-- square), then BEGIN, TURN X,Y or, after an opening or on any surprise,
-- BOARD ... DONE; INFO time_left before each move when the game is timed;
-- END when the game is over. MESSAGE and DEBUG lines go to its log, at most
-- 256 lines and 32 KiB a game, then one line saying the rest is dropped.
--
-- Every failure loses the game with a reason in the journal:
--   "time: no move within N ms (timeout_turn)"
--   "time: the game clock of N ms ran out (timeout_match)"
--   "crash: exit status 3" / "crash: killed by signal 11 (SIGSEGV)"
--   "memory: over its limit of 64 MiB (max_memory)"
--   "unreadable output: \"...\""  "illegal move: 3,4 (D5, occupied)"
--   "error: ..." (cannot start, START refused, ERROR or UNKNOWN answers)
local _, private = ...
local host = private.host -- the host library (processes, the protocol)

local B = {}
private.brains = B

local START_MS = 10000 -- to start and answer START: not on the game clock
local DEFAULTS = {timeout_turn = 1000, timeout_match = 0, max_memory = 1 << 30, tolerance = 0, ponder = 0}
local LOG_LINES, LOG_BYTES = 256, 32 * 1024 -- MESSAGE and DEBUG lines logged per game
local STDERR_BYTES = 64 * 1024 -- of the brain's stderr logged per game

-- the memory a brain under a limit of `limit` bytes is told it has: a
-- quarter is left for its code, stacks and anything besides its tables
function B.told_memory(limit) return limit - limit // 4 end

local function size_text(bytes)
    if bytes % (1 << 20) == 0 then return ("%d MiB"):format(bytes >> 20) end
    return ("%d bytes"):format(bytes)
end

local noted = false -- the note on weaker isolation, once a process

function B.is_spec(entry) return type(entry) == "string" and entry:sub(1, 6) == "brain:" end

local fail = private.fail

-- Read "brain:COMMAND[:key=value,...]" into p.brain, under the time
-- control tc (nil: none); the player spec text back. Keys in the set `skip` are
-- the caller's (a tournament's player options, named in `skip_list`).
function B.setup(p, entry, i, tc, skip, skip_list)
    local base, params = host.playerspec(entry:sub(7))
    if not base then fail(("players[%d]: bad brain '%s': %s"):format(i, entry, params), 4) end
    local argv = {}
    for w in base:gmatch("%S+") do argv[#argv + 1] = w end
    if #argv == 0 then fail(("players[%d]: 'brain:' needs a command"):format(i), 4) end
    local b = {argv = argv}
    for k, v in pairs(DEFAULTS) do b[k] = v end
    for k, v in pairs(params) do
        if skip and skip[k] then -- the caller's
        elseif k == "log" then
            b.log = tostring(v)
        elseif DEFAULTS[k] == nil then
            fail(("players[%d]: unknown brain key '%s' "
                .. "(timeout_turn, timeout_match, max_memory, tolerance, ponder, log%s)")
                :format(i, k, skip_list and "; player options: " .. skip_list or ""), 4)
        elseif math.type(v) ~= "integer" or v < 0 then
            fail(("players[%d]: %s must be an integer >= 0, not '%s'"):format(i, k, tostring(v)), 4)
        else
            b[k] = v
        end
    end
    if b.timeout_turn == 0 then fail(("players[%d]: timeout_turn must be > 0 ms"):format(i), 4) end
    if b.ponder > 1 then fail(("players[%d]: ponder must be 0 or 1"):format(i), 4) end
    if not noted then
        noted = true
        local mode, why = host.brainproc.isolation()
        if mode ~= "namespace" then
            io.stderr:write(("marubatsu: note: brains run without namespaces (%s), in a weaker box: a brain can see "
                .. "and signal other processes and write where you can (README: Brains in boxes)\n"):format(why))
        end
    end
    b.increment = 0
    if tc and params.timeout_turn == nil and params.timeout_match == nil then
        local ms = function(s) return math.max(1, math.floor(s * 1000 + 0.5)) end
        b.timeout_turn = ms(tc.move or tc.game)
        b.timeout_match = tc.game and ms(tc.game) or 0
        b.increment = tc.game and math.floor(tc.increment * 1000 + 0.5) or 0
    end
    p.brain = b
    return entry
end

local function append(path, text)
    local f = io.open(path, "a")
    if f then
        f:write(host.utf8_fix(text), "\n") -- valid UTF-8, whatever the brain sent
        f:close()
    end
end

-- A MESSAGE or DEBUG line to the brain's log and to b.messages (a list the
-- caller gives: serve's messages panel), while the game's share lasts.
local function log(b, text)
    if not (b.log or b.messages) or b.log_full then return end
    b.log_lines, b.log_bytes = b.log_lines + 1, b.log_bytes + #text + 1
    if b.log_lines > LOG_LINES or b.log_bytes > LOG_BYTES then
        b.log_full = true
        text = ("[marubatsu: more than %d lines or %d KiB of MESSAGE and DEBUG in this game: the rest is dropped]")
            :format(LOG_LINES, LOG_BYTES // 1024)
    end
    if b.log then append(b.log, text) end
    if b.messages then b.messages[#b.messages + 1] = host.utf8_fix(text) end
end

-- End the brain's process of the current game, if any.
local function stop(b)
    if b.proc then
        b.proc:resume()
        b.proc:send("END", 20)
        b.proc:close(50)
        b.proc = nil
    end
end

-- The players p1, p2 start a game: brains get a fresh process at their
-- first move (so a game that never reaches them costs nothing).
function B.begin(...)
    for _, p in ipairs {...} do
        if p.brain then
            stop(p.brain)
            p.brain.known, p.brain.used, p.brain.started = {}, 0, false
            p.brain.log_lines, p.brain.log_bytes, p.brain.log_full = 0, 0, false
        end
    end
end

-- The game is over: END, then the process goes.
function B.finish(...)
    for _, p in ipairs {...} do
        if p.brain then stop(p.brain) end
    end
end

-- The reason a brain that stopped answering lost.
local function gone(b, why)
    if why == "eof" then
        b.proc:wait(200)
        if b.proc:over_memory() then
            return ("memory: over its limit of %s (max_memory)"):format(size_text(b.max_memory))
        end
        return "crash: " .. b.proc:describe()
    end
    if why == "too long" then return "unreadable output: a line too long" end
    return "crash: " .. tostring(why)
end

-- Wait for a line other than MESSAGE/DEBUG/empty until deadline (ms on
-- the monotonic clock): answer | nil, reason.
local function answer(b, deadline, timeout_reason)
    while true do
        local left = math.floor(deadline - host.brainproc.now())
        if left < 0 then left = 0 end
        local line, why = b.proc:recv(left)
        if not line then
            if why == "timeout" then return nil, timeout_reason end
            return nil, gone(b, why)
        end
        local a, err = host.gomocup.parse_answer(line)
        if not a then
            return nil, ("unreadable output: %q (%s)"):format(#line > 60 and line:sub(1, 60) .. "..." or line, err)
        end
        if a.kind == "MESSAGE" or a.kind == "DEBUG" then
            log(b, a.kind .. " " .. a.text)
        elseif a.kind ~= "EMPTY" then
            return a
        end
    end
end

local function send(b, line)
    if not b.proc:send(line, 1000) then
        b.proc:wait(200)
        if b.proc:over_memory() then
            return nil, ("memory: over its limit of %s (max_memory)"):format(size_text(b.max_memory))
        end
        return nil, "crash: " .. b.proc:describe() .. " (not reading its input)"
    end
    return true
end

-- Start the brain's process for game g: ok | nil, reason.
local function start(b, g)
    if g.k ~= 5 then return nil, ("error: Gomocup brains play five in a row, this board has k=%d"):format(g.k) end
    local cells = g.width * g.height
    local proc, err = host.brainproc.spawn{argv = b.argv, memory = b.max_memory, stderr = b.log,
        stderr_cap = STDERR_BYTES,
        cpu = b.timeout_match > 0 and (b.timeout_match + b.tolerance + b.increment * cells) // 1000 + 2
            or (b.timeout_turn + b.tolerance) * cells // 1000 + 2}
    if not proc then return nil, "error: " .. err end
    b.proc = proc
    local told = proc:memory_mode() == "address space" and b.max_memory or B.told_memory(b.max_memory)
    local lines = {("INFO timeout_turn %d"):format(b.timeout_turn), ("INFO timeout_match %d"):format(b.timeout_match),
        ("INFO max_memory %d"):format(told), g.rule == "exact" and "INFO rule 1" or "INFO rule 0", "INFO game_type 1",
        g.width == g.height and ("START %d"):format(g.width) or ("RECTSTART %d,%d"):format(g.width, g.height)}
    for _, line in ipairs(lines) do
        local ok, why = send(b, line)
        if not ok then return nil, why end
    end
    local a, why = answer(b, host.brainproc.now() + START_MS,
        ("time: no answer to START within %d ms"):format(START_MS))
    if not a then return nil, why end
    if a.kind == "ERROR" then return nil, "error: START refused: " .. a.text end
    if a.kind ~= "OK" then return nil, ("error: START answered with %s instead of OK"):format(a.kind) end
    b.started = true
    return true
end

local ABOUT_MS = 1000 -- to answer ABOUT in the pre-flight

-- The name in a brain's ABOUT line (name="pbrain-x", version="1.0", ...),
-- or nil: at most 64 bytes, printable ASCII but for the quotes.
local function about_name(line)
    local name = line:match('^%s*[Nn][Aa][Mm][Ee]%s*=%s*"([^"]*)"')
        or line:match('[,%s][Nn][Aa][Mm][Ee]%s*=%s*"([^"]*)"')
    if name and name ~= "" and #name <= 64 and not name:find("[^\32-\126]") then return name end
    return nil
end
B.about_name = about_name

-- B.preflight(b, g, about) -> true, name | nil, reason: the brain of spec
-- b started on the board of game g (its INFO lines and START answered OK,
-- as for a game), asked ABOUT when `about` (name: the name it gives, or
-- nil), then
-- ended. The reasons are a game's ("error: ..." with its "error: " left
-- out, "unreadable output: ...", "crash: ...", "time: ...").
function B.preflight(b, g, about)
    local ok, why = start(b, g)
    local name
    if ok and about and send(b, "ABOUT") then
        local deadline = host.brainproc.now() + ABOUT_MS
        while true do
            local line = b.proc:recv(math.max(0, math.floor(deadline - host.brainproc.now())))
            if not line then break end
            local kind = line:match("^%s*(%u+)")
            if kind ~= "MESSAGE" and kind ~= "DEBUG" and line:find("%S") then
                name = about_name(line)
                break
            end
        end
    end
    if b.proc then stop(b) end
    b.started = false
    if not ok then return nil, (tostring(why):gsub("^error: ", "")) end
    return true, name
end

-- The commands that bring the brain from what it knows to game g.
local function commands(b, g)
    local n, known = g.move_count, b.known
    local prefix = #known <= n
    for i = 1, #known do
        if not prefix then break end
        prefix = g.records[i] == known[i]
    end
    if prefix and n == 0 then return {"BEGIN"} end
    if prefix and #known == n - 1 then
        local x, y = g:move_to_xy(g.records[n])
        return {("TURN %d,%d"):format(x, y)}
    end
    local out = #known > 0 and {"RESTART", "BOARD"} or {"BOARD"}
    local me = g.turn
    for i = 1, n do
        local m = g.records[i]
        local x, y = g:move_to_xy(m)
        out[#out + 1] = ("%d,%d,%d"):format(x, y, g:getmark_by_move(m) == me and 1 or 2)
    end
    out[#out + 1] = "DONE"
    return out
end

-- The brain's move in game g: move | nil, reason. The process is killed
-- on any failure (the game is lost anyway).
function B.move(b, g)
    local ok, why = true, nil
    if not b.started then ok, why = start(b, g) end
    if b.proc then b.proc:resume() end -- stopped since its last move
    if ok then
        local cmds = commands(b, g)
        if cmds[1] == "RESTART" then -- a RESTART answers OK first
            ok, why = send(b, "RESTART")
            table.remove(cmds, 1)
            if ok then
                local a
                a, why = answer(b, host.brainproc.now() + START_MS, "time: no answer to RESTART")
                ok = a ~= nil and a.kind == "OK"
                if a and not ok then why = "error: RESTART answered with " .. a.kind end
            end
        end
        local limit, reason = b.timeout_turn, ("time: no move within %d ms (timeout_turn)"):format(b.timeout_turn)
        if ok and b.timeout_match > 0 then
            local left = math.floor(b.timeout_match - b.used)
            ok, why = send(b, ("INFO time_left %d"):format(math.max(left, 0)))
            if left < limit then
                limit, reason = left, ("time: the game clock of %d ms ran out (timeout_match)"):format(b.timeout_match)
            end
        end
        if ok then
            local t0 = host.brainproc.now()
            for _, line in ipairs(cmds) do
                ok, why = send(b, line)
                if not ok then break end
            end
            local a
            if ok then a, why = answer(b, t0 + math.max(limit, 0) + b.tolerance, reason) end
            b.used = b.used + (host.brainproc.now() - t0)
            if a and a.kind == "move" then b.used = b.used - b.increment end -- may be refused below: the game ends then
            -- past here every way but a legal move ends the brain with why
            -- (no answer: answer's reason)
            if a and a.kind == "move" then
                if a.x >= g.width or a.y >= g.height then
                    why = ("illegal move: %d,%d (off the board)"):format(a.x, a.y)
                else
                    local m = g:xy_to_move(a.x, a.y)
                    if g:getmark_by_move(m) ~= "." then
                        why = ("illegal move: %d,%d (%s, occupied)"):format(a.x, a.y, g:excel(m))
                    else
                        b.known = {}
                        for i = 1, g.move_count do b.known[i] = g.records[i] end
                        b.known[#b.known + 1] = m
                        if b.ponder == 0 then b.proc:pause() end -- no CPU while the opponent thinks
                        return m
                    end
                end
            elseif a and a.kind == "ERROR" then
                why = "error: the brain answered ERROR " .. a.text
            elseif a then
                why = ("error: the brain answered %s%s instead of a move"):format(a.kind,
                    a.text and a.text ~= "" and (" " .. a.text) or "")
            end
        end
    end
    if b.proc then
        b.proc:kill()
        b.proc = nil
    end
    b.started = false
    return nil, why
end

return B
