-- scripts/lib/serve_tune.lua: the `GET tune` answer of `marubatsu serve
-- --tune DIR` (scripts/lib/serve.lua), split from it: a tune run followed
-- while it is written. Not run when the module opens: serve.lua runs it
-- with (mb, host, lib), lib = {read_file, reply, fail, report} (serve.lua's
-- own), and gets
--
--   serve_tune.check(dir)   at start: an error (level 0) unless DIR holds a
--                           tune journal
--   serve_tune.reply(dir) -> status, content_type, body   GET tune
--
-- The state of the `marubatsu tune` run writing to DIR (its files:
-- docs/tune.md), read afresh at each request as the results are (read_file:
-- regular files only, never through a link, never waiting on a FIFO; a
-- journal over report.MAX_JOURNAL is read up to there). A run in progress
-- is being written: only whole lines count (the last one may be cut
-- short), and summary.json and confirm/ appear late.
--   tune.tsv             "# marubatsu tune journal 1", H lines (the settings;
--                        H param NAME START MIN MAX STEP DEFAULT TYPE), then
--                        I k wins losses draws signs theta... per iteration
--   tuned.txt            the tuned player spec
--   summary.json         written once the run is done
--   confirm/journal.tsv  the confirmation's tournament journal (SPRT)
local _, host, lib = ... -- (mb, host, lib)
local read_file, reply, fail, report = lib.read_file, lib.reply, lib.fail, lib.report
local array = report.array

local serve_tune = {}

local TUNE_MAGIC = "# marubatsu tune journal 1"
-- the history sent: at most TUNE_POINTS iterations, and TUNE_VALUES values
-- of theta in all (every stride-th iteration, and the last one)
local TUNE_POINTS, TUNE_VALUES = 1000, 100000
local SPEC_MAX = 64 * 1024 -- bytes of tuned.txt read

-- At the server's start: DIR holds a tune journal, else an error (level 0).
function serve_tune.check(dir)
    local text, err = read_file(dir .. "/tune.tsv", #TUNE_MAGIC + 1)
    if not text then error(("--tune %s: no tune run there (%s)"):format(dir, err), 0) end
    if text ~= TUNE_MAGIC .. "\n" then
        error(("--tune %s: %s/tune.tsv is not a tune journal (its first line is not '%s')"):format(dir, dir,
            TUNE_MAGIC), 0)
    end
end

-- A followed file: a journal that only grows (or is rewritten whole, as
-- --resume does), parsed a whole line at a time into a state kept between
-- requests, so that a poll parses only the lines added since the last one.
-- follow(f, path, fresh, parse) -> f.state, size, cut | nil (no such file)
-- | false, message. f = {} at first; fresh() makes an empty state;
-- parse(state, text, from) parses the whole lines of text from byte `from`
-- (true | nil, message). When the file no longer begins with the text
-- parsed, the state is made afresh; after an error it is too, once the
-- file has changed (until then, the same error).
local function follow(f, path, fresh, parse)
    local text, size, code = read_file(path, report.MAX_JOURNAL)
    if not text then
        if code == 2 then return nil end -- ENOENT
        return false, size
    end
    if f.bad_text == text then return false, f.bad end -- refused as it stands
    local last = text:match("^.*()\n") or 0 -- the end of the whole lines
    local state, from = f.state, 1
    if state and last >= #f.text and text:find(f.text, 1, true) == 1 then
        from = #f.text + 1
    else
        state = fresh()
    end
    f.state, f.text = nil, nil
    local ok, err = parse(state, text, from) -- (a line cut short is no whole line)
    if not ok then
        f.bad, f.bad_text = err, text
        return false, err
    end
    f.state, f.text, f.bad, f.bad_text = state, last == #text and text or text:sub(1, last), nil, nil
    return state, size, size > report.MAX_JOURNAL
end

local function tab_fields(line)
    local f = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field end
    return f
end

-- a value as the AI plays it: in [min, max], an integer rounded half away
-- from zero (as scripts/lib/tune.lua plays it)
local function played(p, v)
    v = math.min(p.max, math.max(p.min, v))
    if p.type == "integer" then
        v = v >= 0 and math.floor(v + 0.5) or -math.floor(-v + 0.5)
        return math.tointeger(v) or v
    end
    return v
end

-- tune.tsv's state: n (lines), settings, params, planned, stride, done
-- (iterations), games, kept (every stride-th iteration), last (the last one)
local tune_file = {}
local function tune_fresh() return {n = 0, settings = {}, params = {}, done = 0, games = 0, kept = {}} end

local function tune_parser(path)
    return function(p, text, from)
        local settings, params = p.settings, p.params
        local function bad(why) return nil, ("%s:%d: %s"):format(path, p.n, why) end
        local function theta_of(rest)
            local theta = array()
            for v in (rest .. "\t"):gmatch("([^\t]*)\t") do
                theta[#theta + 1] = tonumber(v)
                if not theta[#theta] then return nil end
            end
            return #theta == #params and theta or nil
        end
        for line in text:gmatch("([^\n]*)\n", from) do
            p.n = p.n + 1
            local kind = line:sub(1, 2)
            if p.n == 1 then
                if line ~= TUNE_MAGIC then
                    return nil, ("%s is not a tune journal (its first line is not '%s')"):format(path, TUNE_MAGIC)
                end
            elseif kind == "I\t" then
                if not p.stride then
                    local planned = math.tointeger(tonumber(settings.iterations))
                    if not planned or planned < 1 or #params == 0 then
                        return bad("an iteration before the header's parameters and iterations")
                    end
                    local points = math.max(1, math.min(TUNE_POINTS, TUNE_VALUES // #params))
                    p.planned, p.stride = planned, (planned + points - 1) // points
                end
                local k, w, l, d, signs, rest = line:match("^I\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t([-+]*)\t(.*)$")
                k, w, l, d = math.tointeger(tonumber(k)), math.tointeger(tonumber(w)),
                    math.tointeger(tonumber(l)), math.tointeger(tonumber(d))
                if k ~= p.done + 1 or not (w and l and d) or #signs ~= #params then
                    return bad(("not the line of iteration %d"):format(p.done + 1))
                end
                if k > p.planned then return bad(("iteration %d of the %d planned"):format(k, p.planned)) end
                p.done, p.games = k, p.games + w + l + d
                -- the values of the iterations sent only (and the last one's, below)
                if k % p.stride == 0 then
                    local theta = theta_of(rest)
                    if not theta then return bad("not a value for each parameter") end
                    p.last = {k = k, w = w, l = l, d = d, theta = theta}
                    p.kept[#p.kept + 1] = p.last
                else
                    p.last = line -- made a table below, if it stays the last
                end
            elseif kind == "H\t" then
                if p.done > 0 then return bad("a header line after the iterations") end
                local f = tab_fields(line)
                if f[2] == "param" then
                    local q = {name = f[3], start = tonumber(f[4]), min = tonumber(f[5]), max = tonumber(f[6]),
                        step = tonumber(f[7]), default = tonumber(f[8]), type = f[9]}
                    if #f ~= 9 or not (q.start and q.min and q.max and q.step and q.default)
                        or (q.type ~= "integer" and q.type ~= "real") then
                        return bad("not H param NAME START MIN MAX STEP DEFAULT integer|real")
                    end
                    if q.type == "integer" then
                        for _, key in ipairs{"start", "min", "max", "step", "default"} do
                            q[key] = math.tointeger(q[key]) or q[key]
                        end
                    end
                    params[#params + 1] = q
                elseif f[2] then
                    settings[f[2]] = table.concat(f, "\t", 3)
                end
            else
                return bad("neither a header (H) nor an iteration (I) line")
            end
        end
        if p.n == 0 then return nil, ("%s is not a tune journal (it has no whole line)"):format(path) end
        if type(p.last) == "string" then
            local k, w, l, d, rest = p.last:match("^I\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t[-+]*\t(.*)$")
            local theta = theta_of(rest)
            if not theta then return bad("not a value for each parameter") end
            p.last = {k = math.tointeger(tonumber(k)), w = math.tointeger(tonumber(w)),
                l = math.tointeger(tonumber(l)), d = math.tointeger(tonumber(d)), theta = theta}
        end
        return true
    end
end

-- The confirmation's journal: its first player's points by game (2 a win,
-- 1 a draw), as the tournament counts them for its SPRT
-- (scripts/lib/tournament.lua): the pairs of games 2q-1, 2q in order until
-- the SPRT decides, the results then counting the games up to that pair
-- (results.lua); until then, every game so far. Both tallies grow with the
-- lines: all = over every game, walk = over the pairs in order.
local confirm_file = {}
local function tally() return {w = 0, l = 0, d = 0, penta = {0, 0, 0, 0, 0}} end
local function confirm_fresh() return {n = 0, points = {}, players = 0, all = tally(), walk = tally(), q = 1} end

local function count(t, pts)
    if pts == 2 then t.w = t.w + 1 elseif pts == 0 then t.l = t.l + 1 else t.d = t.d + 1 end
end

local function sprt_of(c, penta)
    if not c.sprt then return nil end
    local s = c.sprt
    local ok, r = pcall(host.rating.sprt, {elo0 = s.elo0, elo1 = s.elo1, alpha = s.alpha, beta = s.beta, pairs = penta})
    return ok and r or nil
end

local function confirm_parser(path)
    return function(c, text, from)
        for line in text:gmatch("([^\n]*)\n", from) do
            c.n = c.n + 1
            local kind = line:sub(1, 2)
            if kind == "G\t" then
                local g, why, _, o, _, result = host.journal_fields(line)
                if not g then return nil, ("%s:%d: %s"):format(path, c.n, tostring(why)) end
                if c.points[g] == nil then -- a game's first line counts
                    local pts = result == "draw" and 1 or ((result == "o") == (o == c.first)) and 2 or 0
                    c.points[g] = pts
                    count(c.all, pts)
                    local mate = c.points[g % 2 == 0 and g - 1 or g + 1]
                    if mate then c.all.penta[pts + mate + 1] = c.all.penta[pts + mate + 1] + 1 end
                end
            elseif kind == "T\t" then
                local f = tab_fields(line)
                if f[2] == "sprt" then
                    c.sprt = {text = f[3]}
                    for k, v in (f[3] or ""):gmatch("(%w+)=([^,]*)") do c.sprt[k] = tonumber(v) end
                elseif f[2] == "games" then
                    c.per_pairing = math.tointeger(tonumber(f[3]))
                end
            elseif kind == "P\t" then
                local f = tab_fields(line)
                c.players = c.players + 1
                if f[2] == "1" then c.first = f[3] end
            end
        end
        -- the pairs in order, up to the decision
        local points, walk = c.points, c.walk
        while not c.cutoff and points[2 * c.q - 1] and points[2 * c.q] do
            local a, b = points[2 * c.q - 1], points[2 * c.q]
            count(walk, a)
            count(walk, b)
            walk.penta[a + b + 1] = walk.penta[a + b + 1] + 1
            local r = sprt_of(c, walk.penta)
            if r and r.decision ~= "continue" then c.cutoff = 2 * c.q end
            c.q = c.q + 1
        end
        return true
    end
end

-- -> the confirmation's state | nil (not started) | false, message
local function confirm_state(dir)
    local path = dir .. "/confirm/journal.tsv"
    local c, size, cut = follow(confirm_file, path, confirm_fresh, confirm_parser(path))
    if not c then return c, size end
    local t = c.cutoff and c.walk or c.all
    local games = t.w + t.l + t.d
    -- two players: one pairing
    local out = {games = games, games_max = c.players == 2 and c.per_pairing or nil, player = c.first,
        win = t.w, loss = t.l, draw = t.d, pentanomial = array(table.move(t.penta, 1, 5, 1, {})),
        journal_bytes = size, cut = cut}
    if games > 0 then
        local tri = host.rating.trinomial(t.w, t.l, t.d)
        out.elo, out.elo_low, out.elo_high = tri.elo, tri.elo_lo, tri.elo_hi
    end
    local r = sprt_of(c, t.penta)
    if r then
        out.sprt, out.llr, out.lower, out.upper, out.decision = c.sprt.text, r.llr, r.lower, r.upper, r.decision
    end
    return out
end

-- GET tune -> status, JSON
function serve_tune.reply(dir)
    local path = dir .. "/tune.tsv"
    local p, size, cut = follow(tune_file, path, tune_fresh, tune_parser(path))
    if p == nil then return fail(404, ("no tune run in %s (no tune.tsv there)"):format(dir)) end
    if not p then return fail(404, ("cannot read the tune journal of %s (%s)"):format(dir, size)) end
    local history = array(table.move(p.kept, 1, #p.kept, 1, {}))
    if p.last and p.last ~= p.kept[#p.kept] then history[#history + 1] = p.last end
    for i, q in ipairs(p.params) do
        q.value = p.last and p.last.theta[i] or q.start
        q.current = played(q, q.value)
    end
    local st = {dir = dir, player = p.settings.player, settings = p.settings, params = array(p.params),
        iterations_done = p.done, iterations_planned = p.planned or math.tointeger(tonumber(p.settings.iterations)),
        games = p.games, history = history, stride = p.stride or 1, journal_bytes = size, cut = cut}
    local spec, serr, scode = read_file(dir .. "/tuned.txt", SPEC_MAX)
    if not spec and scode ~= 2 then return fail(404, ("cannot read the tuned values of %s (%s)"):format(dir, serr)) end
    st.spec = spec and spec:match("^([^\n]*)\n")
    local summary, merr, mcode = read_file(dir .. "/summary.json", 0)
    if not summary and mcode ~= 2 then return fail(404, ("cannot read the summary of %s (%s)"):format(dir, merr)) end
    st.done = summary ~= nil
    local c, cerr = confirm_state(dir)
    if c == false then return fail(404, ("cannot read the confirmation of %s (%s)"):format(dir, cerr)) end
    st.confirm = c
    return reply(200, st)
end

return serve_tune
