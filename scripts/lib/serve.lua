-- scripts/lib/serve.lua: the games, AIs and results of `marubatsu serve`
-- (the HTTP layer is src/cli/cmd_serve.c; the tree explorer is answered in
-- C). Not run when the module opens: src/lua/l_serve.c runs it with
-- (mb, config) and keeps the handler it returns:
--
--     handler(method, path, params, body) -> status, content_type, body [, filename]
--
-- path is below /api/, params the query parameters (strings), body the
-- request's body. Nothing from a request is run as Lua or used as a file
-- name: AIs are chosen by id from the catalogue made at start, the results
-- directory is the one given on the command line.
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
--   GET  games/ID/record            the game record (play's save format)
--   POST games/ID/record            body: a game record; replaces the game
--   POST games/ID/close             forget the game
--   GET  results                    the --results directory's report data
--   GET  results/journal            its journal (text), whose G lines are the games
local mb, config = ...

local host = require "marubatsu.host" -- tournament journals (the host library)
local report = load(mb.embedded("lib/report"), "=scripts/lib/report.lua", "t")(mb, host)
local json, array = report.json, report.array

if config.results then
    local f, err = io.open(config.results .. "/results.json", "rb")
    if not f then error(("--results %s: no tournament results there (%s)"):format(config.results, err), 0) end
    f:close()
end

local MAX_GAMES = config.max_games or 64
local IDLE = config.idle or 1800
local EMPTY = mb.NO_PARAMS

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
for _, file in ipairs(config.ai_files or {}) do
    local f, ferr = io.open(file, "rb")
    if not f then error(("--ai %s: %s"):format(file, ferr), 0) end
    f:close()
    -- a script that fails to load is still listed: its moves fail with the reason
    local player, err = mb.sandbox.load(file, config.limits)
    local entry = add_ai((file:match("([^/]+)%.lua$") or file:match("[^/]+$")), file, true)
    entry.player, entry.load_error = player, err
end

-- The loaded AI of a catalogue entry: {move = fn(game) -> move | nil, reason,
-- analyze = fn(game) -> analysis | nil, reason}; loading errors are reasons.
local function load_ai(entry)
    if entry.loaded then return entry.loaded end
    local ai = {}
    if entry.sandboxed then
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
            ai.move = function(game)
                local good, m = pcall(fn, game, EMPTY)
                if not good then return nil, "error: " .. tostring(m) end
                if math.type(m) ~= "integer" or m < 0 or m >= game.width * game.height then
                    return nil, ("illegal move: %s"):format(tostring(m))
                end
                if game:getmark_by_move(m) ~= "." then
                    return nil, ("illegal move: %s (occupied)"):format(game:excel(m))
                end
                return m
            end
            ai.analyze = function(game)
                local good, a = pcall(fn, game, {analyze = true})
                if not good then return nil, "error: " .. tostring(a) end
                return a
            end
        end
    end
    entry.loaded = ai
    return ai
end

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
        return fail(400, ("unknown player '%s' (human or an AI of GET /api/info)"):format(not o and params.o or params.x))
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
        return fail(400, (tostring(game):gsub("^Marubatsu: ", ""):gsub("^bad option 'rule' to 'Marubatsu' %((.*)%)$", "%1")))
    end
    make_room()
    counter = counter + 1
    local s = {id = ("%s%x"):format(prefix, counter), game = game, history = {},
        players = {o = o, x = x}, used = mb.clock()}
    games[s.id] = s
    ngames = ngames + 1
    return reply(201, state(s))
end

-- Go to the position after n moves of the history.
local function go_to(s, n)
    local g = s.game
    while g.move_count > n do g:unmove() end
    while g.move_count < n do g:move(s.history[g.move_count + 1]) end
    s.failed = nil
end

-- Play m at the current position: the history beyond it is dropped.
local function play(s, m)
    local g = s.game
    for i = #s.history, g.move_count + 1, -1 do s.history[i] = nil end
    g:move(m)
    s.history[g.move_count] = m
    s.failed = nil
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
    if not ok then return fail(400, ("'%s' is not a square of the %dx%d board"):format(params.move or "", g.width, g.height)) end
    if g:getmark_by_move(m) ~= "." then return fail(409, ("%s is occupied"):format(g:excel(m))) end
    play(s, m)
    return reply(200, state(s))
end

function actions.ai(s)
    local g = s.game
    if g.status ~= "playing" then return fail(409, "the game is over") end
    local id = s.players[g.turn]
    if id == "human" then return fail(409, ("it is %s's turn, a person's"):format(g.turn)) end
    local t0 = mb.clock()
    local m, why = load_ai(by_id[id]).move(g)
    local ms = (mb.clock() - t0) * 1000
    if not m then
        s.failed = {mark = g.turn, ai = id, reason = why}
        return reply(200, state(s, {ai_ms = ms}))
    end
    play(s, m)
    return reply(200, state(s, {ai_ms = ms}))
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
    local ai = load_ai(entry)
    local out = {ai = id, turn = g.turn}
    if not ai.analyze then
        local m, why = ai.move(g)
        if not m then return reply(200, {ai = id, failed = why}) end
        out.candidate = {g:excel(m)}
        out.note = "a sandboxed AI gives its move only"
        return reply(200, out)
    end
    local t0 = mb.clock()
    local a, why = ai.analyze(g)
    out.ms = (mb.clock() - t0) * 1000
    if a == nil then return reply(200, {ai = id, failed = why}) end
    if math.type(a) == "integer" then
        out.candidate = {g:excel(a)}
        out.note = "this AI gives no analysis: its move"
        return reply(200, out)
    end
    if type(a) ~= "table" or type(a.candidate) ~= "table" then
        return reply(200, {ai = id, failed = "no analysis (it returned " .. tostring(a) .. ")"})
    end
    local cand = {}
    for i, m in ipairs(a.candidate) do cand[i] = g:excel(m) end
    out.candidate = array(cand)
    if type(a.score_by_move) == "table" then
        local scores, values = {}, {}
        for m, v in pairs(a.score_by_move) do
            if math.type(m) == "integer" and m >= 0 and m < g.width * g.height then
                scores[g:excel(m)] = score_text(v)
                values[g:excel(m)] = type(v) == "number" and math.max(-1e9, math.min(1e9, v)) or nil
            end
        end
        out.scores, out.values = scores, values
        out.score = a.score ~= nil and score_text(a.score) or nil
    else
        out.note = "this AI lists candidate moves without scores"
    end
    return reply(200, out)
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
    return reply(200, state(s))
end

function actions.close(s)
    games[s.id] = nil
    ngames = ngames - 1
    return reply(200, {closed = s.id})
end

local GET_ACTIONS = {hint = true, record = true}
local POST_ACTIONS = {move = true, ai = true, undo = true, redo = true, step = true, players = true,
    record = true, close = true}

local function info()
    local ais = {}
    for i, e in ipairs(catalogue) do ais[i] = {id = e.id, sandboxed = e.sandboxed} end
    return reply(200, {version = mb.VERSION, ais = ais, results = config.results ~= nil,
        max_games = MAX_GAMES, idle = IDLE, max_side = 32})
end

return function(method, path, params, body)
    if path == "info" then
        if method ~= "GET" then return fail(405, "info is read with GET") end
        return info()
    elseif path == "results" then
        if method ~= "GET" then return fail(405, "results are read with GET") end
        if not config.results then return fail(404, "no results: start the server with --results DIR") end
        local data, err = report.data(config.results)
        if not data then return fail(404, err) end
        return 200, "application/json", data
    elseif path == "results/journal" then
        if method ~= "GET" then return fail(405, "the journal is read with GET") end
        if not config.results then return fail(404, "no results: start the server with --results DIR") end
        local data, journal = report.data(config.results)
        if not data then return fail(404, journal) end
        return 200, "text/plain; charset=utf-8", journal
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
