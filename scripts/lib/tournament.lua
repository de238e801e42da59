-- scripts/lib/tournament.lua: tournaments between AIs (mb.tournament), their
-- journal, resuming, shards and merging (mb.tournament_merge), the results
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
-- is balanced. Game g's seed is mb.tourney_seed(seed, "A\tB", index), A
-- and B the names of the pairing's players (so a pairing's games are the
-- same whoever else plays); the default stream is seeded with it before
-- the game's first move.
local mb = ...

local T = {}
local JOURNAL = "journal.tsv"
local VERSION = "1"

local function fail(msg, level) error(msg, (level or 1) + 1) end

-- ---------------------------------------------------------------- players

local function is_path(spec) return spec:find("/", 1, true) or spec:match("%.lua$") end

-- Is the script `name` one of the built-in AIs (trusted)?
local function builtin(name)
    local chunk, where = mb.loadscript(name)
    if not chunk then return false end
    if where:find("(built in)", 1, true) then return true end
    local dir = mb.scripts_dir
    return dir ~= nil and where:sub(1, #dir + 1) == dir .. "/"
end

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
        local base, params = mb.playerspec(entry)
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
            else
                p.broken = msg
            end
        else
            local ok, ai = pcall(mb.ai, base)
            if ok then
                p.ai = ai
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
local function illegal(g, m)
    if m == nil then return "nothing" end
    if math.type(m) ~= "integer" then
        if type(m) == "string" then return ("%q (a string)"):format(m) end
        if type(m) == "number" then return tostring(m) .. " (not an integer)" end
        return "a " .. type(m) .. " value"
    end
    local ok, where = pcall(g.excel, g, m)
    if not ok then return tostring(m) .. " (off the board)" end
    if g:getmark_by_move(m) ~= "." then return ("%d (%s, occupied)"):format(m, where) end
    return nil
end

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
    s.jobs = int_opt(t, "jobs", 1, 256, mb.cpu_count())
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
    local esc = mb.journal_escape
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
            local g, err = mb.journal_fields(line)
            if not g then fail(("%s:%d: %s"):format(path, n, err), 0) end
            -- kept as its canonical text (the writer's own format)
            local text = mb.journal_format(mb.journal_parse(line))
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

-- ---------------------------------------------------------------- results

local function new_wld() return {w = 0, l = 0, d = 0} end

local function fmt(x, digits) return ("%." .. (digits or 1) .. "f"):format(x) end

-- The statistics of the games in `sources` (texts of G lines), each game
-- once (the first time its number appears), games after `cutoff` left out.
local function compute(players, sources, cutoff)
    local n = #players
    local index = {}
    for i, p in ipairs(players) do index[p.name] = i end
    local st, cross = {}, {}
    for i = 1, n do
        st[i] = {all = new_wld(), o = new_wld(), x = new_wld(), forfeits = {}, penta = {0, 0, 0, 0, 0}}
        cross[i] = {}
        for j = 1, n do cross[i][j] = {all = new_wld(), o = new_wld(), x = new_wld()} end
    end
    local first_of_pair = {} -- pair key -> the first game's (o, result)
    local first_result = {}
    local forfeits = {}
    local seen, count = {}, 0
    local W, L, D = "w", "l", "d"
    local fields = mb.journal_fields
    for _, text in ipairs(sources) do
        for line in text:gmatch("[^\n]+") do
            local g, pairing, gindex, o, x, result, reason = fields(line)
            if not g then fail(("bad journal line: %s"):format(pairing), 0) end
            if not seen[g] and not (cutoff and g > cutoff) then
                seen[g] = true
                count = count + 1
                local io_, ix = index[o], index[x]
                if not io_ or not ix then fail(("game %d: unknown player '%s'"):format(g, index[o] and x or o), 0) end
                local ro, rx = D, D
                if result == "o" then ro, rx = W, L elseif result == "x" then ro, rx = L, W end
                local so, sx = st[io_], st[ix]
                so.all[ro] = so.all[ro] + 1
                so.o[ro] = so.o[ro] + 1
                sx.all[rx] = sx.all[rx] + 1
                sx.x[rx] = sx.x[rx] + 1
                local c = cross[io_][ix]
                c.all[ro] = c.all[ro] + 1
                c.o[ro] = c.o[ro] + 1
                c = cross[ix][io_]
                c.all[rx] = c.all[rx] + 1
                c.x[rx] = c.x[rx] + 1
                if reason ~= "" then
                    local loser = result == "o" and ix or io_
                    local key = reason:match("^(error):") or reason:match("^(illegal move):") or reason
                    st[loser].forfeits[key] = (st[loser].forfeits[key] or 0) + 1
                    forfeits[#forfeits + 1] = {game = g, player = players[loser].name, reason = reason}
                end
                -- pairs: the two games of one pair of one pairing (colours
                -- swapped); each player's points over both do not depend on
                -- which game comes first
                local key = pairing * 4294967296 + (gindex + 1) // 2
                local prev_o = first_of_pair[key]
                if prev_o then
                    local prev_result = first_result[key]
                    first_of_pair[key], first_result[key] = nil, nil
                    -- half points of the player who has 〇 in this game
                    local k = (result == "o" and 2 or result == "draw" and 1 or 0)
                        + (prev_result == "x" and 2 or prev_result == "draw" and 1 or 0)
                    if prev_o == x then
                        so.penta[k + 1] = so.penta[k + 1] + 1
                        sx.penta[5 - k] = sx.penta[5 - k] + 1
                    end
                else
                    first_of_pair[key], first_result[key] = o, result
                end
            end
        end
    end
    table.sort(forfeits, function(a, b) return a.game < b.game end)
    -- Bradley-Terry fit over the crosstable
    local score, games = {}, {}
    for i = 1, n do
        for j = 1, n do
            local c = cross[i][j].all
            score[(i - 1) * n + j] = c.w + 0.5 * c.d
            games[(i - 1) * n + j] = c.w + c.l + c.d
        end
    end
    local fit = mb.rating.fit(n, score, games)
    local rows = {}
    for i, p in ipairs(players) do
        local a = st[i].all
        local tri = mb.rating.trinomial(a.w, a.l, a.d)
        local pen = mb.rating.pentanomial(st[i].penta)
        local npairs = 0
        for k = 1, 5 do npairs = npairs + st[i].penta[k] end
        rows[i] = {index = i, name = p.name, spec = p.spec, games = a.w + a.l + a.d, w = a.w, l = a.l, d = a.d,
            o = st[i].o, x = st[i].x, score = tri.score, elo = fit[i].elo, error = fit[i].error,
            perf = tri, pairs = npairs, penta = st[i].penta, pair_stats = pen, forfeits = st[i].forfeits}
    end
    local ranking = {}
    for i = 1, n do ranking[i] = rows[i] end
    -- by Elo (to 1e-6: equal records tie exactly), then score, then order
    local function key(r) return math.floor(r.elo * 1e6 + 0.5) end
    table.sort(ranking, function(a, b)
        if key(a) ~= key(b) then return key(a) > key(b) end
        if a.score ~= b.score then return a.score > b.score end
        return a.index < b.index
    end)
    -- likelihood of superiority over the next one down, from the fitted
    -- Elo and its error (all games count, not only their head-to-head ones,
    -- which the crosstable shows)
    for r = 1, n - 1 do
        local a, b = ranking[r], ranking[r + 1]
        local sa, sb = a.error / 1.959963984540054, b.error / 1.959963984540054
        local sd = math.sqrt(sa * sa + sb * sb)
        a.los = sd > 0 and mb.rating.phi((a.elo - b.elo) / sd) or 0.5
    end
    for r, row in ipairs(ranking) do row.rank = r end
    return {players = rows, ranking = ranking, cross = cross, forfeits = forfeits, games = count}
end

-- the SPRT of a two-player run over complete pairs, player 1's view
local function sprt_state(res, sprt)
    local p = res.players[1]
    local out = mb.rating.sprt{elo0 = sprt.elo0, elo1 = sprt.elo1, alpha = sprt.alpha, beta = sprt.beta, pairs = p.penta}
    out.elo0, out.elo1, out.alpha, out.beta = sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    return out
end

-- ---------------------------------------------------------------- output

local function wld(t) return ("%d-%d-%d"):format(t.w, t.l, t.d) end

local function pad(text, w, right)
    local len = utf8.len(text) or #text
    if len >= w then return text end
    return right and (" "):rep(w - len) .. text or text .. (" "):rep(w - len)
end

local function signed(x) return (x >= 0 and "+" or "") .. fmt(x) end

local function text_report(res, s, total)
    local out = {}
    local namew = 6
    for _, r in ipairs(res.ranking) do namew = math.max(namew, #r.name) end
    out[#out + 1] = ("%d games of %d (%s, %d per pairing, seed %d)"):format(res.games, total, s.format, s.games, s.seed)
    out[#out + 1] = ""
    out[#out + 1] = ("%s  %s %6s %6s %6s %6s %7s %8s %7s %6s %15s"):format("rank", pad("player", namew), "games",
        "win", "loss", "draw", "score%", "Elo", "+-95%", "LOS", "pairs Elo +-")
    for _, r in ipairs(res.ranking) do
        out[#out + 1] = ("%4d  %s %6d %6d %6d %6d %7s %8s %7s %6s %15s"):format(r.rank, pad(r.name, namew), r.games,
            r.w, r.l, r.d, fmt(100 * r.score), signed(r.elo), fmt(r.error), r.los and fmt(100 * r.los) .. "%" or "",
            r.pairs > 0 and (signed(r.pair_stats.elo) .. " " .. fmt((r.pair_stats.elo_hi - r.pair_stats.elo_lo) / 2)) or "-")
    end
    out[#out + 1] = ""
    out[#out + 1] = "crosstable: the row's win-loss-draw against the column (by rank), as 〇 / as ×"
    local cells, cw = {}, 1
    for _, r in ipairs(res.ranking) do
        cells[r.index] = {}
        for _, c in ipairs(res.ranking) do
            local x = res.cross[r.index][c.index]
            local text = r.index == c.index and "-" or ""
            if x.all.w + x.all.l + x.all.d > 0 then text = wld(x.o) .. " / " .. wld(x.x) end
            cells[r.index][c.index] = text
            cw = math.max(cw, #text)
        end
    end
    local line = {pad("", namew + 6)}
    for _, c in ipairs(res.ranking) do line[#line + 1] = pad(tostring(c.rank), cw, true) end
    out[#out + 1] = table.concat(line, "  ")
    for _, r in ipairs(res.ranking) do
        line = {("%4d  %s"):format(r.rank, pad(r.name, namew))}
        for _, c in ipairs(res.ranking) do line[#line + 1] = pad(cells[r.index][c.index], cw, true) end
        out[#out + 1] = table.concat(line, "  ")
    end
    out[#out + 1] = ""
    out[#out + 1] = "by colour and pairs"
    for _, r in ipairs(res.ranking) do
        out[#out + 1] = ("  %s  as 〇 %s  as × %s  pairs (0, .5, 1, 1.5, 2 points) %s"):format(pad(r.name, namew),
            wld(r.o), wld(r.x), table.concat(r.penta, " "))
    end
    if #res.forfeits > 0 then
        out[#out + 1] = ""
        out[#out + 1] = ("forfeits (%d)"):format(#res.forfeits)
        for _, r in ipairs(res.ranking) do
            local keys = {}
            for k in pairs(r.forfeits) do keys[#keys + 1] = k end
            table.sort(keys)
            for _, k in ipairs(keys) do
                out[#out + 1] = ("  %s  %s: %d"):format(pad(r.name, namew), k, r.forfeits[k])
            end
        end
        local shown = math.min(#res.forfeits, 10)
        for i = 1, shown do
            local f = res.forfeits[i]
            out[#out + 1] = ("  game %d, %s: %s"):format(f.game, f.player, (f.reason:gsub("\n.*", " ...")))
        end
        if #res.forfeits > shown then out[#out + 1] = ("  ... %d more in results.json"):format(#res.forfeits - shown) end
    end
    if res.sprt then
        local q = res.sprt
        out[#out + 1] = ""
        out[#out + 1] = ("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f (bounds %.3f, %.3f): %s"):format(q.elo0, q.elo1,
            q.alpha, q.beta, q.llr, q.lower, q.upper,
            q.decision == "H1" and "H1 accepted (elo1)" or q.decision == "H0" and "H0 accepted (elo0)" or "no decision yet")
    end
    return table.concat(out, "\n") .. "\n"
end

-- JSON, by hand: fixed key order and number formats, so equal results are
-- equal bytes.
local function json_string(s)
    return '"' .. s:gsub('[%c"\\]', function(c)
        local named = {['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r"}
        return named[c] or ("\\u%04x"):format(c:byte())
    end) .. '"'
end

local function json_value(v, indent)
    local t = type(v)
    if t == "string" then return json_string(v) end
    if t == "boolean" then return tostring(v) end
    if t == "nil" then return "null" end
    if t == "number" then
        if math.type(v) == "integer" then return tostring(v) end
        if v ~= v or v == math.huge or v == -math.huge then return "null" end
        return ("%.4f"):format(v)
    end
    -- tables: arrays, or {__keys = {...}} ordered objects
    local inner = indent .. "  "
    local items = {}
    if v.__keys then
        for _, k in ipairs(v.__keys) do
            if v[k] ~= nil then items[#items + 1] = inner .. json_string(k) .. ": " .. json_value(v[k], inner) end
        end
        if #items == 0 then return "{}" end
        return "{\n" .. table.concat(items, ",\n") .. "\n" .. indent .. "}"
    end
    for i = 1, #v do items[i] = inner .. json_value(v[i], inner) end
    if #items == 0 then return "[]" end
    return "[\n" .. table.concat(items, ",\n") .. "\n" .. indent .. "]"
end

local function obj(keys, t)
    t.__keys = keys
    return t
end

local function wld_obj(t) return obj({"win", "loss", "draw"}, {win = t.w, loss = t.l, draw = t.d}) end

local function json_report(res, s, players, total)
    local ps = {}
    for _, r in ipairs(res.ranking) do
        local fk = {}
        for k in pairs(r.forfeits) do fk[#fk + 1] = k end
        table.sort(fk)
        local f = obj(fk, {})
        for _, k in ipairs(fk) do f[k] = r.forfeits[k] end
        local vs = {}
        for _, c in ipairs(res.ranking) do
            local x = res.cross[r.index][c.index]
            if c.index ~= r.index and x.all.w + x.all.l + x.all.d > 0 then
                vs[#vs + 1] = obj({"opponent", "total", "as_o", "as_x"},
                    {opponent = c.name, total = wld_obj(x.all), as_o = wld_obj(x.o), as_x = wld_obj(x.x)})
            end
        end
        ps[#ps + 1] = obj({"rank", "name", "spec", "games", "win", "loss", "draw", "score", "elo", "elo_error",
            "los_next", "performance", "as_o", "as_x", "pairs", "forfeits", "crosstable"}, {
            rank = r.rank, name = r.name, spec = r.spec, games = r.games, win = r.w, loss = r.l, draw = r.d,
            score = r.score, elo = r.elo, elo_error = r.error, los_next = r.los,
            performance = obj({"elo", "elo_low", "elo_high"}, {elo = r.perf.elo, elo_low = r.perf.elo_lo, elo_high = r.perf.elo_hi}),
            as_o = wld_obj(r.o), as_x = wld_obj(r.x),
            pairs = obj({"count", "pentanomial", "elo", "elo_low", "elo_high"}, {count = r.pairs, pentanomial = r.penta,
                elo = r.pair_stats.elo, elo_low = r.pair_stats.elo_lo, elo_high = r.pair_stats.elo_hi}),
            forfeits = f, crosstable = vs,
        })
    end
    local ff = {}
    for i, f in ipairs(res.forfeits) do ff[i] = obj({"game", "player", "reason"}, f) end
    local shape = mb.Marubatsu(s.mbparams)
    local doc = obj({"format", "games_per_pairing", "seed", "board", "players", "games_played", "games_scheduled",
        "sprt", "ranking", "forfeits"}, {
        format = s.format, games_per_pairing = s.games, seed = s.seed,
        board = obj({"width", "height", "k"}, {width = shape.width, height = shape.height, k = shape.k}),
        players = (function()
            local l = {}
            for i, p in ipairs(players) do l[i] = obj({"name", "spec", "sandboxed"}, {name = p.name, spec = p.spec, sandboxed = p.sandbox ~= nil or p.broken ~= nil}) end
            return l
        end)(),
        games_played = res.games, games_scheduled = total,
        sprt = res.sprt and obj({"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "decision"}, res.sprt) or nil,
        ranking = ps, forfeits = ff,
    })
    return json_value(doc, "") .. "\n"
end

local function csv_field(v)
    v = tostring(v)
    if v:find('[,"\n]') then return '"' .. v:gsub('"', '""') .. '"' end
    return v
end

local function csv_report(res)
    local out = {"rank,name,spec,games,win,loss,draw,score,elo,elo_error,los_next,"
        .. "win_as_o,loss_as_o,draw_as_o,win_as_x,loss_as_x,draw_as_x,pairs,pairs_0,pairs_1,pairs_2,pairs_3,pairs_4,"
        .. "pairs_elo,pairs_elo_low,pairs_elo_high,forfeits"}
    for _, r in ipairs(res.ranking) do
        local nf = 0
        for _, c in pairs(r.forfeits) do nf = nf + c end
        local f = {r.rank, csv_field(r.name), csv_field(r.spec), r.games, r.w, r.l, r.d, fmt(r.score, 4), fmt(r.elo, 2),
            fmt(r.error, 2), r.los and fmt(r.los, 4) or "", r.o.w, r.o.l, r.o.d, r.x.w, r.x.l, r.x.d, r.pairs,
            r.penta[1], r.penta[2], r.penta[3], r.penta[4], r.penta[5], fmt(r.pair_stats.elo, 2),
            fmt(r.pair_stats.elo_lo, 2), fmt(r.pair_stats.elo_hi, 2), nf}
        out[#out + 1] = table.concat(f, ",")
    end
    return table.concat(out, "\n") .. "\n"
end

local function xml(s) return (s:gsub("[&<>\"]", {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;"})) end

-- ranking.svg: one row per player, the Elo as a dot with its 95% bar
local function svg_report(res)
    local lo, hi = -100, 100
    for _, r in ipairs(res.ranking) do
        lo = math.min(lo, r.elo - r.error)
        hi = math.max(hi, r.elo + r.error)
    end
    local step = 50
    while (hi - lo) / step > 12 do step = step * 2 end
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    local namew = 60
    for _, r in ipairs(res.ranking) do namew = math.max(namew, 7 * #r.name + 16) end
    local left, plotw, rowh, top = namew + 10, 480, 28, 40
    local h = top + rowh * #res.ranking + 40
    local w = left + plotw + 150
    local function X(e) return left + (e - lo) / (hi - lo) * plotw end
    local o = {}
    o[#o + 1] = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">'):format(w, h, w, h)
    o[#o + 1] = ('<rect width="%d" height="%d" fill="white"/>'):format(w, h)
    o[#o + 1] = ('<text x="%d" y="22" font-size="15" font-weight="bold">Ranking: Elo with 95%% intervals (%d games)</text>'):format(left, res.games)
    for e = lo, hi, step do
        o[#o + 1] = ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>'):format(X(e), top - 6, X(e), h - 34, e == 0 and "#888" or "#ddd")
        o[#o + 1] = ('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%d</text>'):format(X(e), h - 18, e)
    end
    for i, r in ipairs(res.ranking) do
        local y = top + rowh * (i - 1) + rowh / 2
        o[#o + 1] = ('<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%d. %s</text>'):format(left - 8, y, r.rank, xml(r.name))
        o[#o + 1] = ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#36c" stroke-width="3"/>'):format(X(r.elo - r.error), y, X(r.elo + r.error), y)
        o[#o + 1] = ('<circle cx="%.1f" cy="%.1f" r="5" fill="#135"/>'):format(X(r.elo), y)
        o[#o + 1] = ('<text x="%d" y="%.1f" dominant-baseline="middle">%s ± %s (%s%%)</text>'):format(left + plotw + 10, y,
            signed(r.elo), fmt(r.error), fmt(100 * r.score))
    end
    o[#o + 1] = "</svg>"
    return table.concat(o, "\n") .. "\n"
end

local function write_file(path, text)
    local tmp = path .. ".tmp"
    local f, err = io.open(tmp, "wb")
    if not f then fail("cannot write " .. err, 0) end
    f:write(text)
    f:close()
    local ok, e2 = os.rename(tmp, path)
    if not ok then fail("cannot write " .. path .. ": " .. tostring(e2), 0) end
end

local function ensure_dir(dir)
    local ok, err = mb.mkdir(dir)
    if not ok then fail(("cannot create directory %s: %s"):format(dir, err), 0) end
end

-- results of the games in sources (texts of G lines), games <= cutoff
local function results_of(players, s, sources, cutoff)
    local res = compute(players, sources, cutoff)
    if s.sprt then res.sprt = sprt_state(res, s.sprt) end
    return res
end

-- the G lines of games (game -> line) as one text
local function text_of(games)
    local list = {}
    for _, line in pairs(games) do list[#list + 1] = line end
    return table.concat(list)
end

local function write_outputs(res, s, players, total)
    if s.out then
        write_file(s.out .. "/results.json", json_report(res, s, players, total))
        write_file(s.out .. "/results.csv", csv_report(res))
        write_file(s.out .. "/ranking.svg", svg_report(res))
    end
    if not s.quiet then io.write(text_report(res, s, total)) end
end

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
    local seed = mb.tourney_seed(s.seed, players[pairing[1]].name .. "\t" .. players[pairing[2]].name, index)
    mb.seed(seed)
    local reason, result = "", nil
    while game.status == "playing" do
        local side = game.turn
        local m, why = player_move(side == "o" and po or px, game)
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
    return mb.journal_format{game = g, pairing = pi, index = index, seed = seed, o = po.name, x = px.name,
        moves = table.concat(sq, ","), result = result, reason = reason}
end

-- mb.tournament{players = {...}, ...} -> results (see docs/lua-api.md)
function mb.tournament(t)
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
    local ctx = {s = s, players = players, pairings = pairings, game = mb.Marubatsu(s.mbparams)}
    local sources = {text_of(games)} -- the journal's games, then each batch
    -- SPRT: look at results in game order, a pair at a time (two players:
    -- games 2q-1 and 2q are pair q); stop at the first decision
    local cutoff, next_in_order, penta, points = nil, 1, {0, 0, 0, 0, 0}, {}
    local first = players[1].name
    local function arrived(text) -- the first player's half points per game
        for line in text:gmatch("[^\n]+") do
            local g, _, _, o, _, result = mb.journal_fields(line)
            points[g] = result == "draw" and 1 or ((result == "o") == (o == first)) and 2 or 0
        end
    end
    local function sprt_check()
        while not cutoff and points[next_in_order] do
            if next_in_order % 2 == 0 then
                local k = points[next_in_order - 1] + points[next_in_order]
                penta[k + 1] = penta[k + 1] + 1
                local q = mb.rating.sprt{elo0 = s.sprt.elo0, elo1 = s.sprt.elo1, alpha = s.sprt.alpha, beta = s.sprt.beta, pairs = penta}
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
        local ok, err = mb.tourney_run(todo, s.jobs, function(g) return play_game(ctx, g) end, function(text, count)
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

-- mb.tournament_merge{dirs = {DIR, ...}, out = DIR, quiet =} -> results:
-- the journals of the shards of one tournament as one run.
function mb.tournament_merge(t)
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
        local f = mb.journal_split(line)
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

-- mb.journal_game(file, game_no) -> record: one game of a journal.
function mb.journal_game(file, g)
    local j = read_journal(file)
    if not j then fail(("%s: cannot read it"):format(file), 2) end
    local line = j.games[g]
    if not line then fail(("%s: no game %d in this journal"):format(file, g), 2) end
    local rec = mb.journal_parse(line)
    local board = {}
    for _, line in ipairs(j.header) do
        local f = mb.journal_split(line)
        if f[1] == "T" and f[2] == "board" then
            local w, h, k = f[3]:match("^(%d+)x(%d+) k(%d+)$")
            board = {width = tonumber(w), height = tonumber(h), k = tonumber(k)}
        end
    end
    rec.board = board
    return rec
end

-- mb.replay_journal{file =, game =} -> 0: print a journal game move by move.
function mb.replay_journal(t)
    local g = math.tointeger(tonumber(t.game))
    if not g or g < 1 then fail(("the game number must be an integer >= 1, not '%s'"):format(tostring(t.game)), 2) end
    local rec = mb.journal_game(t.file, g)
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

-- mb.tournament_main{players = "A\nB\n...", games =, ...} (strings, from
-- `marubatsu tournament`) -> exit status
function mb.tournament_main(t)
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
    return command("tournament", mb.tournament, {players = players, games = t.games, seed = t.seed, jobs = t.jobs,
        format = t.format, openings = t.openings, out = t.out, resume = t.resume == "1", sprt = t.sprt,
        shard = t.shard, width = t.width, height = t.height, k = t.k, board = t.board,
        count_linemark = t.count_linemark == "1" or nil, sandbox = t.sandbox ~= "0", limits = limits,
        progress = t.progress ~= "0", quiet = t.quiet == "1"})
end

-- mb.tournament_merge_main{dirs = "A\nB", out =, quiet =} -> exit status
function mb.tournament_merge_main(t)
    return command("merge", mb.tournament_merge, {dirs = t.dirs, out = t.out, quiet = t.quiet == "1"})
end

-- mb.replay_journal_main{file =, game =} -> exit status
function mb.replay_journal_main(t)
    return command("replay", mb.replay_journal, t)
end

return T
