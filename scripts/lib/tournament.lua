-- scripts/lib/tournament.lua: tournaments between AIs (host.tournament):
-- the players, playing the games in worker processes with the journal
-- written and resumed, and the command-line entry points. The schedule and
-- settings are in scripts/lib/schedule.lua, the journal's reading, checks,
-- merging and replay in scripts/lib/journals.lua, the results in
-- scripts/lib/results.lua; the C pieces (seeds, worker processes, journal
-- lines, player specs, statistics) in src/lua/l_tournament.c. Embedded;
-- runs once with mb and the library's private table.
--
-- The schedule. Pairings are every pair of players (round_robin) or the
-- first player against each other (gauntlet). Each pairing plays `games`
-- games (even) as pairs from one opening, the pairing's first player as 〇
-- in the first game of the pair and as × in the second. Game numbers run
-- pair by pair across pairings: game g (1-based) is, with r = (g-1) // 2,
-- pairing r % P + 1, pair r // P + 1, colour (g-1) % 2, so a partial run
-- is balanced. Game g's seed is host.tourney_seed(seed, "A\tB", index), A
-- and B the names of the pairing's players (so a pairing's games are the
-- same whoever else plays). Each player draws from its own stream in each
-- game, seeded (host.stream_seed) with host.tourney_seed(game seed, "o" or
-- "x", 1) for its side, so no player can read or steer another's draws: a sandboxed
-- player's stream lives in its own state; for a trusted player's moves,
-- mb.stream (where the trusted AIs draw) points at its stream
-- (host.stream_use: no state is copied).
local mb, private = ...
local host = private.host -- the host library (require "marubatsu.host")

local T = {}
local NAME_MAX = 255 -- bytes of a player's name in a journal (journal.h)
local REASON_MAX = 1000 -- bytes of a forfeit reason kept (a journal holds 1023)
local CHUNK = 262144 -- games handed to the workers at a time (the schedule is made lazily)

local files = private.files
local printable = files.printable

local function fail(msg, level) error(msg, level == 0 and 0 or (level or 1) + 1) end

-- the schedule and settings: scripts/lib/schedule.lua
local S = private.schedule
local pairings_of, locate, settings_of, games_of_shard = S.pairings_of, S.locate, S.settings_of, S.games_of_shard
-- the journal: scripts/lib/journals.lua
local J = private.journals
local JOURNAL, header_lines, read_journal, journal_text = J.JOURNAL, J.header_lines, J.read_journal, J.journal_text
local game_checker, first_difference = J.game_checker, J.first_difference

-- ---------------------------------------------------------------- players

-- names and scripts of AIs: scripts/lib/match.lua
local is_path, builtin = private.command.is_path, private.command.builtin

local function copy_params(p)
    local c = {}
    for k, v in pairs(p or {}) do c[k] = v end
    return c
end

-- Describe a parameter table in NAME:key=value form (sorted keys).
local function params_text(p)
    local keys = {}
    for k in pairs(p) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = k .. "=" .. tostring(p[k]) end
    return table.concat(out, ",")
end

-- The AI name or script file of a player spec, checked before anything
-- runs: the spec parses, its name fits a journal, and the script exists
-- (a directory is not a script). -> base, params, or an error.
local function check_spec(entry, i)
    local base, params = host.playerspec(entry)
    if not base then fail(("players[%d]: bad player '%s': %s"):format(i, printable(entry, 80), params), 3) end
    if #entry > NAME_MAX then
        fail(("players[%d]: the player '%s' is %d bytes long; a journal holds names of at most %d bytes"):format(i,
            printable(entry, 40), #entry, NAME_MAX), 3)
    end
    local why = private.command.script_problem(base)
    if why then fail(("players[%d]: %s"):format(i, why), 3) end
    return base, params
end

-- One player from an entry of `players`: an AI name or script file (with
-- optional ":key=value,..."), a function, an AI, or a table {name =, ai =,
-- params =, sandbox =, limits =}. Fields: name, spec (text for the
-- journal), params, and either ai (trusted), sandbox (a sandboxed player)
-- or broken (the message of a script that failed to load).
local function make_player(entry, i, opts)
    local p = {params = {}}
    local spec, name
    if type(entry) == "table" and not mb.is_ai(entry) then
        p.params = copy_params(entry.params)
        if entry.sandbox ~= nil then p.force_sandbox = entry.sandbox end
        p.limits = entry.limits
        name = entry.name
        entry = entry.ai or entry.fn or entry[1]
        if entry == nil then fail(("players[%d]: a table needs ai = NAME, FILE, function or AI"):format(i), 3) end
    end
    if private.brains.is_spec(entry) then
        spec = private.brains.setup(p, entry, i, opts.tc) -- an external brain (scripts/lib/brains.lua)
        name = name or spec
    elseif type(entry) == "string" then
        local base, params = check_spec(entry, i)
        for k, v in pairs(params) do p.params[k] = v end
        spec = entry
        p.script = base
        local sandboxed = is_path(base) or not builtin(base)
        if p.force_sandbox ~= nil then sandboxed = p.force_sandbox end
        if opts.sandbox == false then sandboxed = false end
        if sandboxed then
            local limits = p.limits or opts.limits
            -- loading and the parameter check below run the script's code:
            -- under a time control, a player without a time budget of its
            -- own gets the first move's limit for them, as for its moves
            local setup = limits
            if opts.tc and limits and limits.time == false then
                setup = copy_params(limits)
                setup.time = (private.timecontrol.limit(opts.tc, opts.tc.game))
            end
            local player, msg = mb.sandbox.load(base, setup)
            if player then
                p.sandbox = player
                -- its own time budget, if given: a time control's limit may
                -- shorten it, and replaces the default (mb.sandbox.defaults.time)
                local own = limits and limits.time
                p.sandbox_time = own or nil
                p.sandbox_move = player.move -- looked up once, not per move
                -- its time budget outside a time control: the hard line's deadline
                p.hard = player.limits.time or nil
                -- NAME:key=value: keys its AI does not take are refused now;
                -- a script that ran out of a budget in the check (a
                -- spinning __index on its params) loses its games with it
                local checked, err, failed = player:check_params(p.params)
                if failed then
                    p.broken = printable(err, REASON_MAX)
                elseif not checked then
                    fail(("players[%d]: %s"):format(i, tostring(err):gsub("^[^\n]-:%d+: ", "")), 3)
                end
            else
                p.broken = printable(msg, REASON_MAX)
            end
        else
            local ok, ai = pcall(mb.ai, base)
            if ok then
                p.ai = ai
                -- NAME:key=value: keys the AI does not take are refused now
                local checked, err = pcall(mb.check_params, ai, p.params)
                if not checked then fail(("players[%d]: %s"):format(i, tostring(err):gsub("^[^\n]-:%d+: ", "")), 3) end
            elseif is_path(base) or mb.loadscript(base) then
                p.broken = printable("error: " .. tostring(ai), REASON_MAX)
            else
                fail(("players[%d]: %s"):format(i, tostring(ai)), 3)
            end
        end
        name = name or spec
    elseif type(entry) == "function" then
        p.ai = mb.make_ai("function", entry)
        spec = "function"
        name = name or ("function" .. i)
    elseif mb.is_ai(entry) then
        p.ai = entry
        spec = entry.name
        name = name or entry.name
    else
        fail(("players[%d]: an AI name, file, function, AI or table expected, got %s"):format(i, type(entry)), 3)
    end
    if next(p.params) and not spec:find(":", 1, true) then spec = spec .. ":" .. params_text(p.params) end
    if type(name) ~= "string" or name == "" then fail(("players[%d]: the name must be a non-empty string"):format(i), 3) end
    if name:find("[%c\127]") then
        fail(("players[%d]: a name cannot hold tabs, newlines or other control characters ('%s')"):format(i,
            printable(name, 80)), 3)
    end
    -- valid UTF-8 in the journal, results.json and report.html: a name
    -- or spec (a file's name) with other bytes has U+FFFD in their place
    p.name, p.spec = files.utf8_fix(name), files.utf8_fix(spec)
    return p
end

local function make_players(list, opts)
    if type(list) ~= "table" or #list < 2 then fail("tournament: players = {A, B, ...} with at least two players expected", 3) end
    local players, seen = {}, {}
    for i, entry in ipairs(list) do
        local p = make_player(entry, i, opts)
        -- the same AI twice is two players: number the later ones
        local base, n = p.name, 1
        while seen[p.name] do
            n = n + 1
            p.name = ("%s#%d"):format(base, n)
        end
        seen[p.name] = true
        if #p.name > NAME_MAX then
            fail(("players[%d]: the name '%s' is %d bytes long; a journal holds names of at most %d bytes"):format(i,
                printable(p.name, 40), #p.name, NAME_MAX), 2)
        end
        p.index = i
        players[i] = p
    end
    return players
end

-- describe a move that is not legal in game g, or nil if it is legal
local illegal = private.illegal -- scripts/lib/sandbox.lua

local TC = private.timecontrol -- scripts/lib/timecontrol.lua

local watch_move, watch_done = host.watch_move, host.watch_done

-- The move of player p in game g: move | nil, reason. With a time control
-- tc, left is the clock of p's side (nil: no game clock) and spent the
-- seconds each side used so far; the seconds it used come third (brains
-- keep their own clock: scripts/lib/brains.lua). A sandboxed move runs
-- under the hard line (host.watch_move: in a worker process, one still
-- running past its time budget and the slack is ended by killing the
-- worker, and forfeit_line below writes the game's line).
local function player_move(p, g, tc, left, spent)
    if p.broken then return nil, p.broken end
    if p.brain then return private.brains.move(p.brain, g) end
    if tc then return TC.move(p, g, p.params, tc, left, spent) end
    if p.sandbox then
        if not p.hard then return p.sandbox_move(p.sandbox, g, p.params) end
        watch_move(p.hard, g)
        local m, why = p.sandbox_move(p.sandbox, g, p.params)
        watch_done()
        return m, why
    end
    local ok, m = pcall(p.ai.fn, g, p.params)
    if not ok then return nil, "error: " .. tostring(m) end
    local what = illegal(g, m)
    if what then return nil, "illegal move: " .. what end
    return m
end

-- the results and their files: scripts/lib/results.lua
local results_of, text_of = private.results.results_of, private.results.text_of
local new_tally, finish_results = private.results.new_tally, private.results.finish_results
local write_outputs, write_file = private.results.write_outputs, private.results.write_file
local ensure_dir, lock_out = private.results.ensure_dir, private.results.lock_out

-- ---------------------------------------------------------------- playing

local function progress_bar(done, total, t0, extra)
    local dt = mb.clock() - t0
    local rate = dt > 0 and done / dt or 0
    local left = rate > 0 and (total - done) / rate or 0
    local width = 30
    local filled = total > 0 and math.floor(width * done / total) or width
    io.stderr:write(("\r%3d%%|%s%s| %d/%d games [%.0fs<%.0fs, %.1f games/s]%s"):format(
        total > 0 and math.floor(100 * done / total) or 100, ("#"):rep(filled), (" "):rep(width - filled),
        done, total, dt, left, rate, extra or ""))
end

-- seed both players' streams for a game (see the top of this file)
local function seed_sides(ctx, seed, po, px)
    local so, sx = host.tourney_seed(seed, "o", 1), host.tourney_seed(seed, "x", 1)
    if po.sandbox then po.sandbox:seed(so, "game") else host.stream_seed(ctx.streams.o, so) end
    if px.sandbox then px.sandbox:seed(sx, "game") else host.stream_seed(ctx.streams.x, sx) end
end

-- before a trusted player's move: mb.stream draws from its side's stream
local function load_stream(ctx, side)
    host.stream_use(ctx.streams[side])
    ctx.loaded = side
end

-- The players and seed of game number g of the schedule: pairing number,
-- index, pair, 〇's player, ×'s player, seed.
local function game_of(ctx, g)
    local players = ctx.players
    local pi, index, pair, colour = locate(g, #ctx.pairings)
    local pairing = ctx.pairings[pi]
    local po, px = players[pairing[1]], players[pairing[2]]
    if colour == 1 then po, px = px, po end
    local seed = host.tourney_seed(ctx.s.seed, players[pairing[1]].name .. "\t" .. players[pairing[2]].name, index)
    return pi, index, pair, po, px, seed
end

-- The journal line of game g, played to the end on ctx.game.
local function game_line(ctx, g, pi, index, seed, po, px, result, reason, spent)
    local game = ctx.game
    local sq = {}
    for i = 1, game.move_count do sq[i] = game:excel(game.records[i]) end
    local line = host.journal_format{game = g, pairing = pi, index = index, seed = seed, o = po.name, x = px.name,
        moves = table.concat(sq, ","), result = result, reason = reason}
    if ctx.s.tc then line = line .. TC.clock_line(g, spent.o, spent.x) end -- docs/journal.md
    return line
end

-- play game number g of the schedule: its journal line
local function play_game(ctx, g)
    local s = ctx.s
    local pi, index, pair, po, px, seed = game_of(ctx, g)
    local game = ctx.game
    game:restart()
    if #s.openings > 0 then
        for _, m in ipairs(s.openings[(pair - 1) % #s.openings + 1]) do game:move(m) end
    end
    seed_sides(ctx, seed, po, px)
    private.brains.begin(po, px)
    local reason, result = "", nil
    local tc = s.tc
    local clocks = tc and TC.clocks(tc)
    local spent = {o = 0.0, x = 0.0} -- seconds of each side's moves (timed games)
    while game.status == "playing" do
        local side = game.turn
        local p = side == "o" and po or px
        if not p.sandbox and ctx.loaded ~= side then load_stream(ctx, side) end
        local t0 = tc and mb.clock()
        local m, why, used = player_move(p, game, tc, clocks and clocks[side], spent)
        if tc then spent[side] = spent[side] + (mb.clock() - t0) end
        if clocks and used then clocks[side] = TC.charge(tc, clocks[side], used) end
        if m == nil then
            reason = printable(why or "error: (no reason)", REASON_MAX)
            result = side == "o" and "x" or "o"
            break
        end
        game:move(m)
    end
    private.brains.finish(po, px)
    return game_line(ctx, g, pi, index, seed, po, px, result or game.status, reason, spent)
end

-- The line of game g whose worker the hard line killed (host.tourney_run's
-- forfeit, in this process): the side to move after info.moves loses on
-- time, as it would have if the move had returned, with the reason of its
-- budget ("time", or a time control's reason when the control set it).
local function forfeit_line(ctx, g, info)
    local pi, index, _, po, px, seed = game_of(ctx, g)
    local game = ctx.game
    game:restart()
    for _, m in ipairs(info.moves) do game:move(m) end
    local side = game.turn
    local tc = ctx.s.tc
    local reason = "time"
    if tc and info.kind ~= "budget" and info.seconds >= info.limit then reason = TC.reason(tc, info.kind, info.limit) end
    local spent = {o = info.spent.o, x = info.spent.x}
    spent[side] = spent[side] + info.used
    return game_line(ctx, g, pi, index, seed, po, px, side == "o" and "x" or "o", reason, spent)
end

-- private.in_workers(forks, f, ...) -> f(...): f starts worker processes
-- (forks true: host.tourney_run with workers). They start as copies of
-- this process, sharing its memory until either side writes a page, which
-- the kernel then copies (a page fault: tens of microseconds on some
-- virtual machines). Under Lua's incremental collector every cycle marks
-- every object, so both sides soon copy every page; the generational one,
-- switched to here (a full collection: no garbage is left to copy either),
-- leaves the old objects alone. The collector's mode is restored after f,
-- also when f raises. (The sandbox's bench, 24,000 games of four script
-- files in one worker: 2,030 page faults instead of 2,330 and 6% less CPU
-- time on the development VM, as fast as playing them in this process.)
function private.in_workers(forks, f, ...)
    local mode = forks and collectgarbage("generational")
    local r = table.pack(pcall(f, ...))
    if mode then collectgarbage(mode) end
    if not r[1] then error(r[2], 0) end
    return table.unpack(r, 2, r.n)
end

-- host.tournament{players = {...}, ...} -> results (see docs/lua-api.md)
function host.tournament(t)
    local s = settings_of(t)
    local players = make_players(t.players, {sandbox = t.sandbox, limits = t.limits, tc = s.tc})
    if s.sprt and #players ~= 2 then fail("tournament: sprt needs exactly two players", 2) end
    local pairings = pairings_of(#players, s.format)
    local total = #pairings * s.games
    local header = header_lines(s, players)
    local games, played = {}, 0
    local journal, path
    local stop_note = ""
    -- one writer of --out at a time: locked before the journal is read,
    -- released when this function ends (a <close> variable: errors too)
    if s.out then ensure_dir(s.out) end
    local lock <close> = s.out and lock_out(s.out, s.quiet) or nil
    if s.out then
        path = s.out .. "/" .. JOURNAL
        local shard_line = s.shard and ("S\t%d/%d"):format(s.shard.i, s.shard.n) or nil
        local old = read_journal(path, function(old_header, old_shard)
            if not s.resume then
                fail(("%s exists: continue it with resume (--resume) or choose another out directory"):format(path), 0)
            end
            local i, a, b = first_difference(old_header, header)
            if i then
                fail(("%s: the journal is of another tournament (header line %d is\n  %s\nbut this run has\n  %s)")
                    :format(path, i, printable(a:gsub("\t", " "), 300), printable(b:gsub("\t", " "), 300)), 0)
            end
            if old_shard ~= shard_line then
                fail(("%s: the journal is of shard %s, this run is %s"):format(path,
                    old_shard and printable(old_shard:sub(3), 40) or "(none)", shard_line and shard_line:sub(3) or "(no shard)"), 0)
            end
            return game_checker(path, s, players, s.shard)
        end)
        if old then
            games, played = old.games, #old.order
            if old.partial then
                -- the writer was stopped in the middle of a line: that game is played again
                if not s.quiet then
                    io.stderr:write(("%s: its last line was cut short (%d bytes): dropped, that game is played again\n")
                        :format(path, old.partial))
                end
                write_file(path, journal_text(old))
            end
        else
            local text = table.concat(header, "\n") .. "\n" .. (shard_line and shard_line .. "\n" or "")
            write_file(path, text)
        end
        local err
        journal, err = host.open_file(path, "a") -- a regular file, not through a link
        if not journal then fail("cannot write " .. err, 2) end
        journal:setvbuf("full", 65536) -- flushed after every batch of lines
        stop_note = "; the journal keeps the games before (a last line cut short is dropped by --resume):"
            .. " make room and run the same command with --resume"
    end
    local mine = games_of_shard(total, s.shard)
    local ctx = {s = s, players = players, pairings = pairings, game = mb.Marubatsu(s.mbparams),
        streams = {o = mb.Random(0), x = mb.Random(0)}}
    -- the results: tallied as games arrive (a run keeps no game lines), or
    -- with SPRT, the lines kept to count the games up to the decision
    local tally = not s.sprt and new_tally(players, true) or nil
    local sources = {text_of(games)} -- the journal's games, then each batch
    if tally then
        tally.add(sources[1])
        sources = nil
    end
    -- SPRT: look at results in game order, a pair at a time (two players:
    -- games 2q-1 and 2q are pair q); stop at the first decision
    local cutoff, next_in_order, penta, points = nil, 1, {0, 0, 0, 0, 0}, {}
    local first = players[1].name
    local function arrived(text) -- the first player's half points per game
        for line in text:gmatch("[^\n]+") do
            if line:sub(1, 2) == "G\t" then -- not a C line (a timed game's clock use)
                local g, _, _, o, _, result = host.journal_fields(line)
                points[g] = result == "draw" and 1 or ((result == "o") == (o == first)) and 2 or 0
            end
        end
    end
    local function sprt_check()
        while not cutoff and points[next_in_order] do
            if next_in_order % 2 == 0 then
                local k = points[next_in_order - 1] + points[next_in_order]
                penta[k + 1] = penta[k + 1] + 1
                local q = host.rating.sprt{elo0 = s.sprt.elo0, elo1 = s.sprt.elo1, alpha = s.sprt.alpha, beta = s.sprt.beta, pairs = penta}
                if q.decision ~= "continue" then cutoff = next_in_order end
            end
            next_in_order = next_in_order + 1
        end
        return cutoff ~= nil
    end
    local stopped = false
    if s.sprt then
        arrived(sources[1])
        stopped = sprt_check()
    end
    local show = s.progress ~= false and not s.quiet and mb.isatty(2)
    local t0, done_n, last = mb.clock(), played, 0
    local write_error
    local function done(text, count)
        if tally then tally.add(text) else sources[#sources + 1] = text end
        if journal then
            local ok, err = pcall(files.write_checked, journal, path, text)
            if not ok then
                write_error = err
                return true -- stop handing out games
            end
        end
        done_n = done_n + count
        if show and (mb.clock() - last > 0.1 or done_n == mine) then
            last = mb.clock()
            progress_bar(done_n, mine, t0)
        end
        if s.sprt then
            arrived(text)
            return sprt_check()
        end
        return false
    end
    -- the schedule, made lazily: at most CHUNK games of it at a time
    local step = s.shard and s.shard.n or 1
    local g = s.shard and s.shard.i or 1
    -- untrusted players (scripts, brains) play in worker processes, even
    -- with one job, where the hard line can end a move from outside
    local isolate = false
    for _, p in ipairs(players) do isolate = isolate or p.sandbox ~= nil or p.brain ~= nil end
    local pool = {isolate = isolate, slack = isolate and s.slack or nil,
        forfeit = function(game_no, info) return forfeit_line(ctx, game_no, info) end}
    while g <= total and not stopped do
        local todo = {}
        while g <= total and #todo < CHUNK do
            if not games[g] then todo[#todo + 1] = g end
            g = g + step
        end
        if #todo > 0 then
            local ok, err = private.in_workers(s.jobs > 1 or isolate, host.tourney_run, todo, s.jobs,
                function(game_no) return play_game(ctx, game_no) end, done, pool)
            host.stream_use(nil) -- mb.stream draws from its own state again
            if write_error then
                pcall(journal.close, journal)
                fail(write_error .. stop_note, 0)
            end
            if not ok then
                if show then io.stderr:write("\n") end
                if journal then pcall(journal.close, journal) end
                if err == "interrupted" then
                    -- Ctrl-C: the results of the games so far, marked partial
                    -- (on stdout, as the full table would be; no files)
                    local res = tally and finish_results(tally, s) or results_of(players, s, sources, cutoff)
                    if not s.quiet and res.games > 0 then
                        files.write_checked(io.stdout, "standard output", ("partial: interrupted (Ctrl-C) after %d of %d games\n")
                            :format(done_n, mine) .. private.results.text_report(res, s, s.shard and mine or total))
                    end
                    fail(("interrupted after %d of %d games%s"):format(done_n, mine, s.out
                        and "; the journal keeps them: run the same command with --resume to continue" or ""), 2)
                end
                fail("tournament: " .. err, 2)
            end
            stopped = s.sprt and cutoff ~= nil
        end
    end
    if show and done_n > played then io.stderr:write("\n") end
    if journal then files.close_checked(journal, path, stop_note) end
    local res = tally and finish_results(tally, s) or results_of(players, s, sources, cutoff)
    write_outputs(res, s, players, s.shard and mine or total)
    res.scheduled = total
    return res
end

-- ---------------------------------------------------------------- CLI

-- Run f(t) for a command; an error prints "marubatsu CMD: message" (without
-- the Lua position) and gives exit status 1, and so does standard output
-- that cannot be written (a full disk); a run that Ctrl-C stopped gives
-- 130, as a shell reports a program the signal killed.
local function command(cmd, f, t)
    local ok, err = pcall(function()
        f(t)
        files.write_checked(io.stdout, "standard output", "")
    end)
    if ok then return 0 end
    err = tostring(err):gsub("^[^\n]-%.lua:%d+: ", ""):gsub("^" .. cmd .. ": ", "")
    io.stderr:write(("marubatsu %s: %s\n"):format(cmd, err))
    if err:match("^interrupted") or private.interrupted() then return 130 end
    return 1
end

-- Check the players named on the command line before anything runs: a
-- bad spec, a missing script or a directory is a usage error (exit 2).
local function check_command_players(cmd, players)
    for i, p in ipairs(players) do
        local ok, err = true, nil
        if not private.brains.is_spec(p) then ok, err = pcall(check_spec, p, i) end -- brains: brains.setup
        if not ok then
            io.stderr:write(("marubatsu %s: %s\n"):format(cmd, tostring(err):gsub("^[^\n]-%.lua:%d+: ", "")))
            return false
        end
    end
    return true
end
private.check_players = check_command_players

-- host.tournament_main{players = "A\nB\n...", games =, ...} (strings, from
-- `marubatsu tournament`) -> exit status
function host.tournament_main(t)
    local players = {}
    for p in (t.players or ""):gmatch("[^\n]+") do players[#players + 1] = p end
    if not check_command_players("tournament", players) then return 2 end
    if not private.command.check_time_control("tournament", t) then return 2 end
    local limits = private.command.limits(t)
    return command("tournament", host.tournament, {players = players, games = t.games, seed = t.seed, jobs = t.jobs,
        move_time = t.move_time, game_time = t.game_time, slack = tonumber(t.slack),
        format = t.format, openings = t.openings, out = t.out, resume = t.resume == "1", sprt = t.sprt,
        shard = t.shard, width = t.width, height = t.height, k = t.k, rule = t.rule, board = t.board,
        count_linemark = t.count_linemark == "1" or nil, sandbox = t.sandbox ~= "0", limits = limits,
        progress = t.progress ~= "0", quiet = t.quiet == "1"})
end

-- host.tournament_merge_main{dirs = "A\nB", out =, quiet =} -> exit status
function host.tournament_merge_main(t)
    return command("merge", host.tournament_merge, {dirs = t.dirs, out = t.out, quiet = t.quiet == "1"})
end

-- host.replay_journal_main{file =, game =} -> exit status
function host.replay_journal_main(t)
    return command("replay", host.replay_journal, t)
end

return T
