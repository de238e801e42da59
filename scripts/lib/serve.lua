-- scripts/lib/serve.lua: the games, AIs and results of `marubatsu serve`
-- (the HTTP layer is src/cli/cmd_serve.c; the tree explorer is answered in
-- C). Not run when the module opens: src/lua/l_serve.c runs it with
-- (mb, config) and keeps the handler it returns:
--
--     handler(method, path, params, body) -> status, content_type, body [, filename]
--                                          | "job", message, limit, finish
--
-- path is below /api/, params the query parameters (strings), body the
-- request's body. Nothing from a request is run as Lua or used as a file
-- name: AIs are chosen by id from the catalogue made at start, the results
-- and tune directories are the ones given on the command line.
--
-- No AI runs in the server. A request that needs one (ai, hint) answers
-- with a job: the HTTP layer sends the message to a worker process
-- (src/cli/serve_pool.c), the same script opened with config.worker, where
--
--     compute(message) -> answer
--
-- runs the AI under its limit (a built-in one under host.timed_call, a
-- sandboxed one under its budgets); the worker is killed if it outlives
-- the limit by SERVE_SLACK. Then finish(outcome, text) makes the reply:
-- outcome "ok" with the answer, or "time" (killed), "crash" (the worker
-- died), "busy" (this client's calls are all running) or "stopping". The
-- server checks every answer as it would an AI's: a worker is not trusted.
--
-- Routes (JSON replies; errors are {"error": text} with a 4xx status):
--   GET  info                       version, the AI catalogue, limits
--   POST games?o=&x=&width=&height=&k=   a new game (201)
--   GET  games/ID                   its state
--   POST games/ID/move?move=B2      a person's move (the side to move must be human)
--   POST games/ID/ai                the side to move, an AI, plays (timed)
--   POST games/ID/undo | redo       back to / forward to the previous/next
--                                   position where a person is to move
--   POST games/ID/step?to=N         the position after N moves of the history
--   POST games/ID/players?o=&x=     change who plays
--   GET  games/ID/hint?ai=ID        the AI's analysis: ai(game, {analyze = true})
--                                   (a Gomocup brain's answers to ai and hint
--                                   carry messages = {ai =, lines =}: its
--                                   MESSAGE and DEBUG lines for that call)
--   GET  games/ID/record            the game record (play's save format)
--   POST games/ID/record            body: a game record; replaces the game
--   POST games/ID/close             forget the game
--   GET  results                    the --results directory's report data
--   GET  results/journal            its journal (text), whose G lines are the games
--   GET  tune                       the --tune directory's run: its parameters,
--                                   iterations and confirmation, as they stand
local mb, config = ...

local host = require "marubatsu.host" -- tournament journals, timed calls (the host library)
local report = load(mb.embedded("lib/report"), "=scripts/lib/report.lua", "t")(mb, host)
-- Gomocup brains (--ai brain:COMMAND): the manager side of the protocol
local brains
do
    local lib = {host = host}
    load(mb.embedded("lib/brains"), "=scripts/lib/brains.lua", "t")(mb, lib)
    brains = lib.brains
end
local array = report.array

local MAX_GAMES = config.max_games or 64
local IDLE = config.idle or 1800
local EMPTY = mb.NO_PARAMS
local BUILTIN_TIME = config.builtin_time or 5
local read_file = config.read_file

-- ---- The workers' messages --------------------------------------------------
-- A message is a list of values, each an integer ("i-12;"), a float
-- ("f0x1.8p+1;", "fI;", "f-I;", "fN;"), a string ("s5:hello"), true, false
-- or nil ("T", "F", "Z"). Any bytes travel; reading is strict.
local wire = {}

function wire.encode(...)
    local out = {}
    for i = 1, select("#", ...) do
        local v = select(i, ...)
        if math.type(v) == "integer" then
            out[i] = "i" .. v .. ";"
        elseif type(v) == "number" then
            out[i] = v ~= v and "fN;" or v == math.huge and "fI;" or v == -math.huge and "f-I;" or ("f%a;"):format(v)
        elseif type(v) == "string" then
            out[i] = "s" .. #v .. ":" .. v
        elseif type(v) == "boolean" then
            out[i] = v and "T" or "F"
        elseif v == nil then
            out[i] = "Z"
        else
            error("wire.encode: cannot send a " .. type(v), 2)
        end
    end
    return table.concat(out)
end

-- wire.decode(text, max) -> list (with n) | nil, message
function wire.decode(text, max)
    local list, pos, n = {}, 1, 0
    while pos <= #text do
        if n == max then return nil, "more than " .. max .. " values" end
        n = n + 1
        local c = text:sub(pos, pos)
        if c == "i" then
            local d, e = text:match("^i(%-?%d+);()", pos)
            local v = d and #d <= 20 and math.tointeger(tonumber(d))
            if not v then return nil, "a bad integer at byte " .. pos end
            list[n], pos = v, e
        elseif c == "f" then
            local d, e = text:match("^f([^;]*);()", pos)
            local v = d == "N" and 0 / 0 or d == "I" and math.huge or d == "-I" and -math.huge
                or d and d:match("^%-?0x%x+%.?%x*p[-+]%d+$") and tonumber(d)
            if type(v) ~= "number" then return nil, "a bad number at byte " .. pos end
            list[n], pos = v + 0.0, e
        elseif c == "s" then
            local d, e = text:match("^s(%d+):()", pos)
            local len = d and #d <= 9 and tonumber(d)
            if not len or e + len - 1 > #text then return nil, "a bad string at byte " .. pos end
            list[n], pos = text:sub(e, e + len - 1), e + len
        elseif c == "T" or c == "F" then
            list[n], pos = c == "T", pos + 1
        elseif c == "Z" then
            pos = pos + 1
        else
            return nil, "an unknown value at byte " .. pos
        end
    end
    list.n = n
    return list
end

-- ---- Replies ----------------------------------------------------------------
local function reply(status, value) return status, "application/json", report.json(value) .. "\n" end
local function fail(status, text) return reply(status, {error = text}) end

-- ---- The AI catalogue -------------------------------------------------------
-- Trusted: the built-in scripts. Sandboxed: names found only in -I
-- directories or MARUBATSU_PATH, and the --ai files.
-- (mb.loadscript's order: the built-in directory, the embedded copies, then
-- mb.path; checked without compiling the scripts, which would cost ~15 ms
-- at start)
local function builtin(name)
    if mb.embedded(name) then return true end
    local f = mb.scripts_dir and io.open(mb.scripts_dir .. "/" .. name .. ".lua", "rb")
    if f then f:close() end
    return f ~= nil
end

local catalogue, by_id = {}, {}
local function add_ai(id, spec, sandboxed)
    local base, n = id, 1
    while by_id[id] do
        n = n + 1
        id = ("%s#%d"):format(base, n)
    end
    local entry = {id = id, spec = spec, sandboxed = sandboxed}
    catalogue[#catalogue + 1] = entry
    by_id[id] = entry
    return entry
end
for _, name in ipairs(mb.list_scripts()) do add_ai(name, name, not builtin(name)) end
-- A brain (--ai brain:COMMAND[:key=value,...,name=N]): named by name=, else
-- its command's file name; checked once at start (started on 15x15, asked
-- for OK to START, ended), so that one that cannot run stops the server
-- before it listens. Each call starts it afresh: BOARD (or BEGIN, TURN)
-- with the game's stones, its move, END; its MESSAGE and DEBUG lines (at
-- most 256 lines, 32 KiB) come back with the answer.
local BRAIN_START = 10 -- seconds a brain has to answer START
local function add_brain(spec)
    local p = {}
    local ok, err = pcall(brains.setup, p, spec, 1, nil, {name = true}, "name")
    if not ok then
        error(("--ai %s: %s"):format(spec, tostring(err):gsub("^[^\n]-%.lua:%d+: ", ""):gsub("^players%[1%]: ", "")), 0)
    end
    local _, params = host.playerspec(spec:sub(7))
    local name = params and params.name ~= nil and tostring(params.name) or (spec:sub(7):match("^%s*(%S+)") or "brain")
    name = (name:match("([^/]+)$") or name):gsub("[^%w_.#-]", "_"):sub(1, 64)
    brains.begin(p)
    if not config.worker then
        local g = mb.Marubatsu {width = 15, height = 15, k = 5}
        local good, why = brains.preflight(p.brain, g, false)
        if not good then error(("--ai %s: it cannot play: %s"):format(spec, why), 0) end
    end
    local entry = add_ai(name, spec, false)
    entry.brain_player = p
    return entry
end

for _, file in ipairs(config.ai_files or {}) do
    if brains.is_spec(file) then goto continue end
    local ok, ferr = read_file(file, 0, true)
    if not ok then error(("--ai %s"):format(ferr), 0) end
    local entry = add_ai((file:match("([^/]+)%.lua$") or file:match("[^/]+$")), file, true)
    if config.worker then
        -- a script that fails to load is still listed: its moves fail with the reason
        entry.player, entry.load_error = mb.sandbox.load(file, config.limits)
    end
    ::continue::
end
for _, spec in ipairs(config.ai_files or {}) do
    if brains.is_spec(spec) then add_brain(spec) end
end

-- The seconds an AI's call may take: a built-in AI's limit, or a sandboxed
-- one's time budget (the built-in limit when --time 0 leaves it to the
-- instruction budget). Past it plus the slack, its worker is killed.
local SANDBOX_TIME = mb.sandbox.defaults and mb.sandbox.defaults.time or 1
local function limit_of(entry)
    if entry.brain_player then
        local b = entry.brain_player.brain
        return (b.timeout_turn + b.tolerance) / 1000 + BRAIN_START + 1
    end
    if not entry.sandboxed then return BUILTIN_TIME end
    local t = config.limits and config.limits.time
    if t == nil then return SANDBOX_TIME end
    return t or BUILTIN_TIME
end

if config.worker then
-- ---- The worker -------------------------------------------------------------

-- The loaded AI of a catalogue entry: {move = fn(game) -> move | nil, reason,
-- analyze = fn(game) -> analysis | nil, reason}; loading errors are reasons.
-- A built-in AI runs under host.timed_call: Lua code stops at the limit
-- ("time"); a native search that does not return is ended by the kill.
local function load_ai(entry)
    if entry.loaded then return entry.loaded end
    local ai = {}
    if entry.brain_player then
        -- a fresh process for each call, told the whole position
        local p = entry.brain_player
        ai.move = function(game)
            brains.begin(p)
            p.brain.messages = {}
            local m, why = brains.move(p.brain, game)
            brains.finish(p)
            local lines = table.concat(p.brain.messages, "\n")
            p.brain.messages = nil
            return m, why, lines
        end
    elseif entry.sandboxed then
        local player, err = entry.player, entry.load_error
        if not player and not err then player, err = mb.sandbox.load(entry.spec, config.limits) end
        entry.player = player
        if not player then
            ai.move = function() return nil, err end
        else
            ai.move = function(game) return player:move(game, EMPTY) end
        end
        ai.analyze = nil -- a sandboxed player answers with a move only
    else
        local ok, fn = pcall(mb.ai, entry.spec)
        if not ok then
            local err = "error: " .. tostring(fn)
            ai.move = function() return nil, err end
        else
            local function run(game, params) return fn(game, params) end -- an AI may be a callable table
            local function call(game, params)
                local good, r, timed_out = host.timed_call(BUILTIN_TIME, run, game, params)
                if good then return r end
                return nil, timed_out and "time" or "error: " .. tostring(r)
            end
            ai.move = function(game)
                local m, why = call(game, EMPTY)
                if why then return nil, why end
                if math.type(m) ~= "integer" or m < 0 or m >= game.width * game.height then
                    return nil, ("illegal move: %s"):format(tostring(m))
                end
                if game:getmark_by_move(m) ~= "." then
                    return nil, ("illegal move: %s (occupied)"):format(game:excel(m))
                end
                return m
            end
            ai.analyze = function(game) return call(game, {analyze = true}) end
        end
    end
    entry.loaded = ai
    return ai
end

-- An analysis as a message: "analysis", ms, the candidates ("4,0,8"),
-- whether it has scores, its score, what its scores are (score_label:
-- "visit share %"), then square, score pairs.
local function analysis_message(g, a, why, ms)
    if a == nil then return wire.encode("fail", ms, why) end
    if math.type(a) == "integer" then return wire.encode("move", ms, a) end
    if type(a) ~= "table" or type(a.candidate) ~= "table" then
        return wire.encode("other", ms, tostring(a))
    end
    local cand = {}
    for _, m in ipairs(a.candidate) do
        if math.type(m) == "integer" then cand[#cand + 1] = m end
    end
    local out, n = {"analysis", ms, table.concat(cand, ","), false}, 6
    if type(a.score_by_move) == "table" then
        out[4] = true
        local score = a.score
        out[5] = (score == nil or type(score) == "number") and score or tostring(score)
        out[6] = type(a.score_label) == "string" and a.score_label or nil
        for m, v in pairs(a.score_by_move) do
            if math.type(m) == "integer" and m >= 0 and m < g.width * g.height then
                out[n + 1], out[n + 2] = m, type(v) == "number" and v or tostring(v)
                n = n + 2
            end
        end
    end
    return wire.encode(table.unpack(out, 1, n))
end

-- compute(message) -> answer: a job is kind ("move" or "analyze"), the
-- AI's id, the game's width, height, k and rule and its moves ("4,0,8");
-- the answer is "move", ms, square | "fail", ms, reason | an analysis.
return function(message)
    local t, err = wire.decode(message, 7)
    if not t or t.n ~= 7 or type(t[2]) ~= "string" or type(t[7]) ~= "string" then
        return wire.encode("fail", 0.0, "error: the server sent a job that cannot be read (" .. tostring(err) .. ")")
    end
    local kind, id, w, h, k, rule, moves = table.unpack(t, 1, 7)
    local entry = by_id[id]
    if not entry then return wire.encode("fail", 0.0, ("error: no AI '%s' in this worker"):format(id)) end
    local ok, g = pcall(function()
        local game = mb.Marubatsu {width = w, height = h, k = k, rule = rule}
        for m in moves:gmatch("[^,]+") do game:move(math.tointeger(tonumber(m))) end
        return game
    end)
    if not ok then return wire.encode("fail", 0.0, "error: " .. tostring(g)) end
    local ai = load_ai(entry)
    local t0 = mb.clock()
    if kind == "analyze" and ai.analyze then
        local a, why = ai.analyze(g)
        return analysis_message(g, a, why, (mb.clock() - t0) * 1000)
    end
    local m, why, lines = ai.move(g)
    local ms = (mb.clock() - t0) * 1000
    if m then return wire.encode("move", ms, m, lines) end
    return wire.encode("fail", ms, why, lines)
end
end

-- ---- The server -------------------------------------------------------------

if config.results then
    local ok, err = read_file(config.results .. "/results.json", 0)
    if not ok then error(("--results %s: no tournament results there (%s)"):format(config.results, err), 0) end
end

-- ---- A tune run (--tune DIR): scripts/lib/serve_tune.lua ----------------------
local serve_tune = load(mb.embedded("lib/serve_tune"), "=scripts/lib/serve_tune.lua", "t")(mb, host,
    {read_file = read_file, reply = reply, fail = fail, report = report})
if config.tune then serve_tune.check(config.tune) end

-- ---- Games --------------------------------------------------------------------
local games, ngames, counter = {}, 0, 0
local prefix
do
    local f = io.open("/dev/urandom", "rb")
    local bytes = f and f:read(6) or tostring(os.time())
    if f then f:close() end
    prefix = bytes:gsub(".", function(c) return ("%02x"):format(c:byte()) end)
end

-- Drop games idle too long; if still full, the least recently used.
local function make_room()
    local now = mb.clock()
    for id, s in pairs(games) do
        if now - s.used > IDLE then
            games[id] = nil
            ngames = ngames - 1
        end
    end
    while ngames >= MAX_GAMES do
        local oldest
        for id, s in pairs(games) do
            if not oldest or s.used < games[oldest].used then oldest = id end
        end
        games[oldest] = nil
        ngames = ngames - 1
    end
end

local function player_label(p) return p == "human" and "human" or p end

local function state(s, extra)
    local g = s.game
    local rows = {}
    for y = 0, g.height - 1 do
        local row = {}
        for x = 0, g.width - 1 do row[x + 1] = g:getmark(x, y) end
        rows[y + 1] = table.concat(row)
    end
    local history = {}
    for i, m in ipairs(s.history) do history[i] = g:excel(m) end
    local t = {
        id = s.id, width = g.width, height = g.height, k = g.k, rule = g.rule, board = rows,
        turn = g.turn, status = g.status, step = g.move_count, history = array(history),
        last = g.move_count > 0 and g:excel(g.records[g.move_count]) or nil,
        players = {o = player_label(s.players.o), x = player_label(s.players.x)},
        to_move = g.status == "playing" and s.players[g.turn] or nil,
        failed = s.failed,
    }
    for k, v in pairs(extra or {}) do t[k] = v end
    return t
end

local function player_param(v, default)
    if v == nil or v == "" then return default end
    if v == "human" then return v end
    if by_id[v] then return v end
    return nil
end

local function int_param(v, default, lo, hi)
    if v == nil or v == "" then return default end
    local n = math.tointeger(tonumber(v))
    if not n or n < lo or n > hi or not v:match("^%d+$") then return nil end
    return n
end

local function new_game(params)
    local o = player_param(params.o, "human")
    local x = player_param(params.x, "ai14s")
    if not o or not x then
        return fail(400, ("unknown player '%s' (human or an AI of GET /api/info)"):format(not o and params.o
            or params.x))
    end
    local w = int_param(params.width, 3, 1, 32)
    local h = int_param(params.height, 3, 1, 32)
    if not w or not h then return fail(400, "width and height must be integers from 1 to 32") end
    local k = int_param(params.k, math.min(w, h), 1, 32)
    if not k then return fail(400, "k must be an integer from 1 to 32") end
    local rule = params.rule
    if rule == "" then rule = nil end
    local ok, game = pcall(mb.Marubatsu, {width = w, height = h, k = k, rule = rule})
    if not ok then
        return fail(400, (tostring(game):gsub("^Marubatsu: ", ""):gsub("^bad option 'rule' to 'Marubatsu' %((.*)%)$",
            "%1")))
    end
    make_room()
    counter = counter + 1
    local s = {id = ("%s%x"):format(prefix, counter), game = game, history = {},
        players = {o = o, x = x}, used = mb.clock(), version = 0}
    games[s.id] = s
    ngames = ngames + 1
    return reply(201, state(s))
end

-- Every change of a game counts in s.version: an AI's answer is played
-- only in the position it was asked about.

-- Go to the position after n moves of the history.
local function go_to(s, n)
    local g = s.game
    while g.move_count > n do g:unmove() end
    while g.move_count < n do g:move(s.history[g.move_count + 1]) end
    s.failed = nil
    s.version = s.version + 1
end

-- Play m at the current position: the history beyond it is dropped.
local function play(s, m)
    local g = s.game
    for i = #s.history, g.move_count + 1, -1 do s.history[i] = nil end
    g:move(m)
    s.history[g.move_count] = m
    s.failed = nil
    s.version = s.version + 1
end

-- ---- AI calls ----------------------------------------------------------------
local function seconds(v) return ("%g"):format(v) end

-- The job of a call of entry's AI in g: kind "move" or "analyze"; finish
-- makes the reply.
local function job(kind, g, entry, finish)
    local moves = {}
    for i = 1, g.move_count do moves[i] = g.records[i] end
    local message = wire.encode(kind, entry.id, g.width, g.height, g.k, g.rule, table.concat(moves, ","))
    return "job", message, limit_of(entry), finish
end

-- The answer of a job decoded: the list, or nil, status, reply fields.
local function answer_of(entry, outcome, text)
    local id = entry.id
    if outcome == "ok" then
        local t, err = wire.decode(text, 8 + 2 * 32 * 32)
        if t and type(t[1]) == "string" and type(t[2]) == "number" then return t end
        return nil, 502, {error = ("%s: its worker's answer cannot be read (%s)"):format(id, err or "a bad shape"),
            ai = id, reason = "crash"}
    elseif outcome == "time" then
        local option = entry.sandboxed and "--time" or "--builtin-time"
        return nil, 504, {error = ("%s gave no answer within its limit of %s s (%s): it was stopped"):format(
            id, seconds(limit_of(entry)), option), ai = id, reason = "time"}
    elseif outcome == "crash" then
        return nil, 502, {error = ("%s failed: %s"):format(id, text), ai = id, reason = "crash"}
    end
    return nil, 503, {error = text, ai = id, reason = outcome} -- busy, stopping
end

local function square_ok(g, m) return math.type(m) == "integer" and m >= 0 and m < g.width * g.height end

-- A brain's MESSAGE and DEBUG lines from its worker's answer (not trusted:
-- at most 256 lines of at most 500 bytes, 32 KiB in all, valid UTF-8),
-- as {ai = ID, lines = {...}}, or nil for an AI that is no brain or said
-- nothing.
local MESSAGE_LINES, MESSAGE_LINE_BYTES, MESSAGE_BYTES = 257, 500, 32 * 1024
local function brain_messages(entry, text)
    if not entry.brain_player or type(text) ~= "string" or text == "" then return nil end
    local lines = {}
    for line in (text:sub(1, MESSAGE_BYTES) .. "\n"):gmatch("(.-)\n") do
        if #lines == MESSAGE_LINES then break end
        line = host.utf8_fix(line:sub(1, MESSAGE_LINE_BYTES))
        lines[#lines + 1] = line
    end
    return {ai = entry.id, lines = array(lines)}
end

local function is_human(s, mark) return s.players[mark] == "human" end

local actions = {}

function actions.move(s, params)
    local g = s.game
    if g.status ~= "playing" then return fail(409, "the game is over") end
    if not is_human(s, g.turn) then
        return fail(409, ("it is %s's turn (%s): POST ai to let it play"):format(g.turn, s.players[g.turn]))
    end
    local ok, m = pcall(mb.move, params.move or "", g)
    if not ok then
        return fail(400, ("'%s' is not a square of the %dx%d board"):format(params.move or "", g.width, g.height))
    end
    if g:getmark_by_move(m) ~= "." then return fail(409, ("%s is occupied"):format(g:excel(m))) end
    play(s, m)
    return reply(200, state(s))
end

function actions.ai(s)
    local g = s.game
    if g.status ~= "playing" then return fail(409, "the game is over") end
    local id = s.players[g.turn]
    if id == "human" then return fail(409, ("it is %s's turn, a person's"):format(g.turn)) end
    local entry, mark, version = by_id[id], g.turn, s.version
    return job("move", g, entry, function(outcome, text)
        local t, status, err = answer_of(entry, outcome, text)
        if not t then return reply(status, err) end
        if s.version ~= version or s.game ~= g then
            return fail(409, ("the game changed while %s was thinking: its move is not played"):format(id))
        end
        local tag, ms, m = t[1], t[2], t[3]
        local messages = brain_messages(entry, t[4])
        if tag == "move" and square_ok(g, m) and g:getmark_by_move(m) == "." then
            play(s, m)
            return reply(200, state(s, {ai_ms = ms, messages = messages}))
        end
        local why
        if tag == "fail" then
            why = tostring(m)
        elseif tag == "move" and square_ok(g, m) then
            why = ("illegal move: %s (occupied)"):format(g:excel(m))
        else
            why = ("illegal move: %s"):format(tostring(m))
        end
        s.failed = {mark = mark, ai = id, reason = why}
        return reply(200, state(s, {ai_ms = ms, messages = messages}))
    end)
end

-- undo: back to the last earlier position where a person is to move (one
-- move back when both players are AIs); redo: forward likewise.
local function person_to_move(s, n)
    local mark = n % 2 == 0 and "o" or "x"
    return is_human(s, mark)
end
local function anyone_human(s) return is_human(s, "o") or is_human(s, "x") end

function actions.undo(s)
    local n = s.game.move_count
    if n == 0 then return fail(409, "nothing to undo") end
    n = n - 1
    while n > 0 and anyone_human(s) and not person_to_move(s, n) do n = n - 1 end
    go_to(s, n)
    return reply(200, state(s))
end

function actions.redo(s)
    local n = s.game.move_count
    if n >= #s.history then return fail(409, "nothing to redo") end
    n = n + 1
    while n < #s.history and anyone_human(s) and not person_to_move(s, n) do n = n + 1 end
    go_to(s, n)
    return reply(200, state(s))
end

function actions.step(s, params)
    local n = int_param(params.to, nil, 0, #s.history)
    if not n then return fail(400, ("to must be a step from 0 to %d"):format(#s.history)) end
    go_to(s, n)
    return reply(200, state(s))
end

function actions.players(s, params)
    local o = player_param(params.o, s.players.o)
    local x = player_param(params.x, s.players.x)
    if not o or not x then return fail(400, "unknown player (human or an AI of GET /api/info)") end
    s.players = {o = o, x = x}
    s.failed = nil
    s.version = s.version + 1
    return reply(200, state(s))
end

local function score_text(v)
    if type(v) ~= "number" then return tostring(v) end
    if v == math.floor(v) and math.abs(v) < 1e15 then return ("%d"):format(v) end
    return ("%g"):format(v)
end

function actions.hint(s, params)
    local g = s.game
    if g.status ~= "playing" then return fail(409, "the game is over") end
    local id = params.ai and params.ai ~= "" and params.ai or "ai14s"
    local entry = by_id[id]
    if not entry then return fail(400, ("unknown AI '%s' (see GET /api/info)"):format(id)) end
    local turn = g.turn
    return job("analyze", g, entry, function(outcome, text)
        local t, status, err = answer_of(entry, outcome, text)
        if not t then return reply(status, err) end
        local tag, ms = t[1], t[2]
        local out = {ai = id, turn = turn}
        if not entry.sandboxed then out.ms = ms end
        local messages = (tag == "move" or tag == "fail") and brain_messages(entry, t[4]) or nil
        if tag == "fail" then
            return reply(200, {ai = id, failed = t[3] ~= nil and tostring(t[3]) or "no analysis (it returned nil)",
                messages = messages})
        elseif tag == "move" then
            if not square_ok(g, t[3]) then
                return reply(200, {ai = id, failed = ("illegal move: %s"):format(tostring(t[3])), messages = messages})
            end
            out.candidate = {g:excel(t[3])}
            out.messages = messages
            out.note = entry.brain_player and "a Gomocup brain gives its move only"
                or entry.sandboxed and "a sandboxed AI gives its move only" or "this AI gives no analysis: its move"
            return reply(200, out)
        elseif tag ~= "analysis" then
            return reply(200, {ai = id, failed = "no analysis (it returned " .. tostring(t[3]) .. ")"})
        end
        local cand = {}
        for m in tostring(t[3]):gmatch("[^,]+") do
            m = math.tointeger(tonumber(m))
            if square_ok(g, m) then cand[#cand + 1] = g:excel(m) end
        end
        out.candidate = array(cand)
        if t[4] == true then
            local scores, values = {}, {}
            for i = 7, t.n - 1, 2 do
                local m, v = t[i], t[i + 1]
                if square_ok(g, m) then
                    scores[g:excel(m)] = score_text(v)
                    values[g:excel(m)] = type(v) == "number" and math.max(-1e9, math.min(1e9, v)) or nil
                end
            end
            out.scores, out.values = scores, values
            out.score = t[5] ~= nil and score_text(t[5]) or nil
            out.label = type(t[6]) == "string" and host.utf8_fix(t[6]:sub(1, 40)) or nil
        else
            out.note = "this AI lists candidate moves without scores"
        end
        return reply(200, out)
    end)
end

function actions.record(s, params, body, method)
    if method == "GET" then
        return 200, "text/plain; charset=utf-8", mb.format_game_record(s.game), "game.txt"
    end
    local game, err = mb.parse_game_record(body, "the record")
    if not game then return fail(400, err) end
    local history = {}
    for i = 1, game.move_count do history[i] = game.records[i] end
    s.game, s.history, s.failed = game, history, nil
    s.version = s.version + 1
    return reply(200, state(s))
end

function actions.close(s)
    s.version = s.version + 1
    games[s.id] = nil
    ngames = ngames - 1
    return reply(200, {closed = s.id})
end

local GET_ACTIONS = {hint = true, record = true}
local POST_ACTIONS = {move = true, ai = true, undo = true, redo = true, step = true, players = true,
    record = true, close = true}

local function info()
    local ais = {}
    for i, e in ipairs(catalogue) do ais[i] = {id = e.id, sandboxed = e.sandboxed, brain = e.brain_player and true
        or nil} end
    return reply(200, {version = mb.VERSION, ais = ais, results = config.results ~= nil, tune = config.tune ~= nil,
        max_games = MAX_GAMES, idle = IDLE, max_side = 32})
end

return function(method, path, params, body)
    if path == "info" then
        if method ~= "GET" then return fail(405, "info is read with GET") end
        return info()
    elseif path == "results" then
        if method ~= "GET" then return fail(405, "results are read with GET") end
        if not config.results then return fail(404, "no results: start the server with --results DIR") end
        local data, err = report.data(config.results, read_file)
        if not data then return fail(404, err) end
        return 200, "application/json", data
    elseif path == "results/journal" then
        if method ~= "GET" then return fail(405, "the journal is read with GET") end
        if not config.results then return fail(404, "no results: start the server with --results DIR") end
        local data, journal = report.data(config.results, read_file)
        if not data then return fail(404, journal) end
        return 200, "text/plain; charset=utf-8", journal
    elseif path == "tune" then
        if method ~= "GET" then return fail(405, "a tune run is read with GET") end
        if not config.tune then return fail(404, "no tune run: start the server with --tune DIR") end
        return serve_tune.reply(config.tune)
    elseif path == "games" then
        if method ~= "POST" then return fail(405, "a game is made with POST") end
        return new_game(params)
    end
    local id, action = path:match("^games/([%w]+)/?([%a]*)$")
    if not id then return fail(404, "no such API: " .. path) end
    local s = games[id]
    if not s then return fail(404, "no game " .. id .. " (it may have expired after being idle)") end
    s.used = mb.clock()
    if action == "" then
        if method ~= "GET" then return fail(405, "a game is read with GET") end
        return reply(200, state(s))
    end
    if not actions[action] then return fail(404, "no such action: " .. action) end
    local allowed = (method == "GET" and GET_ACTIONS or POST_ACTIONS)[action]
    if not allowed then return fail(405, ("%s does not take %s"):format(action, method)) end
    return actions[action](s, params, body, method)
end
