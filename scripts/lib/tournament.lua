-- scripts/lib/tournament.lua: tournaments between AIs (host.tournament), their
-- journal, resuming, shards and merging (host.tournament_merge), the results
-- (crosstable, Elo, LOS, pentanomial pairs, SPRT) as text, JSON, CSV and SVG,
-- and the command-line entry points. Embedded; runs once with mb as its
-- argument. The C pieces (seeds, worker processes, journal lines, player
-- specs, statistics) are in src/lua/l_tournament.c.
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
local JOURNAL = "journal.tsv"
local VERSION = "1"
local NAME_MAX = 255 -- bytes of a player's name in a journal (journal.h)
local REASON_MAX = 1000 -- bytes of a forfeit reason kept (a journal holds 1023)
local LINE_MAX = 32768 -- bytes of a journal line (its longest is about 21 KB)
local OPENINGS_MAX = 16 * 1024 * 1024 -- bytes of an --openings file
local CHUNK = 262144 -- games handed to the workers at a time (the schedule is made lazily)

local files = private.files
local printable = files.printable

local function fail(msg, level) error(msg, level == 0 and 0 or (level or 1) + 1) end

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
        spec = private.brains.setup(p, entry, i) -- an external brain (scripts/lib/brains.lua)
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
            local player, msg = mb.sandbox.load(base, p.limits or opts.limits)
            if player then
                p.sandbox = player
                p.sandbox_move = player.move -- looked up once, not per move
                -- NAME:key=value: keys its AI does not take are refused now
                local checked, err = player:check_params(p.params)
                if not checked then fail(("players[%d]: %s"):format(i, tostring(err):gsub("^[^\n]-:%d+: ", "")), 3) end
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
    p.name, p.spec = name, spec
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

-- The move of player p in game g: move | nil, reason.
local function player_move(p, g)
    if p.broken then return nil, p.broken end
    if p.brain then return private.brains.move(p.brain, g) end
    if p.sandbox then return p.sandbox_move(p.sandbox, g, p.params) end
    local ok, m = pcall(p.ai.fn, g, p.params)
    if not ok then return nil, "error: " .. tostring(m) end
    local what = illegal(g, m)
    if what then return nil, "illegal move: " .. what end
    return m
end

-- ---------------------------------------------------------------- schedule

local function pairings_of(n, format)
    local list = {}
    if format == "gauntlet" then
        for j = 2, n do list[#list + 1] = {1, j} end
    else
        for i = 1, n - 1 do
            for j = i + 1, n do list[#list + 1] = {i, j} end
        end
    end
    return list
end

-- game number -> pairing, index (1-based in the pairing), pair, colour
local function locate(g, npairings)
    local r = (g - 1) // 2
    local colour = (g - 1) % 2
    local pair = r // npairings + 1
    return r % npairings + 1, 2 * (pair - 1) + colour + 1, pair, colour
end

-- Openings: a list of move lists ("B2,A1" strings or tables of squares in
-- Excel notation), or a file with one opening per line (moves separated by
-- commas or spaces; blank lines and # comments skipped). Each is checked on
-- an empty board: legal moves, game not over.
local function read_openings(spec, mbparams)
    if spec == nil then return {} end
    local lines, where = {}, {}
    if type(spec) == "string" then
        local ok, err = pcall(function()
            local f = files.open_input(spec)
            for line, n in files.bounded_lines(f, spec, 8192, OPENINGS_MAX) do
                local text = line:gsub("#.*", ""):gsub("^%s+", ""):gsub("%s+$", "")
                if text ~= "" then
                    lines[#lines + 1] = text
                    where[#lines] = ("%s:%d"):format(spec, n)
                end
            end
            f:close()
        end)
        if not ok then fail("openings: " .. tostring(err), 3) end
    elseif type(spec) == "table" then
        for i, o in ipairs(spec) do
            lines[i] = type(o) == "table" and table.concat(o, ",") or tostring(o)
            where[i] = ("openings[%d]"):format(i)
        end
    else
        fail("openings: a file name or a list of move lists expected", 3)
    end
    local game = mb.Marubatsu(mbparams)
    local out = {}
    for i, text in ipairs(lines) do
        game:restart()
        local moves = {}
        for sq in text:gmatch("[^,%s]+") do
            local ok, m = pcall(mb.move, sq:upper(), game)
            if not ok then fail(("%s: '%s' is not a square of this board"):format(where[i], printable(sq, 40)), 3) end
            if game.status ~= "playing" then fail(("%s: the game is already over before %s"):format(where[i], sq), 3) end
            if game:getmark_by_move(m) ~= "." then fail(("%s: %s is occupied"):format(where[i], sq), 3) end
            game:move(m)
            moves[#moves + 1] = m
        end
        if game.status ~= "playing" then fail(("%s: the opening ends the game"):format(where[i]), 3) end
        out[i] = moves
    end
    if #lines > 0 and #out == 0 then fail("openings: no openings found", 3) end
    return out
end

-- ---------------------------------------------------------------- settings

local function int_opt(t, key, lo, hi, default)
    local v = t[key]
    if v == nil then return default end
    if type(v) == "string" and v:match("^%s*[-+]?%d+%s*$") then v = math.tointeger(tonumber(v)) end
    v = math.tointeger(v)
    if v == nil or v < lo or (hi and v > hi) then
        fail(("tournament: %s must be an integer %s"):format(key, hi and ("in " .. lo .. ".." .. hi) or (">= " .. lo)), 3)
    end
    return v
end

local function parse_kv(text, what)
    local t = {}
    for item in text:gmatch("[^,]+") do
        local k, v = item:match("^%s*([%w_]+)%s*=%s*(.-)%s*$")
        if not k then fail(("%s: '%s' is not key=value"):format(what, item), 3) end
        t[k] = tonumber(v) or fail(("%s: %s must be a number, not '%s'"):format(what, k, v), 3)
    end
    return t
end

local function sprt_of(s)
    if s == nil or s == false then return nil end
    if type(s) == "string" then s = parse_kv(s, "sprt") end
    if type(s) ~= "table" then fail("sprt: a table {elo0 =, elo1 =, alpha =, beta =} expected", 3) end
    local r = {elo0 = s.elo0 or 0, elo1 = s.elo1 or 5, alpha = s.alpha or 0.05, beta = s.beta or 0.05}
    for k in pairs(s) do
        if r[k] == nil then fail(("sprt: unknown key '%s' (elo0, elo1, alpha, beta)"):format(k), 3) end
    end
    if not (r.elo0 < r.elo1) then fail("sprt: elo0 must be below elo1", 3) end
    if not (r.alpha > 0 and r.alpha < 0.5 and r.beta > 0 and r.beta < 0.5) then
        fail("sprt: alpha and beta must be in (0, 0.5)", 3)
    end
    return r
end

local function shard_of(s)
    if s == nil then return nil end
    local i, n
    if type(s) == "string" then
        i, n = s:match("^(%d+)/(%d+)$")
        i, n = tonumber(i), tonumber(n)
    elseif type(s) == "table" then
        i, n = s[1], s[2]
    end
    if not (math.tointeger(i) and math.tointeger(n) and n >= 1 and i >= 1 and i <= n) then
        fail("shard: I/N with 1 <= I <= N expected, e.g. 2/8", 3)
    end
    return {i = math.tointeger(i), n = math.tointeger(n)}
end

local function settings_of(t)
    if type(t) ~= "table" then fail("bad argument #1 to 'tournament' (table expected)", 3) end
    local known = {players = 1, format = 1, games = 1, seed = 1, jobs = 1, width = 1, height = 1, k = 1,
        board = 1, openings = 1, out = 1, resume = 1, sprt = 1, shard = 1, sandbox = 1, limits = 1,
        progress = 1, quiet = 1, count_linemark = 1}
    for k in pairs(t) do
        if not known[k] then fail(("tournament: unknown option '%s'"):format(tostring(k)), 3) end
    end
    local s = {}
    s.format = t.format or "round_robin"
    if s.format ~= "round_robin" and s.format ~= "gauntlet" then
        fail(("tournament: format must be round_robin or gauntlet, not '%s'"):format(tostring(s.format)), 3)
    end
    s.games = int_opt(t, "games", 2, nil, 100)
    if s.games % 2 ~= 0 then fail(("tournament: games must be even (pairs of games), not %d"):format(s.games), 3) end
    s.seed = int_opt(t, "seed", math.mininteger, nil, 1)
    s.jobs = int_opt(t, "jobs", 1, 256, host.cpu_count())
    s.mbparams = {width = t.width and int_opt(t, "width", 1, 32), height = t.height and int_opt(t, "height", 1, 32),
        k = t.k and int_opt(t, "k", 1, 32), board = t.board, count_linemark = t.count_linemark}
    local probe = mb.Marubatsu(s.mbparams) -- checks the shape
    s.mbparams.width, s.mbparams.height, s.mbparams.k = probe.width, probe.height, probe.k
    s.openings_spec = t.openings
    s.openings = read_openings(t.openings, s.mbparams)
    s.sprt = sprt_of(t.sprt)
    s.shard = shard_of(t.shard)
    s.out = t.out
    s.resume = t.resume
    if s.resume and not s.out then fail("tournament: resume needs out = DIR (where the journal is)", 3) end
    if s.sprt and s.shard then fail("tournament: sprt cannot be combined with shards", 3) end
    s.progress = t.progress
    s.quiet = t.quiet
    return s
end

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
    local ops = {}
    for i, o in ipairs(s.openings) do
        local sq = {}
        for j, m in ipairs(o) do sq[j] = shape:excel(m) end
        ops[i] = table.concat(sq, ",")
    end
    setting("openings", table.concat(ops, " "))
    if s.sprt then setting("sprt", ("elo0=%g,elo1=%g,alpha=%g,beta=%g"):format(s.sprt.elo0, s.sprt.elo1, s.sprt.alpha, s.sprt.beta)) end
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
-- dropped: `partial` is its length. Nil when there is no file.
local function read_journal(path, on_header)
    local f = io.open(path, "rb")
    if not f then return nil end
    f:close()
    f = files.open_input(path)
    local header, games, where, order, shard = {}, {}, {}, {}, nil
    local check, partial, n = nil, nil, 0
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
        elseif kind == "S" then
            if check or shard then fail(("%s:%d: a shard line (S) belongs before the games, once"):format(path, n), 0) end
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
    local pairings = pairings_of(#players, s.format)
    local total = #pairings * s.games
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
        local pi, index, pair, colour = locate(g, #pairings)
        if rec.pairing ~= pi or rec.index ~= index then
            bad("the schedule has it as game %d of pairing %d, the line as game %d of pairing %d", index, pi,
                rec.index, rec.pairing)
        end
        local a, b = players[pairings[pi][1]].name, players[pairings[pi][2]].name
        local o, x = a, b
        if colour == 1 then o, x = b, a end
        if rec.o ~= o or rec.x ~= x then
            bad("the schedule has %s as 〇 and %s as ×, the line %s and %s", printable(o, 60), printable(x, 60),
                printable(rec.o, 60), printable(rec.x, 60))
        end
        local seed = host.tourney_seed(s.seed, a .. "\t" .. b, index)
        if rec.seed ~= seed then
            bad("the schedule gives it seed %d, the line %s", seed, rec.seed >= 0 and ("%d"):format(rec.seed) or "one above 2^63")
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
        if rec.reason == "" then
            if game.status == "playing" then bad("the game is not over after its moves, and no forfeit reason is given") end
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
    end
end

local function first_difference(a, b)
    for i = 1, math.max(#a, #b) do
        if a[i] ~= b[i] then return i, a[i] or "(nothing)", b[i] or "(nothing)" end
    end
end

-- the results and their files: scripts/lib/results.lua
local results_of, text_of = private.results.results_of, private.results.text_of
local new_tally, finish_results = private.results.new_tally, private.results.finish_results
local write_outputs, write_file = private.results.write_outputs, private.results.write_file
local ensure_dir = private.results.ensure_dir

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

-- play game number g of the schedule: its journal line
local function play_game(ctx, g)
    local s, players = ctx.s, ctx.players
    local pi, index, pair, colour = locate(g, #ctx.pairings)
    local pairing = ctx.pairings[pi]
    local po, px = players[pairing[1]], players[pairing[2]]
    if colour == 1 then po, px = px, po end
    local game = ctx.game
    game:restart()
    if #s.openings > 0 then
        for _, m in ipairs(s.openings[(pair - 1) % #s.openings + 1]) do game:move(m) end
    end
    local seed = host.tourney_seed(s.seed, players[pairing[1]].name .. "\t" .. players[pairing[2]].name, index)
    seed_sides(ctx, seed, po, px)
    private.brains.begin(po, px)
    local reason, result = "", nil
    while game.status == "playing" do
        local side = game.turn
        local p = side == "o" and po or px
        if not p.sandbox and ctx.loaded ~= side then load_stream(ctx, side) end
        local m, why = player_move(p, game)
        if m == nil then
            reason = printable(why or "error: (no reason)", REASON_MAX)
            result = side == "o" and "x" or "o"
            break
        end
        game:move(m)
    end
    private.brains.finish(po, px)
    result = result or game.status
    local sq = {}
    for i = 1, game.move_count do sq[i] = game:excel(game.records[i]) end
    return host.journal_format{game = g, pairing = pi, index = index, seed = seed, o = po.name, x = px.name,
        moves = table.concat(sq, ","), result = result, reason = reason}
end

-- The number of games of a schedule of `total` games that shard {i, n}
-- (or the whole run) plays.
local function games_of_shard(total, shard)
    if not shard then return total end
    if total < shard.i then return 0 end
    return (total - shard.i) // shard.n + 1
end

-- host.tournament{players = {...}, ...} -> results (see docs/lua-api.md)
function host.tournament(t)
    local s = settings_of(t)
    local players = make_players(t.players, {sandbox = t.sandbox, limits = t.limits})
    if s.sprt and #players ~= 2 then fail("tournament: sprt needs exactly two players", 2) end
    local pairings = pairings_of(#players, s.format)
    local total = #pairings * s.games
    local header = header_lines(s, players)
    local games, played = {}, 0
    local journal, path
    local stop_note = ""
    if s.out then
        ensure_dir(s.out)
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
        journal, err = io.open(path, "ab")
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
            local g, _, _, o, _, result = host.journal_fields(line)
            points[g] = result == "draw" and 1 or ((result == "o") == (o == first)) and 2 or 0
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
    local gc_done = false
    while g <= total and not stopped do
        local todo = {}
        while g <= total and #todo < CHUNK do
            if not games[g] then todo[#todo + 1] = g end
            g = g + step
        end
        if #todo > 0 then
            -- workers start as copies of this process: leave them no garbage,
            -- or each one's collector touches (and so copies) all of it
            if s.jobs > 1 and not gc_done then
                collectgarbage("collect")
                gc_done = true
            end
            local ok, err = host.tourney_run(todo, s.jobs, function(game_no) return play_game(ctx, game_no) end, done)
            host.stream_use(nil) -- mb.stream draws from its own state again
            if write_error then
                pcall(journal.close, journal)
                fail(write_error .. stop_note, 0)
            end
            if not ok then
                if show then io.stderr:write("\n") end
                if journal then pcall(journal.close, journal) end
                if err == "interrupted" then
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

-- ---------------------------------------------------------------- merge

-- The settings and players a journal's header gives (for merge and
-- replay): s = {format, games, seed, mbparams, openings, sprt}, players
-- = {{name =, spec =}, ...}.
local function context_of_header(path, header)
    local s = {mbparams = {}, openings = {}}
    local players, openings = {}, nil
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
            elseif k == "openings" then openings = v
            elseif k == "sprt" then s.sprt = sprt_of(v)
            end
        elseif f[1] == "P" then
            if #f ~= 4 or math.tointeger(tonumber(f[2])) ~= #players + 1 or f[3] == "" then
                fail(("%s:%d: a player line is P, its number, name and spec"):format(path, n), 0)
            end
            players[#players + 1] = {name = f[3], spec = f[4]}
        end
    end
    if (s.format ~= "round_robin" and s.format ~= "gauntlet") or not s.games or s.games < 2 or s.games % 2 ~= 0
        or not s.seed or #players < 2 then
        fail(("%s: the header lacks the format, games, seed or players of a tournament"):format(path), 0)
    end
    local ok, err = pcall(function()
        local list = {}
        for o in (openings or ""):gmatch("%S+") do list[#list + 1] = o end
        local probe = mb.Marubatsu(s.mbparams)
        s.mbparams = {width = probe.width, height = probe.height, k = probe.k}
        s.openings = read_openings(list, s.mbparams)
    end)
    if not ok then fail(("%s: the header's board or openings: %s"):format(path, tostring(err):gsub("^[^\n]-%.lua:%d+: ", "")), 0) end
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
    local total = #pairings_of(#players, s.format) * s.games
    local count = 0
    for _ in pairs(games) do count = count + 1 end
    if count < total and not s.quiet then
        io.stderr:write(("merge: %d of %d games are in these journals (shards: %s)\n"):format(count, total,
            #shards > 0 and printable(table.concat(shards, " "), 200) or "none"))
    end
    if s.out then
        ensure_dir(s.out)
        local list = {}
        for g in pairs(games) do list[#list + 1] = g end
        table.sort(list)
        local lines = {table.concat(header, "\n") .. "\n"}
        for _, g in ipairs(list) do lines[#lines + 1] = games[g] end
        write_file(s.out .. "/" .. JOURNAL, table.concat(lines))
    end
    local res = results_of(players, s, {text_of(games)}, nil)
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
    local rec = host.journal_parse(line)
    local s = context_of_header(file, j.header)
    rec.board = s.mbparams
    return rec
end

-- host.replay_journal{file =, game =} -> 0: print a journal game move by move.
function host.replay_journal(t)
    local g = math.tointeger(tonumber(t.game))
    if not g or g < 1 then fail(("the game number must be an integer >= 1, not '%s'"):format(printable(t.game, 40)), 2) end
    local rec = host.journal_game(t.file, g)
    local game = mb.Marubatsu(rec.board)
    local o, x = printable(rec.o), printable(rec.x)
    local result = rec.result == "draw" and "draw" or (rec.result == "o" and "〇 (" .. o .. ") won" or "× (" .. x .. ") won")
    io.write(("game %d: %s (〇) vs %s (×), pairing %d game %d, seed %d\n"):format(rec.game, o, x, rec.pairing,
        rec.index, rec.seed))
    io.write(("result: %s%s\n"):format(result, rec.reason ~= "" and (" by forfeit: " .. printable(rec.reason)) or ""))
    io.write(("moves: %s\n\n"):format(rec.moves ~= "" and rec.moves or "(none)"))
    print(game)
    for sq in rec.moves:gmatch("[^,]+") do
        game:move(mb.move(sq:upper(), game))
        print(game)
    end
    return 0
end

-- ---------------------------------------------------------------- CLI

-- Run f(t) for a command; an error prints "marubatsu CMD: message" (without
-- the Lua position) and gives exit status 1, and so does standard output
-- that cannot be written (a full disk).
local function command(cmd, f, t)
    local ok, err = pcall(function()
        f(t)
        files.write_checked(io.stdout, "standard output", "")
    end)
    if ok then return 0 end
    err = tostring(err):gsub("^[^\n]-%.lua:%d+: ", ""):gsub("^" .. cmd .. ": ", "")
    io.stderr:write(("marubatsu %s: %s\n"):format(cmd, err))
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
    local limits = private.command.limits(t)
    return command("tournament", host.tournament, {players = players, games = t.games, seed = t.seed, jobs = t.jobs,
        format = t.format, openings = t.openings, out = t.out, resume = t.resume == "1", sprt = t.sprt,
        shard = t.shard, width = t.width, height = t.height, k = t.k, board = t.board,
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
