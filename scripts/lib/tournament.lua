-- scripts/lib/tournament.lua: tournaments between AIs (host.tournament):
-- playing the games in worker processes with the journal written and
-- resumed, and the command-line entry points. The players are made and
-- checked in scripts/lib/players.lua, the schedule and settings are in
-- scripts/lib/schedule.lua, the journal's reading, checks,
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
local REASON_MAX = 1000 -- bytes of a forfeit reason kept (a journal holds 1023)
local CHUNK = 262144 -- games handed to the workers at a time (the schedule is made lazily)

local files = private.files
local printable = files.printable

local fail = private.fail

-- the schedule and settings: scripts/lib/schedule.lua
local S = private.schedule
local pairings_of, locate, settings_of, games_of_shard = S.pairings_of, S.locate, S.settings_of, S.games_of_shard
-- the journal: scripts/lib/journals.lua
local J = private.journals
local JOURNAL, header_lines, read_journal, journal_text = J.JOURNAL, J.header_lines, J.read_journal, J.journal_text
local game_checker, first_difference = J.game_checker, J.first_difference

-- ---------------------------------------------------------------- players
-- making, naming and checking them, a move of one: scripts/lib/players.lua
local P = private.players
local check_spec, make_players, finish_names = P.check_spec, P.make_players, P.finish_names
local preflight, player_move = P.preflight, P.player_move
local TC = private.timecontrol -- scripts/lib/timecontrol.lua

-- the results and their files: scripts/lib/results.lua
local results_of, text_of = private.results.results_of, private.results.text_of
local new_tally, finish_results = private.results.new_tally, private.results.finish_results
local write_outputs, write_file = private.results.write_outputs, private.results.write_file
local ensure_dir, lock_out = private.results.ensure_dir, private.results.lock_out


-- ---------------------------------------------------------------- playing

local K_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

-- The line on stderr for the journal line `line` of a finished game on a
-- board of k in a row (over a progress bar: clear it first):
--   Finished game 17 (ai4 vs gomoku): 0-1 {five in a row}
-- 〇's player first; 1-0 〇 won, 0-1 × won, 1/2-1/2 a draw; in braces
-- why: k in a row, a full board, or who forfeited and the reason.
local function finished_line(line, k)
    local g, _, _, o, x, result, reason = host.journal_fields(line)
    local score = result == "o" and "1-0" or result == "x" and "0-1" or "1/2-1/2"
    local why
    if reason == "" then
        why = result == "draw" and "board full" or (K_WORDS[k] or tostring(k)) .. " in a row"
    elseif reason:sub(1, 13) == "adjudicated: " then
        why = reason
    else
        why = (result == "o" and x or o) .. " forfeits: " .. reason
    end
    return ("Finished game %d (%s vs %s): %s {%s}\n"):format(g, printable(o, 120), printable(x, 120), score,
        printable(why, 300))
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
    local pi, index, pair, colour, a, b
    if ctx.ko then
        -- a knockout's match: its players are known when its games are handed out
        pi, index, pair, colour = ctx.ko.locate(g)
        local ia, ib = ctx.ko.players(pi)
        a, b = players[ia], players[ib]
    else
        pi, index, pair, colour = locate(g, #ctx.pairings)
        local pairing = ctx.pairings[pi]
        a, b = players[pairing[1]], players[pairing[2]]
    end
    local po, px = a, b
    if colour == 1 then po, px = px, po end
    local seed = host.tourney_seed(ctx.s.seed, a.name .. "\t" .. b.name, index)
    return pi, index, pair, po, px, seed
end


-- The journal line of game g, played to the end on ctx.game.
local function game_line(ctx, g, pi, index, seed, po, px, result, reason, spent)
    local game = ctx.game
    local sq = {}
    for i = 1, game.move_count do sq[i] = game:excel(game.records[i]) end
    local line = host.journal_format{game = g, pairing = pi, index = index, seed = seed, o = po.name, x = px.name,
        moves = table.concat(sq, ","), result = result, reason = reason}
    if ctx.timed then line = line .. TC.clock_line(g, spent.o, spent.x) end -- docs/journal.md
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
    -- each side's time control (its player's own, else the tournament's)
    -- and game clock (nil: none)
    local clocks = {o = po.tc and po.tc.game, x = px.tc and px.tc.game}
    local timed = ctx.timed
    local spent = {o = 0.0, x = 0.0} -- seconds of each side's moves (timed games)
    local adjudicating = s.adjudicate or s.max_moves
    while game.status == "playing" do
        if adjudicating then
            local r, why = S.adjudicate(game, s)
            if r then
                result, reason = r, why
                break
            end
        end
        local side = game.turn
        local p = side == "o" and po or px
        local tc = p.tc
        if not p.sandbox and ctx.loaded ~= side then load_stream(ctx, side) end
        local t0 = timed and mb.clock()
        local m, why, used = player_move(p, game, tc, clocks[side], spent)
        if timed then spent[side] = spent[side] + (mb.clock() - t0) end
        if clocks[side] and used then clocks[side] = TC.charge(tc, clocks[side], used) end
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
    local tc = (side == "o" and po or px).tc
    local reason = "time"
    if tc and info.kind ~= "budget" and info.seconds >= info.limit then
        reason = TC.reason(tc, info.kind, info.limit)
    end
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

-- A journal written before player options (issue 24) names a script
-- player by its spec as typed (numbered if given twice: x.lua#2): a player
-- without name= whose P line there has the same spec and such a name takes
-- that name, so that the journal resumes. -> whether a name changed.
local function adopt_old_names(old_header, players)
    local changed = false
    for _, line in ipairs(old_header) do
        local f = host.journal_split(line)
        local p = f and f[1] == "P" and players[math.tointeger(tonumber(f[2])) or 0]
        if p and not p.named and f[4] == p.spec and p.name ~= f[3]
            and (f[3] == p.spec or (f[3]:sub(1, #p.spec + 1) == p.spec .. "#"
                and f[3]:sub(#p.spec + 2):match("^%d+$"))) then
            p.name, changed = f[3], true
        end
    end
    return changed
end

-- ---------------------------------------------------------------- the run

-- A run's steps share one table r: its settings s, players, the knockout
-- ko or the pairings, the scheduled total and this shard's share (mine),
-- the journal's games so far (games, played), the journal being written
-- (journal, path, records, stop_note), the game context ctx, the tally
-- (or, with SPRT, the batches' text in sources), the SPRT state and the
-- progress report.

-- 1. Open --out: lock it, read the journal to resume (or write its header),
-- open it for appending and open the records.
local function open_out(r)
    local s = r.s
    r.path = s.out .. "/" .. JOURNAL
    local shard_line = s.shard and ("S\t%d/%d"):format(s.shard.i, s.shard.n) or nil
    local old = read_journal(r.path, function(old_header, old_shard)
        if not s.resume then
            fail(("%s exists: continue it with resume (--resume) or choose another out directory"):format(r.path), 0)
        end
        if adopt_old_names(old_header, r.players) then r.header = header_lines(s, r.players) end
        local i, a, b = first_difference(old_header, r.header)
        if i then
            fail(("%s: the journal is of another tournament (header line %d is\n  %s\nbut this run has\n  %s)")
                :format(r.path, i, printable(a:gsub("\t", " "), 300), printable(b:gsub("\t", " "), 300)), 0)
        end
        if old_shard ~= shard_line then
            fail(("%s: the journal is of shard %s, this run is %s"):format(r.path,
                old_shard and printable(old_shard:sub(3), 40) or "(none)", shard_line and shard_line:sub(3)
                    or "(no shard)"), 0)
        end
        return game_checker(r.path, s, r.players, s.shard)
    end)
    if old then
        r.games, r.played = old.games, #old.order
        if old.partial then
            -- the writer was stopped in the middle of a line: that game is played again
            if not s.quiet then
                io.stderr:write(("%s: its last line was cut short (%d bytes): dropped, that game is played again\n")
                    :format(r.path, old.partial))
            end
            write_file(r.path, journal_text(old))
        end
    else
        write_file(r.path, table.concat(r.header, "\n") .. "\n" .. (shard_line and shard_line .. "\n" or ""))
    end
    local journal, err = host.open_file(r.path, "a") -- a regular file, not through a link
    if not journal then fail("cannot write " .. err, 2) end
    journal:setvbuf("full", 65536) -- flushed after every batch of lines
    r.journal = journal
    r.stop_note = "; the journal keeps the games before (a last line cut short is dropped by --resume):"
        .. " make room and run the same command with --resume"
    -- the records (games.sgf, games/*.psq: scripts/lib/records.lua), from the journal's games on
    local before = {}
    for i, gg in ipairs(old and old.order or {}) do before[i] = r.games[gg] end
    local shape = mb.Marubatsu(s.mbparams)
    r.records = private.records.open(s.out, {width = shape.width, height = shape.height, k = shape.k,
        rule = shape.rule}, table.concat(before))
end

-- 2. The SPRT's watch: results in game order, a pair at a time (two
-- players: games 2q-1 and 2q are pair q); r.cutoff is the game that ends
-- the run at the first decision.
local function sprt_watch(r)
    local s = r.s
    local next_in_order, penta, points = 1, {0, 0, 0, 0, 0}, {}
    local first = r.players[1].name
    local w = {}
    function w.arrived(text) -- the first player's half points per game
        for line in text:gmatch("[^\n]+") do
            if line:sub(1, 2) == "G\t" then -- not a C line (a timed game's clock use)
                local g, _, _, o, _, result = host.journal_fields(line)
                points[g] = result == "draw" and 1 or ((result == "o") == (o == first)) and 2 or 0
            end
        end
    end
    function w.check() -- -> whether the SPRT has decided
        while not r.cutoff and points[next_in_order] do
            if next_in_order % 2 == 0 then
                local k = points[next_in_order - 1] + points[next_in_order]
                penta[k + 1] = penta[k + 1] + 1
                local q = host.rating.sprt{elo0 = s.sprt.elo0, elo1 = s.sprt.elo1, alpha = s.sprt.alpha,
                    beta = s.sprt.beta, pairs = penta}
                if q.decision ~= "continue" then r.cutoff = next_in_order end
            end
            next_in_order = next_in_order + 1
        end
        return r.cutoff ~= nil
    end
    return w
end

-- 3. The progress on stderr (scripts/lib/progress.lua): a bar, or a line
-- per finished game (lines, or verbose over a bar); nothing when quiet;
-- the standings every rating_interval games.
local function progress_of(r)
    local s = r.s
    local mode_ok, pmode = pcall(private.progress.mode, s.progress)
    if not mode_ok then fail("tournament: " .. pmode, 2) end
    if s.quiet then pmode = "none" end
    r.show = pmode == "bar"
    r.game_lines = not s.quiet and (s.verbose or pmode == "lines")
    r.report = private.progress.new{mode = r.show and "bar" or "none", total = r.mine, label = "tournament",
        unit = "games", rate_unit = "games/s"}
    r.interval = not s.quiet and s.rating_interval or nil
    r.next_standings = r.interval and (r.played // r.interval + 1) * r.interval
end

-- The results so far (or at the end).
local function results_now(r)
    local res = r.tally and finish_results(r.tally, r.s) or results_of(r.players, r.s, r.sources, r.cutoff)
    if r.ko then res.knockout = S.knockout_summary(r.ko, r.players) end
    return res
end

-- A knockout's bracket: the games of text (journal lines) added.
local function ko_record(r, text)
    for line in text:gmatch("[^\n]+") do
        if line:sub(1, 2) == "G\t" then
            local gg, _, _, _, _, result = host.journal_fields(line)
            r.ko.add(gg, S.first_points(result, select(4, r.ko.locate(gg))))
        end
    end
end

-- 4. A batch of finished games (journal lines) arrived: tally, bracket,
-- journal and records, progress, standings, SPRT. -> true to stop handing
-- out games (a write failed, or the SPRT decided).
local function batch_done(r, text, count)
    if r.tally then r.tally.add(text) else r.sources[#r.sources + 1] = text end
    if r.ko then ko_record(r, text) end
    if r.journal then
        local ok, err = pcall(files.write_checked, r.journal, r.path, text)
        if ok then ok, err = pcall(r.records.add, text) end
        if not ok then
            r.write_error = err
            return true
        end
    end
    r.done_n = r.done_n + count
    if r.game_lines then
        local out = {}
        for line in text:gmatch("[^\n]+") do
            if line:sub(1, 2) == "G\t" then out[#out + 1] = finished_line(line, r.ctx.game.k) end
        end
        r.report.clear()
        io.stderr:write(table.concat(out))
    end
    if r.interval and r.done_n >= r.next_standings then
        r.next_standings = (r.done_n // r.interval + 1) * r.interval
        r.report.clear()
        io.stderr:write("standings: "
            .. private.results.standings_text(results_now(r), r.s, r.s.shard and r.mine or r.total) .. "\n")
    end
    if r.show then r.report:update(r.done_n) end
    if r.sprt then
        r.sprt.arrived(text)
        return r.sprt.check()
    end
    return false
end

-- 5. The next games to play: CHUNK of the schedule at a time (made lazily);
-- a knockout's, the games its matches call for as they stand, until the
-- final is decided. Sets r.stopped when there are no more.
local function next_games(r)
    local todo = {}
    if r.ko then
        for m = 1, r.ko.final do
            for _, i in ipairs(r.ko.needed(m)) do
                local gg = (m - 1) * r.ko.block + i
                if not r.games[gg] then todo[#todo + 1] = gg end
            end
        end
        r.stopped = #todo == 0
        return todo
    end
    while r.g <= r.total and #todo < CHUNK do
        if not r.games[r.g] then todo[#todo + 1] = r.g end
        r.g = r.g + r.step
    end
    r.stopped = r.stopped or r.g > r.total and #todo == 0
    return todo
end

-- 6. Stopped by Ctrl-C: the results of the games played (their files, and
-- their table marked partial), then how to go on.
local function interrupted(r)
    local s = r.s
    local res = results_now(r)
    if not s.quiet and res.games > 0 then
        files.write_checked(io.stdout, "standard output", ("partial: interrupted (Ctrl-C) after %d of %d games\n")
            :format(r.done_n, r.mine) .. private.results.text_report(res, s, s.shard and r.mine or r.total))
    end
    -- the files only: the table is printed above, as a partial one
    local files_only = setmetatable({quiet = true}, {__index = s})
    local written, werr = pcall(write_outputs, res, files_only, r.players, s.shard and r.mine or r.total)
    local msg = ("interrupted after %d of %d games"):format(r.done_n, r.mine)
    if s.out then
        msg = msg .. "; the journal keeps them" .. (written and (" and the results files in %s count them")
            :format(printable(s.out, 200)) or "") .. ": run the same command with --resume to continue"
        if s.resume_command then msg = msg .. ":\n  " .. printable(s.resume_command, 4000) end
    end
    if not written then msg = msg .. "\n" .. tostring(werr) end
    fail(msg, 2)
end

local function close_out(r)
    if r.journal then
        pcall(r.journal.close, r.journal)
        pcall(r.records.close)
    end
end

-- 7. Play the schedule in batches, in worker processes: untrusted players
-- (scripts, brains) always, even with one job, where the hard line can end
-- a move from outside.
local function play_batches(r)
    local s = r.s
    local isolate = false
    for _, p in ipairs(r.players) do isolate = isolate or p.sandbox ~= nil or p.brain ~= nil end
    local pool = {isolate = isolate, slack = isolate and s.slack or nil,
        forfeit = function(game_no, info) return forfeit_line(r.ctx, game_no, info) end}
    while not r.stopped and (r.ko or r.g <= r.total) do
        local todo = next_games(r)
        if #todo > 0 then
            local ok, err = private.in_workers(s.jobs > 1 or isolate, host.tourney_run, todo, s.jobs,
                function(game_no) return play_game(r.ctx, game_no) end,
                function(text, count) return batch_done(r, text, count) end, pool)
            host.stream_use(nil) -- mb.stream draws from its own state again
            if r.write_error then
                close_out(r)
                fail(r.write_error .. r.stop_note, 0)
            end
            if not ok then
                r.report.finish()
                close_out(r)
                if err == "interrupted" then interrupted(r) end
                fail("tournament: " .. err, 2)
            end
            r.stopped = r.sprt and r.cutoff ~= nil
        end
    end
    r.report.finish()
end

-- host.tournament{players = {...}, ...} -> results (see docs/lua-api.md)
function host.tournament(t)
    -- the settings, the players (checked before anything is written) and the schedule
    local s = settings_of(t)
    local players = make_players(t.players, {sandbox = t.sandbox, limits = t.limits, tc = s.tc})
    if s.sprt and #players ~= 2 then fail("tournament: sprt needs exactly two players", 2) end
    preflight(players, s)
    finish_names(players)
    local r = {s = s, players = players, games = {}, played = 0, stop_note = ""}
    r.ko = s.format == "knockout" and S.knockout(#players, s.games, s.tiebreak) or nil
    r.pairings = not r.ko and pairings_of(#players, s.format) or nil
    -- a knockout: its matches' games before any tie-break (more may come)
    r.total = r.ko and (#players - 1) * s.games or #r.pairings * s.games
    r.header = header_lines(s, players)
    -- one writer of --out at a time: locked before the journal is read,
    -- released when this function ends (a <close> variable: errors too)
    if s.out then ensure_dir(s.out) end
    local lock <close> = s.out and lock_out(s.out, s.quiet) or nil
    if s.out then open_out(r) end
    r.mine = games_of_shard(r.total, s.shard)
    r.ctx = {s = s, players = players, pairings = r.pairings, game = mb.Marubatsu(s.mbparams),
        streams = {o = mb.Random(0), x = mb.Random(0)}, timed = s.tc ~= nil, ko = r.ko}
    -- a player's own time control (tc=, st=) times its games too: C lines
    for _, p in ipairs(players) do r.ctx.timed = r.ctx.timed or p.tc ~= nil end
    if r.ko then
        for _, line in pairs(r.games) do ko_record(r, line) end
    end
    -- the results: tallied as games arrive (a run keeps no game lines), or
    -- with SPRT, the lines kept to count the games up to the decision
    r.sources = {text_of(r.games)} -- the journal's games, then each batch
    if not s.sprt then
        r.tally = new_tally(players, true)
        r.tally.add(r.sources[1])
        r.sources = nil
    else
        r.sprt = sprt_watch(r)
        r.sprt.arrived(r.sources[1])
        r.stopped = r.sprt.check()
    end
    progress_of(r)
    r.done_n = r.played
    r.step = s.shard and s.shard.n or 1
    r.g = s.shard and s.shard.i or 1
    play_batches(r)
    if r.journal then
        files.close_checked(r.journal, r.path, r.stop_note)
        r.records.close()
    end
    local res = results_now(r)
    write_outputs(res, s, players, s.shard and r.mine or r.total)
    res.scheduled = r.total
    return res
end

-- ---------------------------------------------------------------- CLI

-- Run f(t) for a command; an error prints "marubatsu CMD: message" (without
-- the Lua position) and gives exit status 1 (2 for a player's, "players[I]:
-- ..."), and so does standard output that cannot be written (a full disk).
-- An error {exit =, message =} (the pre-flight's) prints its message as it
-- is, with its exit status; a run that Ctrl-C stopped gives 130, as a
-- shell reports a program the signal killed.
local function command(cmd, f, t)
    local ok, err = pcall(function()
        f(t)
        files.write_checked(io.stdout, "standard output", "")
    end)
    if ok then return 0 end
    local status = 1
    if type(err) == "table" and err.exit then
        status, err = err.exit, err.message
    else
        err = private.message(err):gsub("^" .. cmd .. ": ", "")
        -- a player that cannot be made (an unknown parameter, a bad name or
        -- time control) is a usage error, as a bad spec is
        if err:find("^players%[%d+%]: ") then status = 2 end
    end
    io.stderr:write(("marubatsu %s: %s\n"):format(cmd, err))
    if tostring(err):match("^interrupted") or private.interrupted() then return 130 end
    return status
end

-- Check the players named on the command line before anything runs: a
-- bad spec, a missing script or a directory is a usage error (exit 2).
local function check_command_players(cmd, players)
    for i, p in ipairs(players) do
        local ok, err = true, nil
        if not private.brains.is_spec(p) then ok, err = pcall(check_spec, p, i) end -- brains: brains.setup
        if not ok then
            io.stderr:write(("marubatsu %s: %s\n"):format(cmd, private.message(err)))
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
        progress = t.progress, quiet = t.quiet == "1", allow_forfeits = t.allow_forfeits == "1" or nil,
        verbose = t.verbose == "1" or nil, rating_interval = t.rating_interval, resume_command = t.resume_command,
        tiebreak = t.tiebreak, adjudicate = t.adjudicate == "1" or nil, max_moves = t.max_moves,
        openings_order = t.openings_order, openings_plies = t.openings_plies})
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
