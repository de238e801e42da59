-- scripts/lib/journals.lua: a tournament's journal (journal.tsv, format
-- in docs/journal.md): its header lines, reading it back with every game
-- line checked against the schedule and replayed on the board, merging the
-- journals of shards (host.tournament_merge), and one game of a journal
-- (host.journal_game, host.replay_journal). Embedded; runs once with mb and
-- the library's private table, where it leaves `journals` for
-- scripts/lib/tournament.lua.
local mb, private = ...
local host = private.host -- the host library (require "marubatsu.host")
local files = private.files
local printable = files.printable

local fail = private.fail

local JOURNAL = "journal.tsv"
local VERSION = "1"
local LINE_MAX = 32768 -- bytes of a journal line (its longest is about 21 KB)

-- the schedule and settings: scripts/lib/schedule.lua
local S = private.schedule
local pairings_of, locate, read_openings = S.pairings_of, S.locate, S.read_openings
local sprt_of, shard_of, OPENINGS_MAX = S.sprt_of, S.shard_of, S.OPENINGS_MAX
-- the results and their files: scripts/lib/results.lua
local R = private.results
local results_of, text_of, write_outputs, write_file, ensure_dir = R.results_of, R.text_of, R.write_outputs,
    R.write_file, R.ensure_dir
local lock_out = R.lock_out

-- ---------------------------------------------------------------- journal

-- the header lines: everything a resumed or merged run must agree on
local function header_lines(s, players)
    local esc = host.journal_escape
    local h = {"H\tmarubatsu-journal\t" .. VERSION}
    local function setting(k, v) h[#h + 1] = ("T\t%s\t%s"):format(k, esc(tostring(v))) end
    setting("format", s.format)
    setting("games", s.games)
    setting("seed", s.seed)
    local shape = mb.Marubatsu(s.mbparams)
    setting("board", ("%dx%d k%d"):format(shape.width, shape.height, shape.k))
    -- the rule only when it is not the default, so freestyle journals stay
    -- as they were (and a journal without the line is freestyle)
    if shape.rule ~= "freestyle" then setting("rule", shape.rule) end
    local ops = {}
    for i, o in ipairs(s.openings) do
        local sq = {}
        for j, m in ipairs(o) do sq[j] = shape:excel(m) end
        ops[i] = table.concat(sq, ",")
    end
    setting("openings", table.concat(ops, " "))
    if s.format == "knockout" then setting("tiebreak", s.tiebreak) end -- pairs of games after a tie
    -- adjudication, only when asked for: other journals stay as they were
    if s.adjudicate then setting("adjudicate", S.ADJUDICATE_TEXT) end
    if s.max_moves then setting("max_moves", s.max_moves) end
    if s.sprt then
        setting("sprt", ("elo0=%g,elo1=%g,alpha=%g,beta=%g"):format(s.sprt.elo0, s.sprt.elo1, s.sprt.alpha,
            s.sprt.beta))
    end
    if s.tc then setting("time_control", private.timecontrol.text(s.tc)) end
    for i, p in ipairs(players) do h[#h + 1] = ("P\t%d\t%s\t%s"):format(i, esc(p.name), esc(p.spec)) end
    return h
end

-- Read a journal: the header lines (H/T/P, in order, as text), the shard
-- line, and the game lines by game number (each as its canonical text,
-- with its newline), in `order` as they stand. on_header(header, shard)
-- is called once the header has been read, before the first game line,
-- and returns check(rec, n), which raises on a game line (record rec, at
-- line n) that the schedule or the game's own moves contradict. A last
-- line without its newline (the writer was stopped in the middle of it) is
-- dropped: `partial` is its length. Nil when there is no file; an error
-- when it is not a regular file (a FIFO, a device) or a symbolic link.
local function read_journal(path, on_header)
    local f = files.open_regular(path, false, true)
    if not f then return nil end
    local header, games, where, order, shard = {}, {}, {}, {}, nil
    local check, partial, n = nil, nil, 0
    local last_g, clocked = nil, false -- the game of the line before; whether it has its C line
    local parse, format = host.journal_parse, host.journal_format
    -- header lines may be long (every opening is in one), game lines are not
    for line, ln, cut in files.bounded_lines(f, path, 2 * OPENINGS_MAX) do
        n = ln
        if cut then
            partial = #line
            break
        end
        if line:sub(-1) == "\r" then line = line:sub(1, -2) end
        local kind = line:sub(1, 1)
        if kind == "G" then
            if #line > LINE_MAX then fail(("%s:%d: a game line longer than %d bytes"):format(path, n, LINE_MAX), 0) end
            local rec, err = parse(line)
            if not rec then fail(("%s:%d: %s"):format(path, n, err), 0) end
            check = check or on_header(header, shard)
            local g = rec.game
            if where[g] then
                fail(("%s:%d: game %d appears twice (also at line %d)"):format(path, n, g, where[g]), 0)
            end
            check(rec, n)
            games[g] = format(rec) -- its canonical text (the writer's own format)
            where[g] = n
            order[#order + 1] = g
            last_g, clocked = g, false
        elseif kind == "C" then
            -- a timed game's clock use: right after its G line, once
            local g, err = private.timecontrol.parse_clock_line(line)
            if not g then fail(("%s:%d: %s"):format(path, n, err), 0) end
            if g ~= last_g or clocked then
                fail(("%s:%d: the clock line of game %d belongs right after that game's G line, once"):format(path,
                    n, g), 0)
            end
            games[g] = games[g] .. private.timecontrol.clock_line(g,
                select(2, private.timecontrol.parse_clock_line(line)))
            clocked = true
        elseif kind == "S" then
            last_g = nil
            if check or shard then
                fail(("%s:%d: a shard line (S) belongs before the games, once"):format(path, n), 0)
            end
            shard = line
        elseif kind == "H" or kind == "T" or kind == "P" then
            if n == 1 and line:sub(1, 20) ~= "H\tmarubatsu-journal\t" then
                fail(("%s:1: not a marubatsu journal"):format(path), 0)
            end
            if check or shard then
                fail(("%s:%d: a header line (%s) after the games or the shard line"):format(path, n, kind), 0)
            end
            header[#header + 1] = line
        elseif line ~= "" and kind ~= "#" then
            fail(("%s:%d: unknown record '%s'"):format(path, n, printable(kind)), 0)
        end
    end
    f:close()
    if n == 0 or #header == 0 then fail(("%s: empty journal"):format(path), 0) end
    if header[1] ~= "H\tmarubatsu-journal\t" .. VERSION then
        fail(("%s:1: not a marubatsu journal of version %s"):format(path, VERSION), 0)
    end
    if not check then on_header(header, shard) end
    return {header = header, games = games, order = order, shard = shard, partial = partial}
end

-- The journal again, from what read_journal kept: without a cut last line.
local function journal_text(j)
    local out = {table.concat(j.header, "\n"), "\n", j.shard and j.shard .. "\n" or ""}
    for _, g in ipairs(j.order) do out[#out + 1] = j.games[g] end
    return table.concat(out)
end

local function describe_result(r) return r == "draw" and "a draw" or r .. " winning" end

-- check(rec, n) for read_journal: game lines of journal `path` against the
-- schedule of settings s and players (shard: this journal's {i, n}), and
-- replayed on the board: the moves are legal, start with the pair's
-- opening, and end as the line says (a result without a reason is the
-- board's; a forfeit is by the side to move, before the game is over).
local function game_checker(path, s, players, shard)
    local pairings = s.format ~= "knockout" and pairings_of(#players, s.format)
    local ko = s.format == "knockout" and S.knockout(#players, s.games, s.tiebreak)
    local total = ko and ko.total or #pairings * s.games
    local game = mb.Marubatsu(s.mbparams)
    local square = {}
    for m = 0, game.width * game.height - 1 do square[game:excel(m)] = m end
    return function(rec, n)
        local g = rec.game
        local function bad(fmt, ...)
            fail(("%s:%d: game %d: " .. fmt):format(path, n, g, ...), 0)
        end
        if g > total then bad("not in the schedule, which has %d games", total) end
        if shard and (g - 1) % shard.n ~= shard.i - 1 then bad("not a game of shard %d/%d", shard.i, shard.n) end
        local pi, index, pair, colour, a, b
        if ko then
            -- a knockout's later matches: their players are the winners of
            -- the games read before (written in that order)
            local why = ko.allowed(g)
            if why then bad("%s", why) end
            pi, index, pair, colour = ko.locate(g)
            local ia, ib = ko.players(pi)
            a, b = players[ia].name, players[ib].name
        else
            pi, index, pair, colour = locate(g, #pairings)
            a, b = players[pairings[pi][1]].name, players[pairings[pi][2]].name
        end
        if rec.pairing ~= pi or rec.index ~= index then
            bad("the schedule has it as game %d of pairing %d, the line as game %d of pairing %d", index, pi,
                rec.index, rec.pairing)
        end
        local o, x = a, b
        if colour == 1 then o, x = b, a end
        if rec.o ~= o or rec.x ~= x then
            bad("the schedule has %s as 〇 and %s as ×, the line %s and %s", printable(o, 60), printable(x, 60),
                printable(rec.o, 60), printable(rec.x, 60))
        end
        local seed = host.tourney_seed(s.seed, a .. "\t" .. b, index)
        if rec.seed ~= seed then
            bad("the schedule gives it seed %d, the line %s", seed, rec.seed >= 0 and ("%d"):format(rec.seed)
                or "one above 2^63")
        end
        game:restart()
        local opening = s.openings[(pair - 1) % math.max(#s.openings, 1) + 1]
        local k = 0
        for sq in rec.moves:gmatch("[^,]+") do
            k = k + 1
            local m = square[sq] or square[sq:upper()]
            if not m then bad("move %d (%s) is off the %dx%d board", k, sq, game.width, game.height) end
            if game.status ~= "playing" then
                bad("move %d (%s) comes after the game ended in %s", k, sq, describe_result(game.status))
            end
            if game:getmark_by_move(m) ~= "." then bad("move %d (%s) is on an occupied square", k, sq) end
            if opening and k <= #opening and m ~= opening[k] then
                bad("move %d is %s, but the pair's opening plays %s there", k, sq, game:excel(opening[k]))
            end
            game:move(m)
        end
        if opening and k < #opening then bad("its moves do not start with the pair's opening") end
        if rec.reason:sub(1, 13) == "adjudicated: " then
            -- adjudicated: the same searches on its last position give the same
            if not (s.adjudicate or s.max_moves) then bad("adjudicated, but this tournament does not adjudicate") end
            if game.status ~= "playing" then
                bad("adjudicated after the game ended in %s", describe_result(game.status))
            end
            local result, why = S.adjudicate(game, s)
            if result ~= rec.result or why ~= rec.reason then
                bad("adjudicated as '%s', but its position gives %s", printable(rec.reason, 200),
                    why and ("'" .. why .. "'") or "no adjudication")
            end
        elseif rec.reason == "" then
            if game.status == "playing" then
                bad("the game is not over after its moves, and no forfeit reason is given")
            end
            if game.status ~= rec.result then
                bad("its moves end in %s, the line says %s", describe_result(game.status), describe_result(rec.result))
            end
        else
            if game.status ~= "playing" then
                bad("a forfeit after the game ended in %s", describe_result(game.status))
            end
            local winner = game.turn == "o" and "x" or "o"
            if rec.result ~= winner then
                bad("%s forfeited (it was to move), so the result is %s, not %s", game.turn == "o" and "〇" or "×",
                    describe_result(winner), describe_result(rec.result))
            end
        end
        if ko then ko.add(g, S.first_points(rec.result, colour)) end
    end
end

local function first_difference(a, b)
    for i = 1, math.max(#a, #b) do
        if a[i] ~= b[i] then return i, a[i] or "(nothing)", b[i] or "(nothing)" end
    end
end

-- ---------------------------------------------------------------- merge

-- Whether a tournament sandboxed the player of `spec`, as it does without
-- --no-sandbox (which the journal does not record): a script file or a
-- script found by name, not a built-in AI nor a brain.
local function sandboxed_spec(spec)
    if private.brains.is_spec(spec) then return false end
    local base = host.playerspec(spec) or spec
    return private.command.is_path(base) or not private.command.builtin(base)
end

-- The settings and players a journal's header gives (for merge and
-- replay): s = {format, games, seed, mbparams, openings, sprt}, players
-- = {{name =, spec =, sandboxed =}, ...}.
local function context_of_header(path, header)
    local s = {mbparams = {}, openings = {}}
    local players, openings, rule = {}, nil, nil
    for n, line in ipairs(header) do
        local f, err = host.journal_split(line)
        if not f then fail(("%s:%d: %s"):format(path, n, err), 0) end
        if f[1] == "T" then
            local k, v = f[2], f[3] or ""
            if k == "format" then s.format = v
            elseif k == "games" then s.games = math.tointeger(tonumber(v))
            elseif k == "seed" then s.seed = math.tointeger(tonumber(v))
            elseif k == "board" then
                local w, h, kk = v:match("^(%d+)x(%d+) k(%d+)$")
                s.mbparams = {width = tonumber(w), height = tonumber(h), k = tonumber(kk)}
            elseif k == "rule" then rule = v
            elseif k == "tiebreak" then s.tiebreak = math.tointeger(tonumber(v))
            elseif k == "adjudicate" then
                if v ~= S.ADJUDICATE_TEXT then
                    fail(("%s:%d: adjudication '%s' is not this version's (%s)"):format(path, n, printable(v, 80),
                        S.ADJUDICATE_TEXT), 0)
                end
                s.adjudicate = true
            elseif k == "max_moves" then s.max_moves = math.tointeger(tonumber(v))
            elseif k == "openings" then openings = v
            elseif k == "sprt" then s.sprt = sprt_of(v)
            elseif k == "time_control" then
                local ok, tc = pcall(private.timecontrol.parse_text, v)
                if not ok or not tc then fail(("%s:%d: a time control like move=1 game=60+0.5 expected, not '%s'")
                    :format(path, n, printable(v, 80)), 0) end
                s.tc = tc
            end
        elseif f[1] == "P" then
            if #f ~= 4 or math.tointeger(tonumber(f[2])) ~= #players + 1 or f[3] == "" then
                fail(("%s:%d: a player line is P, its number, name and spec"):format(path, n), 0)
            end
            players[#players + 1] = {name = f[3], spec = f[4], sandboxed = sandboxed_spec(f[4])}
        end
    end
    if s.format == "knockout" and not (s.tiebreak and s.tiebreak >= 0) then
        fail(("%s: a knockout's header needs its tiebreak (T tiebreak N)"):format(path), 0)
    end
    if (s.format ~= "round_robin" and s.format ~= "gauntlet" and s.format ~= "knockout") or not s.games or s.games < 2
        or s.games % 2 ~= 0 or not s.seed or #players < 2 then
        fail(("%s: the header lacks the format, games, seed or players of a tournament"):format(path), 0)
    end
    local ok, err = pcall(function()
        local list = {}
        for o in (openings or ""):gmatch("%S+") do list[#list + 1] = o end
        s.mbparams.rule = rule
        local probe = mb.Marubatsu(s.mbparams)
        s.mbparams = {width = probe.width, height = probe.height, k = probe.k, rule = probe.rule}
        s.openings = read_openings(list, s.mbparams)
    end)
    if not ok then fail(("%s: the header's board, rule or openings: %s"):format(path, private.message(err)), 0) end
    return s, players
end

-- read_journal for merge and replay: the header gives the schedule.
local function read_journal_alone(path)
    return read_journal(path, function(header, shard)
        local s, players = context_of_header(path, header)
        local sh = shard and shard_of(shard:sub(3)) or nil
        return game_checker(path, s, players, sh)
    end)
end

-- host.tournament_merge{dirs = {DIR, ...}, out = DIR, quiet =} -> results:
-- the journals of the shards of one tournament as one run.
function host.tournament_merge(t)
    local dirs = t.dirs
    if type(dirs) == "string" then
        local l = {}
        for d in dirs:gmatch("[^\n]+") do l[#l + 1] = d end
        dirs = l
    end
    if type(dirs) ~= "table" or #dirs == 0 then fail("merge: dirs = {DIR, ...} expected", 2) end
    local header, games, shards, from = nil, {}, {}, {}
    for _, dir in ipairs(dirs) do
        local path = dir .. "/" .. JOURNAL
        local j = read_journal_alone(path)
        if not j then fail(("merge: %s: no journal there"):format(path), 2) end
        if j.partial and not t.quiet then
            io.stderr:write(("merge: %s: its last line was cut short (%d bytes): left out\n"):format(path, j.partial))
        end
        if header then
            local i, a, b = first_difference(header, j.header)
            if i then
                fail(("merge: %s is of another tournament (header line %d: %s vs %s)"):format(path, i,
                    printable(a:gsub("\t", " "), 200), printable(b:gsub("\t", " "), 200)), 2)
            end
        end
        header = header or j.header
        if j.shard then shards[#shards + 1] = j.shard:sub(3) end
        for g, line in pairs(j.games) do
            if games[g] and games[g] ~= line then
                fail(("merge: game %d differs between %s and %s"):format(g, from[g], path), 2)
            end
            games[g], from[g] = line, path
        end
    end
    -- the settings and players from the header
    local s, players = context_of_header(dirs[1] .. "/" .. JOURNAL, header)
    s.quiet, s.out = t.quiet, t.out
    local count = 0
    for _ in pairs(games) do count = count + 1 end
    local ko = s.format == "knockout" and S.knockout(#players, s.games, s.tiebreak) or nil
    -- a knockout's count of games is open (tie-breaks): the games it has
    local total = ko and count or #pairings_of(#players, s.format) * s.games
    if count < total and not s.quiet then
        io.stderr:write(("merge: %d of %d games are in these journals (shards: %s)\n"):format(count, total,
            #shards > 0 and printable(table.concat(shards, " "), 200) or "none"))
    end
    if s.out then ensure_dir(s.out) end
    local lock <close> = s.out and lock_out(s.out, s.quiet) or nil -- one writer at a time
    if s.out then
        local list = {}
        for g in pairs(games) do list[#list + 1] = g end
        table.sort(list)
        local lines = {table.concat(header, "\n") .. "\n"}
        for _, g in ipairs(list) do lines[#lines + 1] = games[g] end
        write_file(s.out .. "/" .. JOURNAL, table.concat(lines))
        local shape = mb.Marubatsu(s.mbparams) -- games.sgf and games/*.psq (scripts/lib/records.lua)
        private.records.open(s.out, {width = shape.width, height = shape.height, k = shape.k, rule = shape.rule},
            table.concat(lines)).close()
    end
    local res = results_of(players, s, {text_of(games)}, nil)
    if ko then
        for g, line in pairs(games) do
            local _, _, _, _, _, result = host.journal_fields(line:match("^[^\n]*"))
            ko.add(g, S.first_points(result, select(4, ko.locate(g))))
        end
        res.knockout = S.knockout_summary(ko, players)
    end
    write_outputs(res, s, players, total)
    return res
end

-- ---------------------------------------------------------------- replay

-- host.journal_game(file, game_no) -> record: one game of a journal (the
-- whole journal is checked as merge checks it).
function host.journal_game(file, g)
    local j = read_journal_alone(file)
    if not j then fail(("%s: cannot read it"):format(file), 2) end
    local line = j.games[g]
    if not line then fail(("%s: no game %d in this journal"):format(file, g), 2) end
    local gline, cline = line:match("^([^\n]*\n)(.*)$") -- a timed game's C line follows
    local rec = host.journal_parse(gline)
    if cline ~= "" then
        local _, o, x = private.timecontrol.parse_clock_line((cline:gsub("\n$", "")))
        rec.clock = {o = o, x = x}
    end
    local s = context_of_header(file, j.header)
    rec.board = s.mbparams
    rec.time_control = s.tc and private.timecontrol.text(s.tc) or nil
    return rec
end

-- host.replay_journal{file =, game =} -> 0: print a journal game move by move.
function host.replay_journal(t)
    local g = math.tointeger(tonumber(t.game))
    if not g or g < 1 then
        fail(("the game number must be an integer >= 1, not '%s'"):format(printable(t.game, 40)), 2)
    end
    local rec = host.journal_game(t.file, g)
    local game = mb.Marubatsu(rec.board)
    local o, x = printable(rec.o), printable(rec.x)
    local result = rec.result == "draw" and "draw"
        or (rec.result == "o" and "〇 (" .. o .. ") won" or "× (" .. x .. ") won")
    io.write(("game %d: %s (〇) vs %s (×), pairing %d game %d, seed %d\n"):format(rec.game, o, x, rec.pairing,
        rec.index, rec.seed))
    local how = ""
    if rec.reason:sub(1, 13) == "adjudicated: " then
        how = " (" .. printable(rec.reason) .. ")"
    elseif rec.reason ~= "" then
        how = " by forfeit: " .. printable(rec.reason)
    end
    io.write(("result: %s%s\n"):format(result, how))
    if rec.time_control then io.write(("time control: %s\n"):format(rec.time_control)) end
    if rec.clock then io.write(("time used: 〇 %.3f s, × %.3f s\n"):format(rec.clock.o, rec.clock.x)) end
    io.write(("moves: %s\n\n"):format(rec.moves ~= "" and rec.moves or "(none)"))
    print(game)
    for sq in rec.moves:gmatch("[^,]+") do
        game:move(mb.move(sq:upper(), game))
        print(game)
    end
    return 0
end

private.journals = {JOURNAL = JOURNAL, header_lines = header_lines, read_journal = read_journal,
    journal_text = journal_text, game_checker = game_checker, first_difference = first_difference}
