-- scripts/lib/schedule.lua: a tournament's schedule and settings: the
-- pairings, where game g falls (pairing, index, pair, colour), the
-- openings, the options of host.tournament checked (settings_of), SPRT and
-- shard specs, and how many games a shard plays. Embedded; runs once with
-- mb and the library's private table, where it leaves `schedule` for
-- scripts/lib/journals.lua and scripts/lib/tournament.lua (the schedule
-- itself is described at the top of tournament.lua).
local mb, private = ...
local host = private.host -- the host library (require "marubatsu.host")
local files = private.files
local printable = files.printable

local fail = private.fail

local OPENINGS_MAX = 16 * 1024 * 1024 -- bytes of an --openings file

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
-- commas or spaces; blank lines and # comments skipped). A line of numbers
-- only is Gomocup's relative format, as its opening files are written:
-- pairs "dx, dy" of offsets from the centre square (x = width // 2 + dx,
-- y = height // 2 + dy, y downwards as in the protocol), the stones in the
-- order played ("0,0, 1,0, 1,1" is H8, I8, I9 on 15x15). Each is checked on
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
        local squares = {}
        if text:find("%d") and not text:find("[^%d%s,+-]") then -- Gomocup's relative format
            local nums = {}
            for n in text:gmatch("[^,%s]+") do
                local v = n:match("^[-+]?%d+$") and math.tointeger(tonumber(n))
                if not v then fail(("%s: '%s' is not an offset"):format(where[i], printable(n, 40)), 3) end
                nums[#nums + 1] = v
            end
            if #nums % 2 ~= 0 then
                fail(("%s: a relative opening is pairs of offsets dx, dy from the centre; this line has %d numbers")
                    :format(where[i], #nums), 3)
            end
            for j = 1, #nums, 2 do
                local x, y = game.width // 2 + nums[j], game.height // 2 + nums[j + 1]
                if x < 0 or y < 0 or x >= game.width or y >= game.height then
                    fail(("%s: the offset %d,%d from the centre is off this %dx%d board"):format(where[i], nums[j],
                        nums[j + 1], game.width, game.height), 3)
                end
                squares[#squares + 1] = game:excel(game:xy_to_move(x, y))
            end
        else
            for sq in text:gmatch("[^,%s]+") do squares[#squares + 1] = sq end
        end
        for _, sq in ipairs(squares) do
            local ok, m = pcall(mb.move, sq:upper(), game)
            if not ok then fail(("%s: '%s' is not a square of this board"):format(where[i], printable(sq, 40)), 3) end
            if game.status ~= "playing" then
                fail(("%s: the game is already over before %s"):format(where[i], sq), 3)
            end
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

-- The openings as played: each cut to its first `plies` moves (nil: all),
-- then in the file's order ("sequential") or shuffled ("random") by a
-- stream of the tournament's seed alone (the same order on every run,
-- resume and shard: the journal's header holds the list as played).
local function arrange_openings(list, order, plies, seed)
    local out = {}
    for i, o in ipairs(list) do
        local cut = {}
        for j = 1, plies and math.min(plies, #o) or #o do cut[j] = o[j] end
        out[i] = cut
    end
    if order == "random" then
        -- splitmix64 from the seed: Fisher-Yates
        local state = host.tourney_seed(seed, "openings", 1)
        local function next_random()
            state = state + 0x9E3779B97F4A7C15
            local z = state
            z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
            z = (z ~ (z >> 27)) * 0x94D049BB133111EB
            return z ~ (z >> 31)
        end
        for i = #out, 2, -1 do
            local j = (next_random() >> 1) % i + 1
            out[i], out[j] = out[j], out[i]
        end
    elseif order ~= nil and order ~= "sequential" then
        fail(("tournament: openings_order must be sequential or random, not '%s'"):format(tostring(order)), 3)
    end
    return out
end

-- ---------------------------------------------------------------- knockout

-- A knockout (single elimination) of n players seeded in the order given
-- (player 1 the first seed). The bracket has B = the next power of two >= n
-- slots, seeds placed so that seeds 1 and 2 can meet only in the final (B =
-- 8: 1-8, 4-5, 2-7, 3-6); the B - n slots past n are byes, which the top
-- seeds meet: they go on without a game. The matches are numbered round by
-- round (round 1: 1 .. B/2, round 2: B/2 + 1 .. B/2 + B/4, ..., the final
-- B - 1); a match's number is the journal's PAIRING. A match plays `games`
-- games (pairs from one opening, colours swapped), its first player (the
-- winner of the upper match, in round 1 the better seed) as 〇 in the first
-- game of each pair; the more points win. A tie plays one more pair, up to
-- `tiebreak` pairs, until a pair ends with one player ahead; still tied, the
-- better seed goes on. Match m's games are numbered (m - 1) * block + i, i
-- = 1 .. block with block = games + 2 * tiebreak (so a match's games have
-- the same numbers whatever the other matches did; the tie-break games not
-- needed are never played).
local function seed_order(b)
    local order = {1}
    local size = 1
    while size < b do
        size = size * 2
        local next_ = {}
        for _, seed in ipairs(order) do
            next_[#next_ + 1] = seed
            next_[#next_ + 1] = size + 1 - seed
        end
        order = next_
    end
    return order
end

-- knockout(n, games, tiebreak) -> bracket k: k.matches[m] = {round,
-- seeds = {a, b} (round 1) or from = {m1, m2} (the feeder matches),
-- result[i] = the points (0, 0.5, 1) of its first player in its game i};
-- k.rounds, k.final (the final's number), k.block, k.total (the last game
-- number). k.add(g, points) records a game; the rest reads.
local function knockout(n, games, tiebreak)
    local b = 1
    while b < n do b = b * 2 end
    local k = {n = n, size = b, games = games, tiebreak = tiebreak, block = games + 2 * tiebreak, matches = {}}
    local order = seed_order(b)
    local m, prev_start, width, round = 0, 0, b // 2, 1
    while width >= 1 do
        local start = m
        for j = 1, width do
            m = m + 1
            local match = {round = round, number = m, result = {}}
            if round == 1 then
                match.seeds = {order[2 * j - 1], order[2 * j]}
            else
                match.from = {prev_start + 2 * j - 1, prev_start + 2 * j}
            end
            k.matches[m] = match
        end
        prev_start = start
        width, round = width // 2, round + 1
    end
    k.rounds = round - 1
    k.final = m
    k.total = m * k.block

    -- The games match m plays as they stand: its `games`, then a tie-break
    -- pair more while the games up to a pair's end are all played and tied,
    -- up to block. -> that count, and the first player's points over them
    -- (nil while one of them is not played).
    local function level(match)
        local need = games
        while true do
            local pa = 0
            for i = 1, need do
                local r = match.result[i]
                if r == nil then return need, nil end
                pa = pa + r
            end
            if pa * 2 ~= need or need >= k.block then return need, pa end
            need = need + 2
        end
    end

    -- k.players(m) -> a, b: the match's players (player indices, which are
    -- seeds), its first player first; false for a bye; nil while a feeder
    -- match is undecided
    function k.players(mm)
        local match = k.matches[mm]
        if match.seeds then
            local a, c = match.seeds[1], match.seeds[2]
            return a <= n and a, c <= n and c
        end
        local a, c = k.winner(match.from[1]), k.winner(match.from[2])
        if a == nil or c == nil then return nil end
        return a, c
    end

    -- k.winner(m) -> the player who goes on; false when neither (two byes);
    -- nil while undecided. by_seed: a tie after every tie-break pair
    function k.winner(mm)
        local a, c = k.players(mm)
        if a == nil then return nil end
        if not a or not c then return a or c end
        local need, pa = level(k.matches[mm])
        if pa == nil then return nil end
        if pa * 2 > need then return a end
        if pa * 2 < need then return c end
        return math.min(a, c), true -- the better seed
    end

    -- k.needed(m) -> the indices of the games match m is to play now (none
    -- while its players are undecided, or when it is decided)
    function k.needed(mm)
        local a, c = k.players(mm)
        if not a or not c or k.winner(mm) ~= nil then return {} end
        local match = k.matches[mm]
        local out = {}
        for i = 1, (level(match)) do
            if match.result[i] == nil then out[#out + 1] = i end
        end
        return out
    end

    -- k.locate(g) -> match, index in it, pair, colour (0: the match's first
    -- player has 〇)
    function k.locate(g)
        local mm, i = (g - 1) // k.block + 1, (g - 1) % k.block + 1
        return mm, i, (i - 1) // 2 + 1, (i - 1) % 2
    end

    -- k.allowed(g) -> nil | why game g cannot be played now (the games
    -- recorded so far decide it)
    function k.allowed(g)
        if g > k.total then return ("not in the schedule, which has %d games"):format(k.total) end
        local mm, i = k.locate(g)
        local a, c = k.players(mm)
        if a == nil then return ("match %d: its players are not decided by the games before it"):format(mm) end
        if not a or not c then return ("match %d has a bye: no games"):format(mm) end
        local match = k.matches[mm]
        if match.result[i] ~= nil then return nil end
        if i > (level(match)) then
            return ("match %d: game %d of the match is a tie-break the games before it do not call for"):format(mm, i)
        end
        return nil
    end

    -- k.add(g, points): game g played, its match's first player scoring
    -- points (0, 0.5 or 1)
    function k.add(g, points)
        local mm, i = k.locate(g)
        k.matches[mm].result[i] = points
    end

    return k
end

-- ---------------------------------------------------------------- settings

local function int_opt(t, key, lo, hi, default)
    local v = t[key]
    if v == nil then return default end
    if type(v) == "string" and v:match("^%s*[-+]?%d+%s*$") then v = math.tointeger(tonumber(v)) end
    v = math.tointeger(v)
    if v == nil or v < lo or (hi and v > hi) then
        fail(("tournament: %s must be an integer %s"):format(key, hi and ("in " .. lo .. ".." .. hi) or (">= " .. lo)),
            3)
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
    local known = {players = 1, format = 1, games = 1, seed = 1, jobs = 1, width = 1, height = 1, k = 1, rule = 1,
        board = 1, openings = 1, out = 1, resume = 1, sprt = 1, shard = 1, sandbox = 1, limits = 1,
        progress = 1, quiet = 1, count_linemark = 1, move_time = 1, game_time = 1, increment = 1, slack = 1,
        allow_forfeits = 1, verbose = 1, rating_interval = 1, resume_command = 1, tiebreak = 1, adjudicate = 1,
        max_moves = 1, openings_order = 1, openings_plies = 1}
    for k in pairs(t) do
        if not known[k] then fail(("tournament: unknown option '%s'"):format(tostring(k)), 3) end
    end
    local s = {}
    s.format = t.format or "round_robin"
    if s.format ~= "round_robin" and s.format ~= "gauntlet" and s.format ~= "knockout" then
        fail(("tournament: format must be round_robin, gauntlet or knockout, not '%s'"):format(tostring(s.format)), 3)
    end
    s.tiebreak = int_opt(t, "tiebreak", 0, 1000, 1)
    s.adjudicate = t.adjudicate and true or nil
    s.max_moves = int_opt(t, "max_moves", 1, 1024, nil)
    if t.tiebreak ~= nil and s.format ~= "knockout" then fail("tournament: tiebreak is for format = knockout", 3) end
    s.games = int_opt(t, "games", 2, nil, 100)
    if s.games % 2 ~= 0 then fail(("tournament: games must be even (pairs of games), not %d"):format(s.games), 3) end
    s.seed = int_opt(t, "seed", math.mininteger, nil, 1)
    s.jobs = int_opt(t, "jobs", 1, 256, host.cpu_count())
    s.mbparams = {width = t.width and int_opt(t, "width", 1, 32), height = t.height and int_opt(t, "height", 1, 32),
        k = t.k and int_opt(t, "k", 1, 32), rule = t.rule, board = t.board, count_linemark = t.count_linemark}
    local ok, probe = pcall(mb.Marubatsu, s.mbparams) -- checks the shape and the rule
    if not ok then fail("tournament: " .. tostring(probe):gsub("^bad option '(%w+)' to 'Marubatsu' ", "bad %1 "), 3) end
    s.mbparams.width, s.mbparams.height, s.mbparams.k, s.mbparams.rule = probe.width, probe.height, probe.k, probe.rule
    s.openings_spec = t.openings
    s.openings = read_openings(t.openings, s.mbparams)
    local plies = int_opt(t, "openings_plies", 1, nil, nil)
    if (t.openings_order ~= nil or plies ~= nil) and t.openings == nil then
        fail("tournament: openings_order and openings_plies need openings", 3)
    end
    s.openings = arrange_openings(s.openings, t.openings_order, plies, s.seed)
    s.sprt = sprt_of(t.sprt)
    s.shard = shard_of(t.shard)
    -- without trailing slashes: "results/" names its files results/journal.tsv
    s.out = type(t.out) == "string" and t.out:gsub("(.)/+$", "%1") or t.out
    s.resume = t.resume
    if s.resume and not s.out then fail("tournament: resume needs out = DIR (where the journal is)", 3) end
    if s.sprt and s.shard then fail("tournament: sprt cannot be combined with shards", 3) end
    if s.format == "knockout" and (s.sprt or s.shard) then
        fail("tournament: a knockout cannot be combined with sprt or shards (its later rounds wait for the earlier)", 3)
    end
    s.progress = t.progress
    s.allow_forfeits = t.allow_forfeits
    s.verbose = t.verbose
    s.rating_interval = int_opt(t, "rating_interval", 1, nil, nil)
    s.resume_command = t.resume_command
    s.quiet = t.quiet
    s.tc = private.timecontrol.of(t, "tournament: ") -- nil: untimed (scripts/lib/timecontrol.lua)
    s.slack = private.timecontrol.slack_of(t.slack, "tournament: ")
    return s
end

-- The number of games of a schedule of `total` games that shard {i, n}
-- (or the whole run) plays.
local function games_of_shard(total, shard)
    if not shard then return total end
    if total < shard.i then return 0 end
    return (total - shard.i) // shard.n + 1
end

-- A knockout's bracket as the results show it: {rounds = {{match, ...},
-- ...}, winner = name | nil}, each match {number, round, a, b (names, nil
-- for a bye or while undecided), points = {a's, b's}, games, winner,
-- by_seed (a tie after every tie-break)}.
local function knockout_summary(ko, players)
    local rounds = {}
    for m = 1, ko.final do
        local match = ko.matches[m]
        local ia, ib = ko.players(m)
        local w, by_seed = ko.winner(m)
        local pa, n = 0, 0
        for i = 1, ko.block do
            if match.result[i] then
                pa, n = pa + match.result[i], n + 1
            end
        end
        rounds[match.round] = rounds[match.round] or {}
        local r = rounds[match.round]
        r[#r + 1] = {number = m, round = match.round, a = ia and players[ia].name or nil,
            b = ib and players[ib].name or nil, points = {pa, n - pa}, games = n,
            winner = w and players[w].name or nil, by_seed = by_seed or false, decided = ia ~= nil and w ~= nil}
    end
    local w = ko.winner(ko.final)
    return {rounds = rounds, winner = w and players[w].name or nil, tiebreak = ko.tiebreak}
end

-- ---------------------------------------------------------------- adjudication

-- Adjudication (--adjudicate, --max-moves): a game still going is ended
-- when the engine proves its result, in the position before each move
-- (the first one after the opening too):
--   - with at most SOLVE_EMPTY empty squares, by the exact solver
--     (mb.solve): a win for either side or a draw;
--   - else when the side to move has a victory by continuous fours
--     (mb.vcf, at most VCF_DEPTH fours): a win for it;
--   - with max_moves, a draw once the board holds that many stones (the
--     opening's included).
-- Both searches are deterministic (no time limit), so a journal's line
-- can be checked by running them again on its last position. The
-- journal's T adjudicate line holds the two constants.
local SOLVE_EMPTY, VCF_DEPTH = 12, 10
local ADJUDICATE_TEXT = ("solve<=%d vcf<=%d"):format(SOLVE_EMPTY, VCF_DEPTH)

-- adjudicate(game, s) -> result ("o", "x", "draw"), reason | nil: the
-- adjudication of the position of game under the settings s (s.adjudicate,
-- s.max_moves); the game is not changed.
local function adjudicate(game, s)
    if game.status ~= "playing" then return nil end
    if s.adjudicate then
        if game.width * game.height - game.move_count <= SOLVE_EMPTY then
            local value = mb.solve(game).value
            local result = value == "first player wins" and "o" or value == "second player wins" and "x" or "draw"
            return result, ("adjudicated: %s (solved)"):format(result == "draw" and "a draw" or result .. " wins")
        end
        local line = mb.vcf(game, {maxdepth = VCF_DEPTH})
        if line then
            local sq = {}
            for i, m in ipairs(line) do sq[i] = game:excel(m) end
            return game.turn, ("adjudicated: %s wins by VCF (%s)"):format(game.turn, table.concat(sq, " "))
        end
    end
    if s.max_moves and game.move_count >= s.max_moves then
        return "draw", ("adjudicated: a draw (the move limit of %d)"):format(s.max_moves)
    end
    return nil
end

-- The points (0, 0.5, 1) of a pairing's first player in a game with
-- result "o", "x" or "draw" where it had 〇 (colour 0) or × (colour 1).
local function first_points(result, colour)
    if result == "draw" then return 0.5 end
    return ((result == "o") == (colour == 0)) and 1 or 0
end

private.schedule = {knockout_summary = knockout_summary, adjudicate = adjudicate, ADJUDICATE_TEXT = ADJUDICATE_TEXT,
    first_points = first_points, pairings_of = pairings_of, locate = locate, read_openings = read_openings,
    knockout = knockout,
    sprt_of = sprt_of, shard_of = shard_of, settings_of = settings_of, games_of_shard = games_of_shard,
    OPENINGS_MAX = OPENINGS_MAX}
