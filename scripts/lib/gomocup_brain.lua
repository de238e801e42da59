-- scripts/lib/gomocup_brain.lua: `marubatsu brain AI`: any AI as a Gomocup
-- (Piskvork) brain on stdin/stdout (host.brain_main). Embedded; runs once
-- with mb and the library's private table.
--
-- Two processes. This one reads the manager's commands, keeps the game
-- and the clocks, and writes nothing but protocol lines (src/cli/cmd_brain.c
-- hands it the real stdout as a descriptor and points fd 1 at stderr, so a
-- stray print cannot corrupt the protocol). The AI thinks in a forked
-- child (host.brainproc.fork), told the position and its time; when the
-- child has not answered by the deadline it is killed, a fallback move is
-- sent in time and a MESSAGE says so; the next move forks a fresh child.
-- A file AI runs inside the sandbox with its budgets as well.
--
-- The deadline of a move: timeout_turn (INFO, default 5000 ms; 0 means
-- "as fast as possible": 50 ms), capped by time_left / max(8, empty/4)
-- when the match is timed (the allocation rule of time controls,
-- scripts/lib/timecontrol.lua), minus the safety margin (--margin, default
-- 30 ms, at most a quarter of the budget). The AI gets params.timelimit
-- (seconds) = 80% of that, for AIs that pace themselves, and, when the
-- match is timed, params.time_left (seconds on its clock, from INFO
-- time_left), as in a tournament's time control.
local mb, private = ...
local host = private.host -- the host library (processes, the protocol)

local TC = private.timecontrol -- scripts/lib/timecontrol.lua
local DEFAULT_TURN = 5000
local FAST_TURN = 50

-- The fallback: win now, else block a win, else the empty square with the
-- most stones around it (nearest the centre on ties). O(squares).
local function fallback(g)
    local legal = g:calc_legal_moves()
    local me = g.turn
    local other = me == "o" and "x" or "o"
    for _, mark in ipairs {me, other} do
        for _, m in ipairs(legal) do
            if g:wins_with(m, mark) then return m end
        end
    end
    local best, best_score = legal[1], -math.huge
    local cx, cy = (g.width - 1) / 2, (g.height - 1) / 2
    for _, m in ipairs(legal) do
        local x, y = g:move_to_xy(m)
        local near = 0
        for dx = -1, 1 do
            for dy = -1, 1 do
                local nx, ny = x + dx, y + dy
                if (dx ~= 0 or dy ~= 0) and nx >= 0 and ny >= 0 and nx < g.width and ny < g.height
                    and g:getmark_by_move(g:xy_to_move(nx, ny)) ~= "." then
                    near = near + 1
                end
            end
        end
        local score = near * 1000 - ((x - cx) ^ 2 + (y - cy) ^ 2)
        if score > best_score then best, best_score = m, score end
    end
    return best
end

-- Load the AI of `spec` ("NAME[:key=value,...]" or a file): a function
-- (game, params) -> move | nil, reason.
local function load_ai(spec, sandbox)
    local base, params = host.playerspec(spec)
    if not base then error(("bad AI '%s': %s"):format(spec, params), 0) end
    local chunk, where = mb.loadscript(base)
    if not chunk then error(where, 0) end
    local trusted = private.is_builtin(base) -- the resolver's origin (scripts/lib/loader.lua)
    if sandbox == false then trusted = true end
    local name = (base:match("([^/]+)$") or base):gsub("%.lua$", "")
    if trusted then
        local ai = mb.ai(base)
        return name, params, function(g, p)
            local ok, m = pcall(ai.fn, g, p)
            if not ok then return nil, "error: " .. tostring(m) end
            return m
        end
    end
    -- no time budget: the protocol process kills a late thinking child;
    -- the instruction budget (opt-in elsewhere) ends a runaway move at once,
    -- with its reason, so the brain plays its fallback move without waiting
    local player, msg = mb.sandbox.load(base, {time = false, instructions = 10000000})
    if not player then error(msg, 0) end
    return name, params, function(g, p) return player:move(g, p) end
end

-- The thinking child: reads "SEQ W H K MOVES MS LEFT" lines (LEFT: ms on
-- the clock, -1 untimed), answers "SEQ MOVE m" or "SEQ FAIL reason". Never
-- returns.
local function think_loop(chan, think)
    local game, shape
    -- a fresh fork shares its pages with the parent: the first collection
    -- copies them; do it now, not in the first move's time
    collectgarbage("collect")
    while true do
        local line = chan:recv()
        if not line then host.brainproc.exit(0) end
        local seq, w, h, k, rule, moves, ms, left =
            line:match("^(%d+) (%d+) (%d+) (%d+) (%a+) ([%d,]*) (%d+) (%-?%d+)$")
        local this_shape = ("%s %s %s %s"):format(w, h, k, rule)
        if shape ~= this_shape then
            game = mb.Marubatsu{width = tonumber(w), height = tonumber(h), k = tonumber(k), rule = rule}
            shape = this_shape
        end
        game:restart()
        for m in moves:gmatch("%d+") do game:move(tonumber(m)) end
        left = tonumber(left)
        local m, why = think(game, tonumber(ms), left >= 0 and left or nil)
        if m then
            chan:send(seq .. " MOVE " .. tostring(m))
        else
            chan:send(seq .. " FAIL " .. tostring(why):gsub("[\r\n]", " "))
        end
    end
end

-- host.brain_main{ai =, fd =, k =, rule =, margin =, sandbox = "0"|"1", name =, seed =, debug =}
-- (strings, from cmd_brain.c) -> exit status
function host.brain_main(t)
    local out = host.brainproc.channel(0, math.tointeger(tonumber(t.fd)) or 1)
    local k = math.tointeger(tonumber(t.k or "5"))
    local rule = t.rule or "freestyle" -- INFO rule switches it (bit 1: exactly five)
    local margin = math.tointeger(tonumber(t.margin or "30"))
    local ok, name, params, ai = pcall(load_ai, t.ai, t.sandbox ~= "0")
    if not ok then
        io.stderr:write(("marubatsu brain: %s\n"):format(tostring(name)))
        return 1
    end
    name = t.name or name
    if t.seed then mb.seed(math.tointeger(tonumber(t.seed)) or t.seed) end
    local function say(kind, a, b) out:send(host.gomocup.answer(kind, a, b)) end
    local info = {}
    local game
    local child, busy, seq = nil, nil, 0 -- the thinking process, the request it is late with
    local think_fn -- the AI with its params and time: move | nil, reason

    -- a thinking process, forked before it is needed (at START), so that a
    -- move does not pay for the fork
    local function ensure_child()
        if child then return end
        -- nice: when both want the CPU, the protocol process wins and answers in time
        local c, is_child = host.brainproc.fork{nice = 5}
        if c and is_child then think_loop(c, think_fn) end
        child = c
    end
    local about = ('name="marubatsu-%s", version="%s", author="marubatsu", country="JP", www="marubatsu"')
        :format(name, mb.VERSION)

    think_fn = function(g, ms, left_ms)
        local p = {}
        for key, v in pairs(params) do p[key] = v end
        p.timelimit = ms / 1000
        if left_ms then p.time_left = left_ms / 1000 end
        local m, why = ai(g, p)
        if m == nil then return nil, why end
        return m
    end

    -- the move for the side to move in `game`, within its time
    local function play()
        if game.status ~= "playing" then return say("ERROR", "the game is already over") end
        local turn = info.timeout_turn or DEFAULT_TURN
        if turn <= 0 then turn = FAST_TURN end
        local timed = (info.timeout_match or 0) > 0 and info.time_left
        local budget = math.floor(TC.budget(turn, timed and info.time_left or nil, 0,
            game.width * game.height - game.move_count))
        local t0 = host.brainproc.now()
        local deadline = t0 + budget - math.min(margin, budget // 4)
        local m, note
        -- a thinker still busy with the last move (it was late) goes now
        if child and busy then
            local wait_until = t0 + budget // 4 -- a little time for its stale answer
            while true do
                local line = child:recv(math.max(0, math.floor(wait_until - host.brainproc.now())))
                if not line then break end
                if line:match("^(%d+) ") == tostring(busy) then busy = nil break end
            end
            if busy then
                child:kill()
                child, busy = nil, nil
            end
        end
        ensure_child()
        if child then
            seq = seq + 1
            local recs = {}
            for i = 1, game.move_count do recs[i] = game.records[i] end
            local sent = child:send(("%d %d %d %d %s %s %d %d"):format(seq, game.width, game.height, game.k, game.rule,
                table.concat(recs, ","), math.floor((deadline - t0) * TC.SOFT), timed and info.time_left or -1))
            local line
            while sent do
                line = child:recv(math.max(0, math.floor(deadline - host.brainproc.now())))
                if not line or line:match("^(%d+) ") == tostring(seq) then break end
            end
            local body = line and line:match("^%d+ (.*)$")
            if body and body:match("^MOVE %-?%d+$") then
                m = math.tointeger(tonumber(body:sub(6)))
                local okm = m and m >= 0 and m < game.width * game.height and game:getmark_by_move(m) == "."
                if not okm then
                    note, m = ("%s played %s, not a legal move: fallback move"):format(name, tostring(m)), nil
                end
            elseif body and body:sub(1, 5) == "FAIL " then
                note = ("%s failed (%s): fallback move"):format(name, body:sub(6))
            elseif not sent or (line == nil and child:exited()) then
                note = ("%s's thinking process ended: fallback move"):format(name)
                child:kill()
                child = nil
            else
                -- late: it may still answer; the next move waits for nothing
                note = ("%s did not answer within %d ms: fallback move"):format(name, math.floor(deadline - t0))
                busy = seq
            end
        else
            note = "cannot start the thinking process: fallback move"
        end
        if not m then
            m = fallback(game)
            say("MESSAGE", note)
        end
        game:move(m)
        local x, y = game:move_to_xy(m)
        if t.debug == "1" then say("DEBUG", ("%s: %.0f ms"):format(name, host.brainproc.now() - t0)) end
        say("move", x, y)
    end

    local function start(w, h)
        local okg, g = pcall(mb.Marubatsu, {width = w, height = h, k = k, rule = rule})
        if not okg then
            game = nil
            return say("ERROR", ("unsupported board %dx%d with k=%d: %s"):format(w, h, k,
                tostring(g):gsub("^.-:%d+: ", "")))
        end
        game = g
        say("OK")
        ensure_child()
    end

    -- INFO rule: bit 1 exactly five (an overline does not win), bit 2 a
    -- continuous game, bit 4 renju. A game already started takes the new
    -- rule with its moves replayed; ERROR (and the rule unchanged) for what
    -- cannot be played.
    local function set_rule(r)
        if r & 4 ~= 0 then
            return say("ERROR", "rule " .. r
                .. ": renju's forbidden moves are not supported (freestyle or exactly five)")
        elseif r & 2 ~= 0 then
            return say("ERROR", "rule " .. r .. ": a continuous game is not supported")
        end
        local new = r & 1 ~= 0 and "exact" or "freestyle"
        if new == rule then return end
        if game then
            local g = mb.Marubatsu{width = game.width, height = game.height, k = game.k, rule = new}
            for i = 1, game.move_count do
                if g.status ~= "playing" then
                    return say("ERROR", ("rule %d: the game so far is already over under it"):format(r))
                end
                g:move(game.records[i])
            end
            game = g
        end
        rule = new
    end

    local function on_board(x, y)
        return game and x < game.width and y < game.height
    end

    -- a line too long for the buffer is a line the parser refuses
    local function next_line()
        local line, why = out:recv()
        if not line and why == "too long" then return ("x"):rep(4097) end
        return line
    end

    while true do
        local line = next_line()
        if not line then break end
        local c, err = host.gomocup.parse_command(line)
        if not c then
            say("ERROR", err)
        elseif c.kind == "START" or c.kind == "RECTSTART" then
            start(c.x, c.y)
        elseif c.kind == "END" then
            break
        elseif c.kind == "ABOUT" then
            out:send(about)
        elseif c.kind == "INFO" then
            if c.key == "rule" and c.int then
                set_rule(c.int)
            elseif c.int then
                info[c.key] = c.int
            end
        elseif c.kind == "EMPTY" then
            -- ignored, as the protocol asks
        elseif c.kind == "UNKNOWN" then
            say("UNKNOWN", c.word)
        elseif not game then
            say("ERROR", "no board: START first")
        elseif c.kind == "RESTART" then
            game:restart()
            say("OK")
        elseif c.kind == "BEGIN" then
            if game.move_count > 0 then say("ERROR", "BEGIN on a board that is not empty") else play() end
        elseif c.kind == "TURN" then
            if not on_board(c.x, c.y) then
                say("ERROR", ("TURN %d,%d is off the %dx%d board"):format(c.x, c.y, game.width, game.height))
            elseif game.status ~= "playing" then
                say("ERROR", "the game is already over")
            elseif game:getmark_by_move(game:xy_to_move(c.x, c.y)) ~= "." then
                say("ERROR", ("TURN %d,%d is an occupied square"):format(c.x, c.y))
            else
                game:move(game:xy_to_move(c.x, c.y))
                play()
            end
        elseif c.kind == "TAKEBACK" then
            local last = game.move_count > 0 and game.records[game.move_count]
            if last and on_board(c.x, c.y) and game:xy_to_move(c.x, c.y) == last then
                game:unmove()
                say("OK")
            else
                say("ERROR", ("TAKEBACK %d,%d is not the last move"):format(c.x, c.y))
            end
        elseif c.kind == "BOARD" then
            -- read to DONE; then replay: own stones (1) are the side to move's
            local mine, theirs, bad = {}, {}, nil
            while true do
                local l = next_line()
                if not l then return 0 end
                local s, e = host.gomocup.parse_stone(l)
                if s == "DONE" then break end
                if not s then
                    bad = bad or e
                elseif not on_board(s.x, s.y) then
                    bad = bad or ("%d,%d is off the board"):format(s.x, s.y)
                elseif s.field == 3 then
                    bad = bad or "field 3 (continuous game) is not supported"
                else
                    local list = s.field == 1 and mine or theirs
                    list[#list + 1] = game:xy_to_move(s.x, s.y)
                end
            end
            -- the side to move has as many stones as the other (it is o) or one fewer (x)
            if not bad and #mine ~= #theirs and #mine ~= #theirs - 1 then
                bad = ("%d own and %d opponent stones: not a position of alternate moves"):format(#mine, #theirs)
            end
            if not bad then
                game:restart()
                local first, second = mine, theirs
                if #mine < #theirs then first, second = theirs, mine end
                for i = 1, #first + #second do
                    local list = i % 2 == 1 and first or second
                    local m = list[(i + 1) // 2]
                    if game.status ~= "playing" then bad = "the position is already won"; break end
                    if game:getmark_by_move(m) ~= "." then bad = "a square given twice"; break end
                    game:move(m)
                end
                if not bad and game.status ~= "playing" then bad = "the position is already over" end
            end
            if bad then
                game:restart()
                say("ERROR", "BOARD: " .. bad)
            else
                play()
            end
        end
    end
    if child then child:close(100) end
    return 0
end
