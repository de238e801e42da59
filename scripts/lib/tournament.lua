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

local function fail(msg, level) error(msg, (level or 1) + 1) end

-- ---------------------------------------------------------------- players

local function is_path(spec) return spec:find("/", 1, true) or spec:match("%.lua$") end

-- Is the script `name` one of the built-in AIs (trusted)? (the resolver's
-- origin, scripts/lib/loader.lua)
local builtin = private.is_builtin

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
    if type(entry) == "string" then
        local base, params = host.playerspec(entry)
        if not base then fail(("players[%d]: bad player '%s': %s"):format(i, entry, params), 3) end
        for k, v in pairs(params) do p.params[k] = v end
        spec = entry
        p.script = base
        local found, why = mb.loadscript(base)
        if not found and (why:find("not found", 1, true) or (is_path(base) and not io.open(base, "r"))) then
            fail(("players[%d]: %s"):format(i, why), 3)
        end
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
                p.broken = msg
            end
        else
            local ok, ai = pcall(mb.ai, base)
            if ok then
                p.ai = ai
                -- NAME:key=value: keys the AI does not take are refused now
                local checked, err = pcall(mb.check_params, ai, p.params)
                if not checked then fail(("players[%d]: %s"):format(i, tostring(err):gsub("^[^\n]-:%d+: ", "")), 3) end
            elseif is_path(base) or mb.loadscript(base) then
                p.broken = "error: " .. tostring(ai)
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
    if name:find("[\t\n\r]") then fail(("players[%d]: a name cannot hold tabs or newlines"):format(i), 3) end
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
        local f, err = io.open(spec, "r")
        if not f then fail("openings: " .. err, 3) end
        local n = 0
        for line in f:lines() do
            n = n + 1
            local text = line:gsub("#.*", ""):gsub("^%s+", ""):gsub("%s+$", "")
            if text ~= "" then
                lines[#lines + 1] = text
                where[#lines] = ("%s:%d"):format(spec, n)
            end
        end
        f:close()
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
            if not ok then fail(("%s: '%s' is not a square of this board"):format(where[i], sq), 3) end
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

local function read_file(path)
    local f = io.open(path, "rb")
    if not f then return nil end
    local text = f:read("a")
    f:close()
    return text
end

-- Read a journal: header lines (H/T/P, in order, as text), shard line, and
-- game lines by game number (each with its newline). A last line without its newline (the
-- writer was killed in the middle of it) is dropped; `complete` is the text
-- of the complete lines.
local function read_journal(path)
    local text = read_file(path)
    if not text then return nil end
    local header, games, shard = {}, {}, nil
    local complete = text:match("^(.*\n)") or ""
    local n = 0
    for line in complete:gmatch("([^\n]*)\n") do
        n = n + 1
        line = line:gsub("\r$", "")
        local kind = line:sub(1, 1)
        if kind == "G" then
            local g, err = host.journal_fields(line)
            if not g then fail(("%s:%d: %s"):format(path, n, err), 0) end
            -- kept as its canonical text (the writer's own format)
            local text = host.journal_format(host.journal_parse(line))
            if games[g] and games[g] ~= text then
                fail(("%s:%d: game %d appears twice with different contents"):format(path, n, g), 0)
            end
            games[g] = text
        elseif kind == "S" then
            shard = line
        elseif kind == "H" or kind == "T" or kind == "P" then
            if n == 1 and line:sub(1, 20) ~= "H\tmarubatsu-journal\t" then
                fail(("%s:1: not a marubatsu journal"):format(path), 0)
            end
            header[#header + 1] = line
        elseif line ~= "" and kind ~= "#" then
            fail(("%s:%d: unknown record '%s'"):format(path, n, kind), 0)
        end
    end
    if n == 0 then fail(("%s: empty journal"):format(path), 0) end
    if header[1] ~= "H\tmarubatsu-journal\t" .. VERSION then
        fail(("%s:1: not a marubatsu journal of version %s"):format(path, VERSION), 0)
    end
    return {header = header, games = games, shard = shard, complete = complete, partial = #complete < #text}
end

local function first_difference(a, b)
    for i = 1, math.max(#a, #b) do
        if a[i] ~= b[i] then return i, a[i] or "(nothing)", b[i] or "(nothing)" end
    end
end

-- the results and their files: scripts/lib/results.lua
local results_of, text_of = private.results.results_of, private.results.text_of
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
    local reason, result = "", nil
    while game.status == "playing" do
        local side = game.turn
        local p = side == "o" and po or px
        if not p.sandbox and ctx.loaded ~= side then load_stream(ctx, side) end
        local m, why = player_move(p, game)
        if m == nil then
            reason = why or "error: (no reason)"
            result = side == "o" and "x" or "o"
            break
        end
        game:move(m)
    end
    result = result or game.status
    local sq = {}
    for i = 1, game.move_count do sq[i] = game:excel(game.records[i]) end
    return host.journal_format{game = g, pairing = pi, index = index, seed = seed, o = po.name, x = px.name,
        moves = table.concat(sq, ","), result = result, reason = reason}
end

-- host.tournament{players = {...}, ...} -> results (see docs/lua-api.md)
function host.tournament(t)
    local s = settings_of(t)
    local players = make_players(t.players, {sandbox = t.sandbox, limits = t.limits})
    if s.sprt and #players ~= 2 then fail("tournament: sprt needs exactly two players", 2) end
    local pairings = pairings_of(#players, s.format)
    local total = #pairings * s.games
    local header = header_lines(s, players)
    local games = {}
    local journal
    if s.out then
        ensure_dir(s.out)
        local path = s.out .. "/" .. JOURNAL
        local old = read_journal(path)
        local shard_line = s.shard and ("S\t%d/%d"):format(s.shard.i, s.shard.n) or nil
        if old and not s.resume then
            fail(("%s exists: continue it with resume (--resume) or choose another out directory"):format(path), 2)
        end
        if old then
            local i, a, b = first_difference(old.header, header)
            if i then
                fail(("%s: the journal is of another tournament (header line %d is\n  %s\nbut this run has\n  %s)")
                    :format(path, i, a:gsub("\t", " "), b:gsub("\t", " ")), 2)
            end
            if old.shard ~= shard_line then
                fail(("%s: the journal is of shard %s, this run is %s"):format(path, old.shard or "(none)", shard_line or "(no shard)"), 2)
            end
            games = old.games
            if old.partial then write_file(path, old.complete) end -- drop the line cut short
        else
            local text = table.concat(header, "\n") .. "\n" .. (shard_line and shard_line .. "\n" or "")
            write_file(path, text)
        end
        journal = assert(io.open(path, "ab"))
        journal:setvbuf("full", 65536) -- flushed after every batch of lines
    end
    -- the games this run plays, in schedule order
    local todo, mine = {}, 0
    for g = 1, total do
        if not s.shard or (g - 1) % s.shard.n == s.shard.i - 1 then
            mine = mine + 1
            if not games[g] then todo[#todo + 1] = g end
        end
    end
    local ctx = {s = s, players = players, pairings = pairings, game = mb.Marubatsu(s.mbparams),
        streams = {o = mb.Random(0), x = mb.Random(0)}}
    local sources = {text_of(games)} -- the journal's games, then each batch
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
    if s.sprt then
        arrived(sources[1])
        if sprt_check() then todo = {} end
    end
    local show = s.progress ~= false and not s.quiet and mb.isatty(2)
    local t0, done_n, last = mb.clock(), mine - #todo, 0
    if #todo > 0 then
        -- workers start as copies of this process: leave them no garbage,
        -- or each one's collector touches (and so copies) all of it
        if s.jobs > 1 then collectgarbage("collect") end
        local ok, err = host.tourney_run(todo, s.jobs, function(g) return play_game(ctx, g) end, function(text, count)
            sources[#sources + 1] = text -- parsed when the results are computed
            if journal then
                journal:write(text)
                journal:flush()
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
        end)
        host.stream_use(nil) -- mb.stream draws from its own state again
        if show then io.stderr:write("\n") end
        if not ok then
            if journal then journal:close() end
            if err == "interrupted" then
                fail(("interrupted after %d of %d games%s"):format(done_n, mine, s.out
                    and "; the journal keeps them: run the same command with --resume to continue" or ""), 2)
            end
            fail("tournament: " .. err, 2)
        end
    end
    if journal then journal:close() end
    local res = results_of(players, s, sources, cutoff)
    write_outputs(res, s, players, s.shard and mine or total)
    res.scheduled = total
    return res
end

-- ---------------------------------------------------------------- merge

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
    local header, games, shards = nil, {}, {}
    for _, dir in ipairs(dirs) do
        local path = dir .. "/" .. JOURNAL
        local j = read_journal(path)
        if not j then fail(("merge: %s: no journal there"):format(path), 2) end
        if header then
            local i, a, b = first_difference(header, j.header)
            if i then
                fail(("merge: %s is of another tournament (header line %d: %s vs %s)"):format(path, i,
                    a:gsub("\t", " "), b:gsub("\t", " ")), 2)
            end
        end
        header = header or j.header
        if j.shard then shards[#shards + 1] = j.shard:sub(3) end
        for g, line in pairs(j.games) do
            if games[g] and games[g] ~= line then
                fail(("merge: game %d differs between journals"):format(g), 2)
            end
            games[g] = line
        end
    end
    -- rebuild the settings and players from the header
    local s = {mbparams = {}, openings = {}, quiet = t.quiet, out = t.out}
    local players = {}
    for _, line in ipairs(header) do
        local f = host.journal_split(line)
        if f[1] == "T" then
            local k, v = f[2], f[3]
            if k == "format" then s.format = v
            elseif k == "games" then s.games = math.tointeger(tonumber(v))
            elseif k == "seed" then s.seed = math.tointeger(tonumber(v))
            elseif k == "board" then
                local w, h, kk = v:match("^(%d+)x(%d+) k(%d+)$")
                s.mbparams = {width = tonumber(w), height = tonumber(h), k = tonumber(kk)}
            elseif k == "sprt" then s.sprt = sprt_of(v)
            end
        elseif f[1] == "P" then
            players[#players + 1] = {name = f[3], spec = f[4]}
        end
    end
    local total = #pairings_of(#players, s.format) * s.games
    local count = 0
    for _ in pairs(games) do count = count + 1 end
    if count < total and not s.quiet then
        io.stderr:write(("merge: %d of %d games are in these journals (shards: %s)\n"):format(count, total,
            #shards > 0 and table.concat(shards, " ") or "none"))
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

-- host.journal_game(file, game_no) -> record: one game of a journal.
function host.journal_game(file, g)
    local j = read_journal(file)
    if not j then fail(("%s: cannot read it"):format(file), 2) end
    local line = j.games[g]
    if not line then fail(("%s: no game %d in this journal"):format(file, g), 2) end
    local rec = host.journal_parse(line)
    local board = {}
    for _, line in ipairs(j.header) do
        local f = host.journal_split(line)
        if f[1] == "T" and f[2] == "board" then
            local w, h, k = f[3]:match("^(%d+)x(%d+) k(%d+)$")
            board = {width = tonumber(w), height = tonumber(h), k = tonumber(k)}
        end
    end
    rec.board = board
    return rec
end

-- host.replay_journal{file =, game =} -> 0: print a journal game move by move.
function host.replay_journal(t)
    local g = math.tointeger(tonumber(t.game))
    if not g or g < 1 then fail(("the game number must be an integer >= 1, not '%s'"):format(tostring(t.game)), 2) end
    local rec = host.journal_game(t.file, g)
    local game = mb.Marubatsu(rec.board)
    local result = rec.result == "draw" and "draw" or (rec.result == "o" and "〇 (" .. rec.o .. ") won" or "× (" .. rec.x .. ") won")
    io.write(("game %d: %s (〇) vs %s (×), pairing %d game %d, seed %d\n"):format(rec.game, rec.o, rec.x, rec.pairing,
        rec.index, rec.seed))
    io.write(("result: %s%s\n"):format(result, rec.reason ~= "" and (" by forfeit: " .. rec.reason) or ""))
    io.write(("moves: %s\n\n"):format(rec.moves ~= "" and rec.moves or "(none)"))
    print(game)
    for sq in rec.moves:gmatch("[^,]+") do
        game:move(mb.move(sq, game))
        print(game)
    end
    return 0
end

-- ---------------------------------------------------------------- CLI

-- Run f(t) for a command; an error prints "marubatsu CMD: message" (without
-- the Lua position) and gives exit status 1.
local function command(cmd, f, t)
    local ok, err = pcall(f, t)
    if ok then return 0 end
    err = tostring(err):gsub("^[^\n]-%.lua:%d+: ", ""):gsub("^" .. cmd .. ": ", "")
    io.stderr:write(("marubatsu %s: %s\n"):format(cmd, err))
    return 1
end

-- host.tournament_main{players = "A\nB\n...", games =, ...} (strings, from
-- `marubatsu tournament`) -> exit status
function host.tournament_main(t)
    local players = {}
    for p in (t.players or ""):gmatch("[^\n]+") do players[#players + 1] = p end
    local limits
    if t.time or t.instructions or t.memory then
        limits = {}
        for _, k in ipairs {"time", "instructions", "memory"} do
            local v = tonumber(t[k])
            if v then limits[k] = v > 0 and v or false end
        end
    end
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
