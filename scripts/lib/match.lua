-- scripts/lib/match.lua: games between AIs (matches.md, ais.md §9): mb.play,
-- mb.ai_match with the series' exact table, mb.show_progress. Embedded; runs
-- once with mb as its argument.
local mb, private = ...

local EMPTY = mb.NO_PARAMS
local STATUSES = {"o", "x", "draw"}
local mtype = math.type

-- Was the computation stopped by Ctrl-C? (the engine's interrupt flag; the
-- pool of worker processes reports its own as the error "interrupted")
local function interrupted(err) return private.interrupted() or err == "interrupted" end

-- The moves of one game: a0 plays 〇 with p0, a1 × with p1, from the
-- start. Returns the final status.
local function moves(game, a0, a1, p0, p1)
    game:restart()
    local f0, f1 = a0.fn, a1.fn
    while true do
        local m = f0(game, p0)
        if mtype(m) ~= "integer" then error(("it returned %s, not a square"):format(m), 0) end
        game:move(m)
        if game.status ~= "playing" then return game.status end
        m = f1(game, p1)
        if mtype(m) ~= "integer" then error(("it returned %s, not a square"):format(m), 0) end
        game:move(m)
        if game.status ~= "playing" then return game.status end
    end
end

-- One game, as moves(); an AI that fails or returns something that is not
-- a legal move stops it with an error naming that AI and its mark.
local function play_game(game, a0, a1, p0, p1)
    local ok, result = pcall(moves, game, a0, a1, p0, p1)
    if ok then return result end
    if interrupted() then error("interrupted", 0) end -- Ctrl-C: no AI to blame
    local ai, mark = a0, "o"
    if game.turn == "x" then ai, mark = a1, "x" end
    error(("%s (%s) did not play a legal move in position\n%s%s"):format(ai.name, mark,
        tostring(game), tostring(result)), 0)
end

local TC = private.timecontrol -- scripts/lib/timecontrol.lua

-- Who moves in a timed game: a sandboxed AI of `marubatsu match` as its
-- sandbox (so the time control shortens its budget), any other AI trusted.
local function timed_mover(ai)
    if ai.sandbox_player then return {sandbox = ai.sandbox_player, sandbox_time = ai.sandbox_time, name = ai.name} end
    return {ai = ai, name = ai.name}
end

local function lost_on_time(why) return why == "time" or why:sub(1, 6) == "time: " end

-- One game under the time control tc, movers m0 (〇) and m1 (×): the final
-- status, and the mark of the side that lost on time (nil if none). Any
-- other failed move stops it with an error, as play_game's do.
local function timed_game(game, m0, m1, p0, p1, tc)
    game:restart()
    local clocks = TC.clocks(tc)
    while game.status == "playing" do
        local side = game.turn
        local mover, params = m0, p0
        if side == "x" then mover, params = m1, p1 end
        local m, why, used = TC.move(mover, game, params, tc, clocks[side])
        clocks[side] = TC.charge(tc, clocks[side], used)
        if m == nil then
            if interrupted() then error("interrupted", 0) end
            if lost_on_time(why) then return side == "o" and "x" or "o", side end
            error(("%s (%s) did not play a legal move in position\n%s%s"):format(mover.name, side,
                tostring(game), why), 0)
        end
        game:move(m)
    end
    return game.status
end

-- The options each function takes (any other key is refused: a typo must
-- not be ignored).
local OPTIONS = {
    play = {"ai", "params", "verbose", "seed", "game", "mbparams"},
    ai_match = {"ai", "params", "match_num", "mbparams", "seed", "progress", "progress_interval", "quiet", "move_time",
        "game_time", "increment", "slack"},
    show_progress = {"ai", "winner", "params", "mbparams", "max_games"},
}

-- The two AIs of a call {ai = {A, B}, ...}, checked with the options and
-- the AIs' params (mb.check_params). [level: for errors]
local function two_ais(t, fname)
    if type(t) ~= "table" or type(t.ai) ~= "table" or t.ai[1] == nil or t.ai[2] == nil then
        error(("bad argument #1 to '%s' (table {ai = {A, B}, ...} expected)"):format(fname), 3)
    end
    local known = OPTIONS[fname]
    for k in pairs(t) do
        local ok = false
        for _, name in ipairs(known) do ok = ok or k == name end
        if not ok then
            error(("%s: unknown option '%s' (known: %s)"):format(fname, tostring(k), table.concat(known, ", ")), 3)
        end
    end
    local a0, a1 = mb.ai(t.ai[1]), mb.ai(t.ai[2])
    local params = t.params or EMPTY
    mb.check_params(a0, params[1], 3)
    mb.check_params(a1, params[2], 3)
    return a0, a1
end

-- mb.play{ai = {A, B}, params = {pA, pB}, verbose =, seed =, game =} -> status
-- One game, A as 〇. With seed the default stream is seeded first; with
-- verbose the position is printed before every move and at the end.
function mb.play(t)
    local a0, a1 = two_ais(t, "play")
    local params = t.params or EMPTY
    local game = t.game or mb.Marubatsu(t.mbparams)
    if t.seed ~= nil then mb.seed(t.seed) end
    if not t.verbose then return play_game(game, a0, a1, params[1] or EMPTY, params[2] or EMPTY) end
    -- the same game, each AI printing the position before it moves
    local function shown(ai)
        return {name = ai.name, fn = function(g, p) print(g) return ai.fn(g, p) end}
    end
    local status = play_game(game, shown(a0), shown(a1), params[1] or EMPTY, params[2] or EMPTY)
    print(game)
    return status
end

-- The series' table (matches.md §2.1) for tallies t (rows o, x, total) of
-- match_num iterations; ratios of the games each row holds (all of them
-- but in a partial table, "-" for none).
local function format_tables(t, match_num)
    local w = math.max(#tostring(2 * match_num), 7)
    local keys = {"win", "lose", "draw"}
    local out = {}
    for _, kind in ipairs({"count", "ratio"}) do
        local line = {kind}
        for _, key in ipairs(keys) do line[#line + 1] = (" %" .. w .. "s"):format(key) end
        out[#out + 1] = table.concat(line)
        for _, label in ipairs({"o", "x", "total"}) do
            local row = t[label]
            local games = row.win + row.lose + row.draw
            line = {("%-5s"):format(label)}
            for _, key in ipairs(keys) do
                local v = row[key]
                if kind == "ratio" then v = games > 0 and ("%.1f%%"):format(100.0 * (v / games)) or "-" end
                line[#line + 1] = (" %" .. w .. "s"):format(v)
            end
            out[#out + 1] = table.concat(line)
        end
        out[#out + 1] = ""
    end
    return table.concat(out, "\n") .. "\n"
end

local host = private.host -- the host library (tourney_run, watch_move)

-- The games of a match in a worker process (`marubatsu match` with a
-- sandboxed AI), under the hard line: a move still running past its time
-- budget and `slack` seconds is ended by killing the worker, and a new one
-- (a fork of this process as it was before the first game) plays on.
-- Game j (1 .. 2 match_num) is the first game of iteration (j + 1) // 2
-- (A as 〇) when j is odd, the second (B as 〇) when even. The worker
-- sends a line per game, "j status loser" (loser: 1 or 2 for the AI that
-- lost on time, 0 for none), or "j !message" for an AI that failed (the
-- message escaped: host.journal_escape); add(j, status, loser) counts a
-- game here. A move the hard line ends is lost on time under a time
-- control; without one the match stops there, as a move that runs out of
-- its time budget does. -> nothing, or raises the message of the game that
-- stopped the match.
local function supervised_games(match_num, slack, one_game, add, names, tc, mbparams, progress)
    local failed = false -- in the worker: after a failure, the rest is skipped
    local function play(j)
        if failed then return j .. " !skipped\n" end
        local ok, status, loser = pcall(one_game, j)
        if not ok then
            failed = true
            return j .. " !" .. host.journal_escape(tostring(status)) .. "\n"
        end
        return ("%d %s %d\n"):format(j, status, loser or 0)
    end
    local why, done_games = nil, 0
    local function done(lines)
        for j, rest in lines:gmatch("(%d+) ([^\n]*)\n") do
            j = math.tointeger(tonumber(j))
            if rest:sub(1, 1) == "!" then
                why = why or host.journal_split(rest:sub(2))[1]
                return true
            end
            local status, loser = rest:match("^(%S+) (%d)$")
            add(j, status, tonumber(loser))
            done_games = done_games + 1
        end
        if progress then progress(done_games // 2) end
        return false
    end
    local function forfeit(j, info)
        local g = mb.Marubatsu(mbparams)
        for _, m in ipairs(info.moves) do g:move(m) end
        local side = g.turn
        local first = j % 2 == 1 and 1 or 2 -- the AI playing 〇
        local who = side == "o" and first or 3 - first
        if not tc then
            return nil, ("%s (%s) did not play a legal move in position\n%s%s"):format(names[who], side,
                tostring(g), "time")
        end
        return ("%d %s %d\n"):format(j, side == "o" and "x" or "o", who)
    end
    local ok, err = private.in_workers(true, host.tourney_run, 2 * match_num, 1, play, done,
        {isolate = true, slack = slack, forfeit = forfeit})
    if why then error(why, 0) end
    if not ok then error(err, 0) end
end

-- mb.ai_match{ai = {A, B}, params = {pA, pB}, match_num = 10000,
--             mbparams = {...}, seed =, progress =, quiet =,
--             move_time =, game_time =, increment =} -> tallies
-- match_num iterations of two games each, A as 〇 then as ×, on one game
-- made from mbparams. With seed, mb.seed(seed) once before. Prints
-- "A VS B" and the count and ratio tables on stdout (unless quiet), and
-- the progress on stderr (scripts/lib/progress.lua): progress = "bar",
-- "lines" (every progress_interval seconds, default 5, and at the end) or
-- "none" (or false); by default none when quiet, else bar on a terminal and
-- lines otherwise.
-- Returns {o = {win, lose, draw}, x = {...}, total = {...}} from A's view.
-- Ctrl-C (the interrupt flag, or a worker pool's) stops it: the tables of
-- the games played so far are printed after a line "partial: interrupted
-- (Ctrl-C) after G of N games", then the error "interrupted" is raised.
-- With a time control (move_time, game_time: scripts/lib/timecontrol.lua)
-- every move is timed; a loss on time counts as a loss of that game, and
-- the tallies' time_forfeits = {A's, B's} are printed after the tables.
-- With a sandboxed AI (mb.ai of a player from mb.sandbox.load, or the
-- script files of `marubatsu match`, which passes slack) the games run in
-- a worker process under the hard line (supervised_games), with the slack
-- of t.slack (default host.watch_slack).
local function ai_match(t, slack)
    local a0, a1 = two_ais(t, "ai_match")
    local params = t.params or EMPTY
    local p0, p1 = params[1] or EMPTY, params[2] or EMPTY
    local match_num = t.match_num or 10000
    if math.type(match_num) ~= "integer" or match_num < 1 then
        error("bad argument 'match_num' to 'ai_match' (positive integer expected)", 2)
    end
    local tc = TC.of(t, "ai_match: ")
    -- a sandboxed player (mb.ai of a player from mb.sandbox.load) plays
    -- under the hard line, as in `marubatsu match`
    if slack == nil and (a0.sandbox_player or a1.sandbox_player) then slack = TC.slack_of(t.slack, "ai_match: ") end
    local game = mb.Marubatsu(t.mbparams)
    if t.seed ~= nil then mb.seed(t.seed) end
    local quiet = t.quiet
    -- game j of the match (1 .. 2 match_num): A as 〇 when j is odd ->
    -- status, and the AI that lost on time (1: A, 2: B) or nil
    local one_game
    if tc then
        local movers = {timed_mover(a0), timed_mover(a1)}
        one_game = function(j)
            local first = j % 2 == 1 and 1 or 2
            local q0, q1 = p0, p1
            if first == 2 then q0, q1 = p1, p0 end
            local s, loser = timed_game(game, movers[first], movers[3 - first], q0, q1, tc)
            return s, loser and (loser == "o" and first or 3 - first)
        end
    else
        one_game = function(j)
            if j % 2 == 1 then return play_game(game, a0, a1, p0, p1) end
            return play_game(game, a1, a0, p1, p0)
        end
    end
    local mode_ok, pmode = pcall(private.progress.mode, t.progress == nil and t.quiet and "none" or t.progress)
    if not mode_ok then error("bad argument 'progress' to 'ai_match' (bar, lines, none or false expected)", 2) end
    local interval = t.progress_interval
    if interval ~= nil and (type(interval) ~= "number" or interval < 0) then
        error("bad argument 'progress_interval' to 'ai_match' (seconds >= 0 expected)", 2)
    end
    local report = private.progress.new{mode = pmode, total = match_num, interval = interval}
    if not quiet then io.write(("%s VS %s\n"):format(a0.name, a1.name)) end
    local c0 = {o = 0, x = 0, draw = 0}
    local c1 = {o = 0, x = 0, draw = 0}
    local function score() -- A's wins, losses and draws so far
        return ("%s +%d -%d =%d"):format(a0.name, c0.o + c1.x, c0.x + c1.o, c0.draw + c1.draw)
    end
    local forfeits = {0, 0}
    local function add(j, s, loser)
        local c = j % 2 == 1 and c0 or c1
        c[s] = c[s] + 1
        if loser then forfeits[loser] = forfeits[loser] + 1 end
    end
    local played = 0 -- games counted
    local function count(j, s, loser)
        add(j, s, loser)
        played = played + 1
    end
    -- Ctrl-C: the games played so far are the (partial) result
    local ok, err = pcall(function()
        if slack then
            supervised_games(match_num, slack, one_game,
                function(j, s, loser) count(j, s, loser ~= 0 and loser or nil) end, {a0.name, a1.name}, tc,
                t.mbparams, pmode ~= "none" and function(i) report:update(i, score) end)
        else
            local update = pmode ~= "none" and report.update
            for i = 1, match_num do
                count(2 * i - 1, one_game(2 * i - 1))
                count(2 * i, one_game(2 * i))
                if update then update(report, i, score) end
            end
        end
    end)
    local partial = not ok and interrupted(err)
    if not ok and not partial then error(err, 0) end
    report:finish()
    if partial and not quiet then
        io.write(("partial: interrupted (Ctrl-C) after %d of %d games\n"):format(played, 2 * match_num))
    end
    local tallies = {
        o = {win = c0.o, lose = c0.x, draw = c0.draw},
        x = {win = c1.x, lose = c1.o, draw = c1.draw},
    }
    tallies.total = {}
    for _, key in ipairs({"win", "lose", "draw"}) do
        tallies.total[key] = tallies.o[key] + tallies.x[key]
    end
    if not quiet then io.write(format_tables(tallies, match_num)) end
    if tc then
        tallies.time_forfeits = forfeits
        if not quiet then
            io.write(("time control %s: lost on time: %s %d, %s %d\n"):format(TC.text(tc), a0.name, forfeits[1],
                a1.name, forfeits[2]))
        end
    end
    tallies.names = {a0.name, a1.name}
    if partial then error("interrupted", 0) end
    return tallies
end
function mb.ai_match(t) return ai_match(t) end

-- mb.show_progress{ai = {A, B}, winner = "o" | "x" | "draw", params =,
--                  max_games = 100000} -> records
-- Play games until one ends with `winner`, then print its positions move
-- by move (matches.md §5). Gives up with an error after max_games games
-- (the series would loop forever).
function mb.show_progress(t)
    local a0, a1 = two_ais(t, "show_progress")
    local params = t.params or EMPTY
    local winner = t.winner
    local ok = false
    for _, s in ipairs(STATUSES) do ok = ok or s == winner end
    if not ok then error("bad argument 'winner' to 'show_progress' (o, x or draw expected)", 2) end
    local game = mb.Marubatsu(t.mbparams)
    for _ = 1, t.max_games or 100000 do
        if play_game(game, a0, a1, params[1] or EMPTY, params[2] or EMPTY) == winner then
            local records = game.records
            game:restart()
            for i = 1, #records do
                game:move(records[i])
                print(game)
            end
            return records
        end
    end
    error(("show_progress: no game ended with '%s' in %d games"):format(winner, t.max_games or 100000), 2)
end

-- ---------------------------------------------------------------- CLI
-- AIs named on the command line, for `match` and `tournament`
-- (private.command).

-- The AI of a sandboxed player (mb.sandbox.load), named `name`: its move
-- raises the sandbox's reason ("time", "tampered", "illegal move: ...")
-- when it fails, and runs under the hard line (host.watch_move: in a
-- worker process that a supervisor watches, a move still running past the
-- player's time budget and the slack is ended by killing the worker).
-- own: the player's own time budget, which a time control can only
-- shorten (nil: the time control's limit replaces its budget). Fields
-- sandbox_player, sandbox_time: for a time control (timed_mover).
local function sandboxed_ai(player, name, own)
    local move = player.move
    -- the time budget of its untimed moves: the hard line's deadline
    local hard = player.limits.time or nil
    local watch_move, watch_done = host.watch_move, host.watch_done
    return mb.make_ai(name, function(game, params)
        if hard then watch_move(hard, game) end
        local m, reason = move(player, game, params)
        if hard then watch_done() end
        if m == nil then error(private.files.printable(reason, 1000), 0) end
        return m
    end, {sandbox_player = player, sandbox_time = own or nil})
end

-- mb.ai(player) for a sandboxed player: its AI (loader.lua), named by the
-- script's AI, under the budget it was loaded with.
function private.sandboxed_ai(player)
    return sandboxed_ai(player, player.ai_name or player.name, player.limits.time)
end

-- Is spec a Gomocup brain (brain:COMMAND[:key=value,...])?
local function is_brain(spec) return private.brains.is_spec(spec) end

-- Is spec a script's path (rather than an AI's name)?
local function is_path(spec)
    if is_brain(spec) then return false end
    return spec:find("/", 1, true) ~= nil or spec:match("%.lua$") ~= nil
end

-- Is the script `name` one of the built-in AIs (trusted)? (the resolver's
-- origin, scripts/lib/loader.lua)
local builtin = private.is_builtin

-- What keeps the AI `spec` (a name or a path) from being loaded at all: a
-- missing file, a directory, a name found nowhere; nil if nothing does.
local function script_problem(spec)
    if is_brain(spec) then return nil end -- the pre-flight starts it
    if is_path(spec) then
        local f, err = io.open(spec, "rb")
        if not f then return err end
        local ok, rerr = f:read(0)
        f:close()
        if ok == nil and rerr then return ("%s: %s"):format(spec, rerr) end
        return nil
    end
    local found, err = mb.loadscript(spec)
    if not found and err:find("not found", 1, true) then return err end
    return nil
end

-- The sandbox limits of the options time, instructions and memory (texts
-- from the command line; 0 turns a budget off), or nil when none is given.
local function command_limits(t)
    if not (t.time or t.instructions or t.memory) then return nil end
    local limits = {}
    for _, k in ipairs {"time", "instructions", "memory"} do
        local v = tonumber(t[k])
        if v then limits[k] = v > 0 and v or false end
    end
    return limits
end

-- Check the --move-time and --game-time texts of command `cmd` (fields
-- move_time, game_time of t): true, or false after a one-line message.
local function check_time_control(cmd, t)
    local ok, err = pcall(TC.of, {move_time = t.move_time, game_time = t.game_time})
    if ok then return true end
    err = private.message(err):gsub("move_time", "--move-time"):gsub("game_time", "--game-time")
        :gsub("^increment", "the increment of --game-time")
    io.stderr:write(("marubatsu %s: %s\n"):format(cmd, err))
    return false
end

-- The AI of the brain spec "brain:COMMAND[:key=value,...]" (keys as in a
-- tournament, scripts/lib/brains.lua, and name=) under the time control tc
-- (nil: none): each move is the brain's (a process started at its first
-- move, told the position with TURN, or BOARD after anything else, and
-- paused while the other side moves); a failed move raises the reason
-- ("time: ...", "crash: ...", "illegal move: ..."). Not started yet: the
-- pre-flight (command_preflight) starts and ends it once, and names it.
-- -> ai | nil, message
local function brain_ai(spec, i, tc)
    local p = {}
    local ok, err = pcall(private.brains.setup, p, spec, i, tc, {name = true}, "name")
    if not ok then return nil, (private.message(err):gsub("^players%[%d+%]: ", "")) end
    local _, params = private.host.playerspec(spec:sub(7))
    local name = params and params.name ~= nil and tostring(params.name) or nil
    local b, brains = p.brain, private.brains
    brains.begin(p)
    local ai = mb.make_ai(name or private.basename(b.argv[1]), function(game)
        -- a new game (its first or second move, after moves of another):
        -- a new process and a new clock, as in a tournament
        if game.move_count < 2 and #b.known > 0 then brains.begin(p) end
        local m, why = brains.move(b, game)
        if m == nil then error(why, 0) end
        return m
    end, {brain = b, brain_named = name ~= nil})
    return ai
end

-- The AI for `spec` in `marubatsu match`: a built-in AI as it is, any other
-- script (a file, or a name found in -I directories) in the sandbox with
-- the given limits unless sandbox is false, a brain (brain:COMMAND) under
-- the time control tc. A sandboxed AI's failed move is
-- an error giving the sandbox's reason ("time", "tampered", "illegal
-- move: ..."), so the match blames that AI. A sandboxed AI draws from its
-- own stream (it cannot read or steer its opponent's), seeded from the
-- match's seed and its place i, or from the host's stream without one.
-- -> ai | nil, message
local function command_ai(spec, i, seed, sandbox, limits, tc)
    if is_brain(spec) then return brain_ai(spec, i, tc) end
    if not sandbox or (not is_path(spec) and builtin(spec)) then
        local ok, ai = pcall(mb.ai, spec)
        if ok then return ai end
        return nil, tostring(ai)
    end
    local player, err = mb.sandbox.load(spec, limits)
    if not player then
        err = private.files.printable(err, 1000)
        -- a compile error names the file already (FILE:LINE: ...)
        if err:sub(1, #spec + 1) == spec .. ":" then return nil, err end
        return nil, ("%s: %s"):format(spec, err)
    end
    if seed ~= nil then
        player:seed(private.host.tourney_seed(seed, "match", i))
    else
        player:seed(mb.getrandbits(62))
    end
    -- its own time budget, if given: a time control's limit may shorten it,
    -- and replaces the default (mb.sandbox.defaults.time)
    return sandboxed_ai(player, player.ai_name or spec, limits and limits.time)
end

-- The pre-flight of a command's AI (as a tournament's, before the first
-- game): a brain started on game g's board, answering OK to START (and
-- ABOUT, which names it unless name= did), then ended; a built-in AI's
-- rule called once on the start position (ai7 on an even board raises).
-- -> nil | message: "SPEC cannot play this board (9x9, k=4): ..."
local function command_preflight(ai, spec, g)
    local p = {params = {}, brain = ai.brain, named = ai.brain_named}
    if not ai.brain and not ai.sandbox_player then p.ai = ai end
    local what, why = private.preflight_player(p, g)
    if not what then
        if ai.brain and p.about then ai.name = p.about end
        return nil
    end
    if what == "cannot play this board" then
        what = ("cannot play this board (%dx%d, k=%d%s)"):format(g.width, g.height, g.k,
            g.rule == "exact" and ", exact rule" or "")
    end
    return ("%s %s: %s"):format(private.files.printable(spec, 120), what, why)
end

-- The brains of the AIs given end their processes (END, then gone).
local function end_brains(...)
    for _, ai in ipairs {...} do
        if ai.brain then private.brains.finish({brain = ai.brain}) end
    end
end

private.command = {is_path = is_path, builtin = builtin, script_problem = script_problem, limits = command_limits,
    check_time_control = check_time_control, ai = command_ai, preflight = command_preflight, end_brains = end_brains}

-- mb.match_main{ai0 =, ai1 =, match_num =, seed =, progress =, sandbox =,
-- time =, instructions =, memory =, width =, height =, k =, rule =, board =,
-- count_linemark =} (strings, from `marubatsu match`) -> exit status: 0,
-- 1 for an error of the match (an AI that fails), 2 for an AI that does not
-- exist, 130 when Ctrl-C stopped it (after the partial tables); errors are
-- one line (plus the position where an AI failed), no traceback.
function mb.match_main(t)
    local typed = {t.ai0, t.ai1}
    -- NAME:key=value,...: the AI's parameters, parsed as a tournament's
    -- players are (host.playerspec); the AI is then named as typed
    local specs, params = {}, {}
    for i, spec in ipairs(typed) do
        specs[i] = spec
        if not is_brain(spec) then
            local base, p = host.playerspec(spec)
            if not base then
                io.stderr:write(("marubatsu match: bad AI '%s': %s\n"):format(private.files.printable(spec, 80), p))
                return 2
            end
            if next(p) ~= nil then specs[i], params[i] = base, p end
        end
    end
    for _, spec in ipairs(specs) do
        local why = script_problem(spec)
        if why then
            io.stderr:write("marubatsu match: ", private.files.printable(why), "\n")
            return 2
        end
    end
    if not check_time_control("match", t) then return 2 end
    local slack_ok, slack = pcall(TC.slack_of, t.slack)
    if not slack_ok then
        io.stderr:write("marubatsu match: ", (private.message(slack):gsub("^slack", "--slack")), "\n")
        return 2
    end
    local limits = command_limits(t)
    local function num(v) return v ~= nil and math.tointeger(tonumber(v)) or nil end
    -- the players first: one that cannot load is a bad player (exit 2)
    local ais = {}
    local tc = TC.of{move_time = t.move_time, game_time = t.game_time}
    local mbparams = {width = num(t.width), height = num(t.height), k = num(t.k), rule = t.rule, board = t.board,
        count_linemark = t.count_linemark == "1"}
    local board_ok, g = pcall(mb.Marubatsu, mbparams)
    if not board_ok then
        io.stderr:write("marubatsu match: ", private.message(g), "\n")
        return 2
    end
    for i, spec in ipairs(specs) do
        local ok, ai, why = pcall(command_ai, spec, i, num(t.seed), t.sandbox ~= "0", limits, tc)
        if not ok or not ai then
            io.stderr:write("marubatsu match: ", private.message(ok and why or ai), "\n")
            return 2
        end
        if params[i] then
            -- keys the AI does not take are a bad player (exit 2)
            local checked, err
            if ai.sandbox_player then
                checked, err = ai.sandbox_player:check_params(params[i])
            else
                checked, err = pcall(mb.check_params, ai, params[i])
            end
            if not checked then
                io.stderr:write("marubatsu match: ", private.message(err), "\n")
                return 2
            end
            ai.name = typed[i]
        end
        ais[i] = ai
        -- the pre-flight: a player that cannot play this board stops the
        -- match before its first game
        local problem = command_preflight(ai, spec, g)
        if problem then
            io.stderr:write("marubatsu match: ", problem, "\n")
            return 2
        end
    end
    local ok, err = pcall(function()
        -- a sandboxed AI plays in a worker process, under the hard line
        local untrusted = ais[1].sandbox_player or ais[2].sandbox_player
        ai_match({ai = ais, params = {params[1], params[2]}, match_num = num(t.match_num) or 10000, seed = t.seed,
            progress = t.progress,
            move_time = t.move_time, game_time = t.game_time, mbparams = mbparams}, untrusted and slack or nil)
        private.files.write_checked(io.stdout, "standard output", "")
    end)
    end_brains(ais[1], ais[2])
    if ok then return 0 end
    if interrupted(err) then -- the partial tables are out: exit 130 as a shell would
        io.stderr:write("marubatsu match: interrupted\n")
        return 130
    end
    io.stderr:write("marubatsu match: ", private.message(err), "\n")
    return 1
end
