-- scripts/lib/tune.lua: `marubatsu tune`, self-play tuning of an AI's
-- declared parameters (mb.make_ai's tune field) by SPSA, with an SPRT
-- match of the result against the start to confirm it (host.tune,
-- host.tune_main, host.tune_list_main). Embedded; runs once with mb and
-- the library's private table. docs/tune.md is the user's guide.
--
-- SPSA (simultaneous perturbation stochastic approximation). For
-- iterations k = 1 .. N, every tuned parameter i with step s_i:
--   c_k,i = c * s_i * N^gamma / k^gamma          (so c_N,i = c * s_i)
--   a_k,i = r * (c * s_i)^2 * (A + N)^alpha / (A + k)^alpha
--                                                (so a_N,i / c_N,i^2 = r)
-- Each iteration draws a sign d_i = +-1 per parameter, plays `pairs` game
-- pairs (each opening with both colours) between theta + c_k d (the player
-- "theta+") and theta - c_k d ("theta-"), and with R = (wins - losses of
-- theta+) / pairs moves theta_i by a_k,i / c_k,i * R * d_i, every value
-- kept inside [min, max] (integers rounded when played). The games are a
-- tournament's (scripts/lib/tournament.lua): openings, time controls,
-- adjudication, the sandbox and worker processes come from there.
--
-- Reproducible: iteration k's signs and its games' seeds come from the
-- seed and k alone, and the journal (tune.tsv) keeps theta after each
-- iteration at full precision, so a run resumed after a kill goes on from
-- the last whole iteration exactly as an uninterrupted one (when the games
-- do not depend on timing: fixed nodes or depth, --jobs 1 or not).
local mb, private = ...
local host = private.host

local fail = private.fail
-- a refusal of the options, the player or its parameters: exit status 2
local function usage(msg) error({exit = 2, message = msg}, 0) end
local files = private.files
local printable = files.printable
local R = private.results

local JOURNAL = "tune.tsv"
local MAGIC = "# marubatsu tune journal 1"

-- The SPSA constants and their defaults (docs/tune.md): r the gain at the
-- end in steps per unit of result, c the perturbation at the end in steps,
-- A the gain's stability constant (nil: a tenth of the iterations).
local SPSA_KEYS = {"r", "c", "A", "alpha", "gamma"}
local SPSA_DEFAULTS = {r = 0.2, c = 1, alpha = 0.602, gamma = 0.101}

-- ---------------------------------------------------------------- options

local function number_list(text, what)
    local out = {}
    if text == nil or text == "" then return out end
    if type(text) == "table" then
        for k, v in pairs(text) do
            if type(k) ~= "string" or type(v) ~= "number" then
                usage(("tune: %s: NAME = number expected"):format(what))
            end
            out[k] = v
        end
        return out
    end
    for item in tostring(text):gmatch("[^,]+") do
        local k, v = item:match("^%s*([%a_][%w_]*)%s*=%s*(.-)%s*$")
        local n = v and tonumber(v)
        if not k or not n or n ~= n or n == math.huge or n == -math.huge then
            usage(("tune: %s: '%s' is not NAME=NUMBER"):format(what, printable(item, 60)))
        end
        out[k] = n
    end
    return out
end

local function int_of(t, key, lo, hi, default)
    local v = t[key]
    if v == nil then return default end
    local n = math.tointeger(tonumber(v))
    if not n or n < lo or (hi and n > hi) then
        usage(("tune: %s must be an integer from %d%s, not '%s'"):format(key, lo, hi and (" to " .. hi) or " up",
            printable(tostring(v), 40)))
    end
    return n
end

local function spsa_of(t, iterations)
    local given = number_list(t.spsa, "spsa")
    local known = {}
    for _, k in ipairs(SPSA_KEYS) do known[k] = true end
    for k in pairs(given) do
        if not known[k] then
            usage(("tune: spsa: unknown constant '%s' (known: %s)"):format(k, table.concat(SPSA_KEYS, ", ")))
        end
    end
    local c = {}
    for _, k in ipairs(SPSA_KEYS) do c[k] = given[k] or SPSA_DEFAULTS[k] end
    c.A = c.A or iterations / 10
    if c.r <= 0 or c.c <= 0 then usage("tune: spsa: r and c must be above 0") end
    if c.A < 0 or c.alpha < 0 or c.gamma < 0 then usage("tune: spsa: A, alpha and gamma must be 0 or more") end
    return c
end

-- ---------------------------------------------------------------- the AI

-- The AI of spec (NAME or FILE, with fixed parameters NAME:key=value):
-- base, its fixed parameters and its declaration {NAME = {default, min,
-- max, step, integer}}. A script file is read in the sandbox (unless
-- sandbox is false), its declaration copied out.
local function declaration_of(spec, sandbox)
    local base, params = host.playerspec(spec)
    if not base then usage(("tune: bad player '%s': %s"):format(printable(spec, 80), params)) end
    local why = private.command.script_problem(base)
    if why then usage("tune: " .. why) end
    for k in pairs(params) do
        if private.player_options[k] then
            usage(("tune: '%s' is a tournament's player option; give the player its AI's parameters only"):format(k))
        end
    end
    local sandboxed = private.command.is_path(base) or not private.command.builtin(base)
    if sandbox == false then sandboxed = false end
    local decl
    if sandboxed then
        local player, msg = mb.sandbox.load(base)
        if not player then usage(("tune: %s: %s"):format(printable(base, 200), tostring(msg))) end
        local d, reason = player:tune()
        player:close()
        if not d then usage(("tune: %s: reading its tune declaration: %s"):format(printable(base, 200), reason)) end
        decl = d
    else
        local ok, ai = pcall(mb.ai, base)
        if not ok then usage("tune: " .. private.message(ai)) end
        decl = ai.tune or {}
    end
    return base, params, decl
end

-- The tuned parameters in order: names (all declared, sorted, or the list
-- given), each {name, default, min, max, step, integer, start}.
local function tuned_of(decl, names, fixed, start, scale, base)
    local list = {}
    if names == nil or names == "" then
        for name in pairs(decl) do list[#list + 1] = name end
        table.sort(list)
    else
        for name in tostring(names):gmatch("[^,%s]+") do list[#list + 1] = name end
    end
    local declared = {}
    for name in pairs(decl) do declared[#declared + 1] = name end
    table.sort(declared)
    if #declared == 0 then
        usage(("tune: %s declares no tunable parameters (mb.make_ai's tune field: docs/tune.md)"):format(base))
    end
    local out, seen = {}, {}
    for _, name in ipairs(list) do
        local d = decl[name]
        if not d then
            usage(("tune: %s has no tunable parameter '%s' (it has: %s)"):format(base, name,
                table.concat(declared, ", ")))
        end
        if seen[name] then usage(("tune: parameter '%s' given twice"):format(name)) end
        seen[name] = true
        local p = {name = name, default = d.default, min = d.min, max = d.max, step = d.step, integer = d.integer}
        local v = start[name] or fixed[name] or d.default * (scale or 1)
        if type(v) ~= "number" then usage(("tune: the start of '%s' must be a number"):format(name)) end
        p.start = math.min(p.max, math.max(p.min, v))
        out[#out + 1] = p
    end
    for name in pairs(start) do
        if not seen[name] then usage(("tune: --start names '%s', which is not tuned"):format(name)) end
    end
    return out
end

-- ---------------------------------------------------------------- numbers

local function clip(p, v) return math.min(p.max, math.max(p.min, v)) end

-- a value as played: an integer parameter rounded (half away from zero)
local function played(p, v)
    v = clip(p, v)
    if p.integer then
        local r = v >= 0 and math.floor(v + 0.5) or -math.floor(-v + 0.5)
        return math.tointeger(r) or r
    end
    return v
end

-- a value as people read it: integers plainly, reals with 6 digits
local function shown(p, v)
    local x = played(p, v)
    if math.type(x) == "integer" then return tostring(x) end
    return ("%.6g"):format(x)
end

-- a number exactly, as briefly as it goes: the journal reads back the same double
local function full(v)
    local text = ("%.15g"):format(v)
    if tonumber(text) ~= v then text = ("%.17g"):format(v) end
    return text
end

-- iteration k's perturbation and gain factor of parameter p
local function gains(s, p, k)
    local ce = s.spsa.c * p.step
    local ck = ce * (s.iterations / k) ^ s.spsa.gamma
    local ak = s.spsa.r * ce * ce * ((s.spsa.A + s.iterations) / (s.spsa.A + k)) ^ s.spsa.alpha
    return ck, ak / ck
end

-- iteration k's signs, from the seed and k alone
local function signs(s, k)
    local rng = mb.Random(host.tourney_seed(s.seed, "tune signs", k))
    local d = {}
    for i = 1, #s.tuned do d[i] = rng:getrandbits(1) == 1 and 1 or -1 end
    return d
end

-- the player spec text of values theta (fixed parameters first)
local function spec_text(s, theta)
    local items = {}
    for _, k in ipairs(s.fixed_keys) do
        local v = s.fixed[k]
        if not s.tuned_set[k] then items[#items + 1] = k .. "=" .. tostring(v) end
    end
    for i, p in ipairs(s.tuned) do items[#items + 1] = p.name .. "=" .. shown(p, theta[i]) end
    return s.base .. ":" .. table.concat(items, ",")
end

local function params_of(s, theta)
    local t = {}
    for k, v in pairs(s.fixed) do t[k] = v end
    for i, p in ipairs(s.tuned) do t[p.name] = played(p, theta[i]) end
    return t
end

-- ---------------------------------------------------------------- settings

local BOARD_KEYS = {"width", "height", "k", "rule", "board", "count_linemark"}
local GAME_KEYS = {"openings", "openings_plies", "move_time", "game_time", "max_moves", "adjudicate", "slack"}

local function settings_of(t)
    if type(t) ~= "table" then usage("bad argument #1 to 'tune' (table expected)") end
    local known = {player = 1, params = 1, start = 1, start_scale = 1, iterations = 1, pairs = 1, seed = 1, jobs = 1,
        spsa = 1, out = 1, resume = 1, max_time = 1, confirm_games = 1, sprt = 1, sandbox = 1, limits = 1,
        quiet = 1, progress = 1, resume_command = 1, slurm = 1, sbatch = 1, program = 1}
    for _, k in ipairs(BOARD_KEYS) do known[k] = 1 end
    for _, k in ipairs(GAME_KEYS) do known[k] = 1 end
    for k in pairs(t) do
        if not known[k] then usage(("tune: unknown option '%s'"):format(tostring(k))) end
    end
    if type(t.player) ~= "string" then usage("tune: player = NAME or FILE expected") end
    local s = {}
    s.iterations = int_of(t, "iterations", 1, 10000000, 100)
    s.pairs = int_of(t, "pairs", 1, 1000000, 8)
    s.seed = int_of(t, "seed", math.mininteger, nil, 1)
    s.jobs = int_of(t, "jobs", 1, 256, host.cpu_count())
    s.confirm_games = int_of(t, "confirm_games", 0, 1000000000, 2000)
    if s.confirm_games % 2 == 1 then usage("tune: confirm_games must be even (pairs of games)") end
    s.sprt = t.sprt or "elo0=0,elo1=10,alpha=0.05,beta=0.05"
    s.spsa = spsa_of(t, s.iterations)
    s.max_time = t.max_time and tonumber(t.max_time)
    if t.max_time and not (s.max_time and s.max_time > 0) then usage("tune: max_time must be seconds above 0") end
    s.out, s.resume, s.quiet = t.out, t.resume, t.quiet
    if type(s.out) == "string" then s.out = s.out:gsub("(.)/+$", "%1") end
    s.slurm = t.slurm and int_of(t, "slurm", 1, 100000)
    s.sbatch, s.program = t.sbatch, t.program or "marubatsu"
    if s.slurm and not s.out then usage("tune: slurm needs out = DIR (on a disk the cluster's nodes share)") end
    if s.resume and not s.out then usage("tune: resume needs out = DIR (where the journal is)") end
    s.sandbox, s.limits = t.sandbox, t.limits
    s.progress = t.progress
    s.resume_command = t.resume_command
    s.base, s.fixed, s.decl = declaration_of(t.player, t.sandbox)
    s.fixed_keys = {}
    for k in pairs(s.fixed) do s.fixed_keys[#s.fixed_keys + 1] = k end
    table.sort(s.fixed_keys)
    local scale = t.start_scale and tonumber(t.start_scale)
    if t.start_scale and not scale then usage("tune: start_scale must be a number") end
    s.tuned = tuned_of(s.decl, t.params, s.fixed, number_list(t.start, "start"), scale, s.base)
    s.tuned_set, s.names = {}, {}
    for i, p in ipairs(s.tuned) do s.tuned_set[p.name], s.names[i] = true, p.name end
    s.game = {}
    for _, k in ipairs(BOARD_KEYS) do s.game[k] = t[k] end
    for _, k in ipairs{"width", "height", "k"} do s.game[k] = t[k] and int_of(t, k, 1, 32) end
    for _, k in ipairs(GAME_KEYS) do s.game[k] = t[k] end
    -- the openings, shuffled by each iteration's seed: every batch its own
    if t.openings then s.game.openings_order = "random" end
    local ok, probe = pcall(mb.Marubatsu, {width = s.game.width, height = s.game.height, k = s.game.k,
        rule = s.game.rule})
    if not ok then usage("tune: " .. tostring(probe)) end
    s.shape = probe
    return s
end

-- The journal's header: everything an iteration's result depends on.
local function header_lines(s)
    local h = {MAGIC}
    local function add(k, v) h[#h + 1] = ("H\t%s\t%s"):format(k, v) end
    add("player", s.base .. (next(s.fixed) and (":" .. spec_text(s, {}):sub(#s.base + 2)) or ""))
    for _, p in ipairs(s.tuned) do
        add("param", ("%s\t%s\t%s\t%s\t%s\t%s\t%s"):format(p.name, full(p.start), full(p.min), full(p.max),
            full(p.step), full(p.default), p.integer and "integer" or "real"))
    end
    add("iterations", s.iterations)
    add("pairs", s.pairs)
    add("seed", s.seed)
    local c = {}
    for _, k in ipairs(SPSA_KEYS) do c[#c + 1] = k .. "=" .. full(s.spsa[k]) end
    add("spsa", table.concat(c, ","))
    add("board", ("%dx%d k=%d %s"):format(s.shape.width, s.shape.height, s.shape.k, s.shape.rule))
    for _, k in ipairs(GAME_KEYS) do
        if s.game[k] ~= nil then add(k, tostring(s.game[k])) end
    end
    if s.sandbox == false then add("sandbox", "off") end
    return h
end

-- ---------------------------------------------------------------- journal

-- The iterations of the journal at path: {k = {w, l, d, theta}}; nil when
-- there is none. A journal of other settings is refused, naming the line.
local function read_journal(path, s)
    local f = io.open(path, "rb")
    if not f then return nil end
    local text = f:read("a")
    f:close()
    if not s.resume then
        fail(("%s exists: continue it with --resume or choose another --out directory"):format(path), 0)
    end
    local header = header_lines(s)
    local lines, complete = {}, text:sub(-1) == "\n"
    for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
    if not complete and #lines > 0 then lines[#lines] = nil end -- a line cut short: that iteration again
    for i, want in ipairs(header) do
        if lines[i] ~= want then
            fail(("%s: the journal is of another tuning run (line %d is\n  %s\nbut this run has\n  %s)"):format(path, i,
                printable((lines[i] or "(none)"):gsub("\t", " "), 300), printable(want:gsub("\t", " "), 300)), 0)
        end
    end
    local its = {}
    for i = #header + 1, #lines do
        local f1 = {}
        for field in (lines[i] .. "\t"):gmatch("([^\t]*)\t") do f1[#f1 + 1] = field end
        local k = math.tointeger(tonumber(f1[2]))
        if f1[1] ~= "I" or k ~= #its + 1 or #f1 ~= 6 + #s.tuned then
            fail(("%s:%d: not the line of iteration %d"):format(path, i, #its + 1), 0)
        end
        local theta = {}
        for j = 1, #s.tuned do
            theta[j] = tonumber(f1[6 + j])
            if not theta[j] then fail(("%s:%d: a bad value"):format(path, i), 0) end
        end
        its[k] = {w = tonumber(f1[3]), l = tonumber(f1[4]), d = tonumber(f1[5]), theta = theta}
    end
    local keep = table.concat(lines, "\n", 1, #header + #its) .. "\n"
    if keep ~= text then files.write_file(path, keep) end
    return its
end

local function iteration_line(k, w, l, d, d_signs, theta)
    local sg, th = {}, {}
    for i, x in ipairs(d_signs) do sg[i] = x > 0 and "+" or "-" end
    for i, v in ipairs(theta) do th[i] = full(v) end
    return ("I\t%d\t%d\t%d\t%d\t%s\t%s\n"):format(k, w, l, d, table.concat(sg), table.concat(th, "\t"))
end

-- ---------------------------------------------------------------- outputs

local function csv_text(s, history)
    local out = {"iteration,games,wins,losses,draws"}
    for _, p in ipairs(s.tuned) do out[1] = out[1] .. "," .. p.name end
    local start = {"0,0,0,0,0"}
    for _, p in ipairs(s.tuned) do start[#start + 1] = full(p.start) end
    out[2] = table.concat(start, ",")
    local games = 0
    for k, it in ipairs(history) do
        games = games + it.w + it.l + it.d
        local row = {k, games, it.w, it.l, it.d}
        for _, v in ipairs(it.theta) do row[#row + 1] = full(v) end
        out[#out + 1] = table.concat(row, ",")
    end
    return table.concat(out, "\n") .. "\n"
end

local function esc(text) return (text:gsub("[&<>\"]",
    {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;"})) end

-- An SVG of every parameter's trajectory, one panel each: theta over the
-- iterations, the start dashed, the declared range's ends as the scale.
local function svg_text(s, history)
    local W, H, left, gap = 640, 110, 150, 24
    local plotw, ploth = W - left - 70, H - gap - 14
    local n = s.iterations
    local out = {('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        .. 'font-family="sans-serif" font-size="12">')
        :format(W, #s.tuned * H + 30),
        ('<text x="%d" y="16" font-weight="bold">%s: SPSA, %d of %d iterations</text>'):format(left, esc(s.base),
            #history, n)}
    for i, p in ipairs(s.tuned) do
        local top = 30 + (i - 1) * H
        local lo, hi = p.min, p.max
        local vals = {p.start}
        for _, it in ipairs(history) do vals[#vals + 1] = it.theta[i] end
        -- zoom on the trajectory when the range is much wider
        local vmin, vmax = math.huge, -math.huge
        for _, v in ipairs(vals) do vmin, vmax = math.min(vmin, v), math.max(vmax, v) end
        local pad = math.max((vmax - vmin) * 0.2, p.step * 2)
        lo, hi = math.max(lo, vmin - pad), math.min(hi, vmax + pad)
        if hi <= lo then hi = lo + 1 end
        local function y(v) return top + ploth - (v - lo) / (hi - lo) * ploth end
        local function x(k) return left + k / n * plotw end
        out[#out + 1] = ('<text x="%d" y="%.1f" text-anchor="end">%s</text>'):format(left - 40, top + ploth / 2 + 4,
            esc(p.name))
        out[#out + 1] = ('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>'):format(left, top,
            plotw, ploth)
        out[#out + 1] = ('<text x="%d" y="%.1f" text-anchor="end" fill="#666">%s</text>'):format(left - 4, top + 10,
            esc(("%.4g"):format(hi)))
        out[#out + 1] = ('<text x="%d" y="%.1f" text-anchor="end" fill="#666">%s</text>'):format(left - 4, top + ploth,
            esc(("%.4g"):format(lo)))
        out[#out + 1] = ('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#aaa" stroke-dasharray="4 3"/>')
            :format(left, left + plotw, y(p.start), y(p.start))
        local pts = {}
        for k, v in ipairs(vals) do pts[k] = ("%.1f,%.1f"):format(x(k - 1), y(v)) end
        out[#out + 1] = ('<polyline fill="none" stroke="#1f5fbf" stroke-width="1.5" points="%s"/>'):format(
            table.concat(pts, " "))
        out[#out + 1] = ('<text x="%d" y="%.1f">%s</text>'):format(left + plotw + 6, y(vals[#vals]) + 4,
            esc(shown(p, vals[#vals])))
    end
    out[#out + 1] = ('<text x="%d" y="%d" fill="#666">iteration 0 .. %d</text>'):format(left, #s.tuned * H + 24, n)
    out[#out + 1] = "</svg>\n"
    return table.concat(out, "\n")
end

local function lua_table_text(s, theta)
    local out = {"return {"}
    for i, p in ipairs(s.tuned) do out[#out + 1] = ("    %s = %s,"):format(p.name, shown(p, theta[i])) end
    out[#out + 1] = "}\n"
    return table.concat(out, "\n")
end

local function write_outputs(s, history, theta)
    if not s.out then return end
    local d = s.out .. "/"
    files.write_file(d .. "tune.csv", csv_text(s, history))
    files.write_file(d .. "tune.svg", svg_text(s, history))
    files.write_file(d .. "tuned.txt", spec_text(s, theta) .. "\n")
    files.write_file(d .. "tuned.lua", lua_table_text(s, theta))
end

-- ---------------------------------------------------------------- games

local play_on_slurm -- below: a batch as a Slurm job array

-- The tournament options every batch shares.
local function tournament_options(s, players, games, seed)
    local t = {players = players, games = games, seed = seed, jobs = s.jobs, quiet = true, progress = "none",
        sandbox = s.sandbox, limits = s.limits}
    for k, v in pairs(s.game) do t[k] = v end
    return t
end

local function score_of(res, name)
    for _, r in ipairs(res.ranking) do
        if r.name == name then return r.w, r.l, r.d end
    end
    error("tune: no result for " .. name)
end

-- ---------------------------------------------------------------- Slurm

-- A word as the shell reads it back.
local function shell_word(w)
    w = tostring(w)
    if w:match("^[%w_./:=,+@%%-]+$") then return w end
    return "'" .. w:gsub("'", "'\\''") .. "'"
end

-- A number as a spec's value that reads back as the same number.
local function value_text(v)
    if math.type(v) == "integer" then return tostring(v) end
    if type(v) == "number" then return full(v) end
    return tostring(v)
end

-- A player table {ai, params, name} as a command line's player spec.
local function spec_word(p)
    local keys = {}
    for k in pairs(p.params) do keys[#keys + 1] = k end
    table.sort(keys)
    local items = {}
    for _, k in ipairs(keys) do items[#items + 1] = k .. "=" .. value_text(p.params[k]) end
    items[#items + 1] = "name=" .. p.name
    return p.ai .. ":" .. table.concat(items, ",")
end

-- The `marubatsu tournament` words of a batch: the players and every
-- option tournament_options gives host.tournament.
local function tournament_words(s, players, games, seed)
    local w = {}
    for _, p in ipairs(players) do w[#w + 1] = spec_word(p) end
    local function add(...) for _, x in ipairs{...} do w[#w + 1] = tostring(x) end end
    add("--games", games, "--seed", seed)
    local g = s.game
    add("--width", s.shape.width, "--height", s.shape.height, "--k", s.shape.k)
    if s.shape.rule ~= "freestyle" then add("--rule", s.shape.rule) end
    if g.board then add("--board", g.board) end
    if g.count_linemark then add("--count-linemark") end
    if g.openings then add("--openings", g.openings, "--openings-order", "random") end
    if g.openings_plies then add("--openings-plies", g.openings_plies) end
    if g.move_time then add("--move-time", g.move_time) end
    if g.game_time then add("--game-time", g.game_time) end
    if g.max_moves then add("--max-moves", g.max_moves) end
    if g.adjudicate then add("--adjudicate") end
    if g.slack then add("--slack", g.slack) end
    if s.sandbox == false then add("--no-sandbox") end
    for _, k in ipairs{"time", "instructions", "memory"} do
        local v = s.limits and s.limits[k]
        if v ~= nil then add("--" .. k, v == false and 0 or v) end
    end
    return w
end

-- The job script of the arrays: task I plays shard I/N of a batch into
-- DIR/shardI (with --resume: a task run again goes on).
local function job_script(s)
    return table.concat({"#!/bin/sh",
        "# written by marubatsu tune: one shard of an iteration's games per task",
        "# of a Slurm job array; arguments: DIR, then the tournament's players and options",
        "set -eu", "d=$1", "shift",
        "exec " .. shell_word(s.program) .. ' tournament "$@" --jobs "${SLURM_CPUS_PER_TASK:-1}" --progress none \\',
        '    --quiet --resume --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" '
            .. '--out "$d/shard$SLURM_ARRAY_TASK_ID"',
        ""}, "\n")
end

-- The last lines of a file (for an error message).
local function tail_of(path, n)
    local f = io.open(path, "rb")
    if not f then return "" end
    local text = f:read(65536) or ""
    f:close()
    local lines = {}
    for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
    return table.concat(lines, "\n", math.max(1, #lines - n + 1))
end

-- Play a batch as a Slurm job array of s.slurm tasks (sbatch --wait), its
-- shards merged: -> the merged results (host.tournament_merge).
play_on_slurm = function(s, k, players, games, seed)
    local root = s.out .. "/slurm"
    R.ensure_dir(root)
    local script = root .. "/job.sh"
    files.write_file(script, job_script(s))
    local dir = ("%s/iteration%d"):format(root, k)
    R.ensure_dir(dir)
    local words = {"sbatch", "--wait", "--quiet", "--array=1-" .. s.slurm, "--output=" .. dir .. "/shard%a.log"}
    for w in (s.sbatch or ""):gmatch("%S+") do words[#words + 1] = w end
    words[#words + 1] = script
    words[#words + 1] = dir
    for _, w in ipairs(tournament_words(s, players, games, seed)) do words[#words + 1] = w end
    local quoted = {}
    for i, w in ipairs(words) do quoted[i] = shell_word(w) end
    local ok, how, code = os.execute(table.concat(quoted, " ") .. " </dev/null")
    if private.interrupted() then error("interrupted", 0) end
    local dirs = {}
    for i = 1, s.slurm do dirs[i] = dir .. "/shard" .. i end
    if not ok then
        local logs = {}
        for i = 1, s.slurm do
            local t = tail_of(dir .. "/shard" .. i .. ".log", 3)
            if t ~= "" then logs[#logs + 1] = ("  shard%d.log: %s"):format(i, t:gsub("\n", "\n    ")) end
        end
        fail(("iteration %d: the Slurm array failed (sbatch %s %s)%s"):format(k, tostring(how), tostring(code),
            #logs > 0 and (":\n" .. table.concat(logs, "\n")) or ""), 0)
    end
    local res = host.tournament_merge{dirs = dirs, quiet = true}
    if res.games ~= games then
        fail(("iteration %d: the Slurm array's shards hold %d of its %d games"):format(k, res.games, games), 0)
    end
    return res
end

-- Play iteration k from theta: -> wins, losses, draws of theta+.
local function play_iteration(s, k, theta, d)
    local plus, minus = {}, {}
    for i, p in ipairs(s.tuned) do
        local ck = gains(s, p, k)
        plus[i] = theta[i] + ck * d[i]
        minus[i] = theta[i] - ck * d[i]
    end
    local players = {{ai = s.base, params = params_of(s, plus), name = "theta+"},
        {ai = s.base, params = params_of(s, minus), name = "theta-"}}
    local seed = host.tourney_seed(s.seed, "tune games", k)
    if s.slurm then return score_of(play_on_slurm(s, k, players, 2 * s.pairs, seed), "theta+") end
    local res = host.tournament(tournament_options(s, players, 2 * s.pairs, seed))
    return score_of(res, "theta+")
end

local function step_theta(s, k, theta, d, w, l)
    local result = (w - l) / s.pairs
    local out = {}
    for i, p in ipairs(s.tuned) do
        local _, gain = gains(s, p, k)
        out[i] = clip(p, theta[i] + gain * result * d[i])
    end
    return out
end

-- ---------------------------------------------------------------- the run

local function theta_text(s, theta)
    local items = {}
    for i, p in ipairs(s.tuned) do items[i] = p.name .. "=" .. shown(p, theta[i]) end
    return table.concat(items, " ")
end

-- The confirmation: an SPRT match, the tuned values against the start.
local function confirm(s, theta)
    local start = {}
    for i, p in ipairs(s.tuned) do start[i] = p.start end
    local players = {{ai = s.base, params = params_of(s, theta), name = "tuned"},
        {ai = s.base, params = params_of(s, start), name = "start"}}
    local t = tournament_options(s, players, s.confirm_games, s.seed)
    t.sprt = s.sprt
    t.quiet = s.quiet
    -- a bar on a terminal; in a log, the iterations' lines are enough
    t.progress = s.progress or (mb.isatty(2) and "bar" or "none")
    if s.out then
        t.out = s.out .. "/confirm"
        t.resume = true -- its own journal: a killed confirmation goes on
    end
    if not s.quiet then io.stdout:write("confirmation: tuned against start, SPRT ", s.sprt, "\n") end
    return host.tournament(t)
end

-- host.tune(t) -> {theta =, start =, spec =, iterations =, games =, confirm = results or nil}
function host.tune(t)
    local s = settings_of(t)
    local history, theta = {}, {}
    for i, p in ipairs(s.tuned) do theta[i] = p.start end
    local journal
    -- one run writes --out at a time: locked until this function ends
    if s.out then R.ensure_dir(s.out) end
    local lock <close> = s.out and R.lock_out(s.out, s.quiet) or nil
    if s.out then
        local path = s.out .. "/" .. JOURNAL
        local old = read_journal(path, s)
        if old then
            history = old
            if #old > 0 then theta = old[#old].theta end
        else
            files.write_file(path, table.concat(header_lines(s), "\n") .. "\n")
        end
        local err
        journal, err = host.open_file(path, "a")
        if not journal then fail("cannot write " .. err, 0) end
    end
    local quiet = s.quiet
    if not quiet then
        io.stderr:write(("tune %s: %d parameter%s, %d iterations of %d game pairs, start %s\n"):format(s.base,
            #s.tuned, #s.tuned == 1 and "" or "s", s.iterations, s.pairs, theta_text(s, theta)))
    end
    local t0 = mb.clock()
    local first = #history + 1
    local games = 0
    for _, it in ipairs(history) do games = games + it.w + it.l + it.d end
    local stopped_early = false
    local function iterate()
        for k = first, s.iterations do
            if s.max_time and mb.clock() - t0 >= s.max_time then
                stopped_early = true
                return
            end
            local d = signs(s, k)
            local w, l, dr = play_iteration(s, k, theta, d)
            theta = step_theta(s, k, theta, d, w, l)
            history[k] = {w = w, l = l, d = dr, theta = theta}
            games = games + w + l + dr
            if journal then
                files.write_checked(journal, s.out .. "/" .. JOURNAL, iteration_line(k, w, l, dr, d, theta))
                journal:flush()
            end
            write_outputs(s, history, theta)
            if not quiet then
                local el = mb.clock() - t0
                local eta = el / (k - first + 1) * (s.iterations - k)
                io.stderr:write(("iteration %d/%d: %s | theta+ %d-%d-%d | %d games | %s elapsed, %s left\n"):format(k,
                    s.iterations, theta_text(s, theta), w, l, dr, games, private.progress.duration(el),
                    private.progress.duration(eta)))
            end
        end
    end
    local ok, err = pcall(iterate)
    if not ok then
        if journal then pcall(journal.close, journal) end
        pcall(write_outputs, s, history, theta)
        if private.interrupted() or private.message(err):match("^interrupted") then
            error({exit = 130, message = ("interrupted after %d of %d iterations%s"):format(#history, s.iterations,
                s.out and "; the journal keeps them: run the same command with --resume to continue" or "")}, 0)
        end
        error(err, 0)
    end
    if journal then journal:close() end
    write_outputs(s, history, theta)
    local res = {theta = {}, start = {}, spec = spec_text(s, theta), iterations = #history, games = games}
    for i, p in ipairs(s.tuned) do
        res.theta[p.name] = played(p, theta[i])
        res.start[p.name] = played(p, p.start)
    end
    if not quiet then
        io.stdout:write(("tuned after %d iteration%s (%d games)%s:\n  %s\n%s"):format(#history,
            #history == 1 and "" or "s", games, stopped_early and ", stopped by --max-time" or "", res.spec,
            lua_table_text(s, theta)))
    end
    if s.confirm_games > 0 then res.confirm = confirm(s, theta) end
    if s.out then
        local c = res.confirm
        local sp = c and c.sprt
        local p1 = c and c.ranking and c.players[1]
        files.write_file(s.out .. "/summary.json", R.json_value(R.obj({"player", "iterations", "games", "start",
            "tuned", "spec", "confirm"}, {player = s.base, iterations = #history, games = games,
            start = R.obj(s.names or {}, res.start), tuned = R.obj(s.names or {}, res.theta), spec = res.spec,
            confirm = c and R.obj({"games", "elo", "elo_low", "elo_high", "llr", "decision"}, {games = c.games,
                elo = p1 and p1.perf and p1.perf.elo, elo_low = p1 and p1.perf and p1.perf.elo_lo,
                elo_high = p1 and p1.perf and p1.perf.elo_hi, llr = sp and sp.llr, decision = sp and sp.decision})}),
            "") .. "\n")
    end
    return res
end

-- ---------------------------------------------------------------- CLI

-- host.tune_list_main{player =, sandbox =} -> exit status: the declared
-- parameters, a line each.
function host.tune_list_main(t)
    local ok, err = pcall(function()
        local base, _, decl = declaration_of(t.player, t.sandbox ~= "0")
        local names = {}
        for name in pairs(decl) do names[#names + 1] = name end
        table.sort(names)
        if #names == 0 then
            io.stdout:write(("%s declares no tunable parameters\n"):format(base))
            return
        end
        local out = {("%-24s %10s %10s %10s %8s  %s"):format("parameter", "default", "min", "max", "step", "type")}
        for _, name in ipairs(names) do
            local d = decl[name]
            out[#out + 1] = ("%-24s %10s %10s %10s %8s  %s"):format(name, ("%.6g"):format(d.default),
                ("%.6g"):format(d.min), ("%.6g"):format(d.max), ("%.6g"):format(d.step), d.integer and "integer"
                    or "real")
        end
        files.write_checked(io.stdout, "standard output", table.concat(out, "\n") .. "\n")
    end)
    if ok then return 0 end
    local status = type(err) == "table" and err.exit or 1
    io.stderr:write(("marubatsu tune: %s\n"):format(private.message(type(err) == "table" and err.message or err)
        :gsub("^tune: ", "")))
    return status
end

-- host.tune_main{player =, ...} (strings, from `marubatsu tune`) -> exit status
function host.tune_main(t)
    local opts = {}
    for k, v in pairs(t) do opts[k] = v end
    opts.resume = t.resume == "1" or nil
    opts.quiet = t.quiet == "1" or nil
    opts.sandbox = t.sandbox ~= "0"
    opts.count_linemark = t.count_linemark == "1" or nil
    opts.adjudicate = t.adjudicate == "1" or nil
    opts.limits = private.command.limits(t)
    for _, k in ipairs{"time", "instructions", "memory"} do opts[k] = nil end
    if not private.command.check_time_control("tune", t) then return 2 end
    local ok, err = pcall(host.tune, opts)
    if ok then return 0 end
    local status = type(err) == "table" and err.exit or 1
    local msg = private.message(type(err) == "table" and err.message or err):gsub("^tune: ", "")
    io.stderr:write(("marubatsu tune: %s\n"):format(msg))
    if private.interrupted() then return 130 end
    return status
end
