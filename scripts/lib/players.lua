-- scripts/lib/players.lua: a tournament's players (scripts/lib/tournament.lua):
-- player specs checked and made into players (built-in AIs, scripts in the
-- sandbox or trusted, Gomocup brains), their names made unique, the
-- pre-flight check of every player before the first game, and one move of
-- a player under its time control. Embedded; runs once with mb and the
-- library's private table, and leaves private.players = {check_spec,
-- make_players, finish_names, preflight, player_move} (and
-- private.preflight_player).
local mb, private = ...
local host = private.host -- the host library (require "marubatsu.host")

local NAME_MAX = 255 -- bytes of a player's name in a journal (journal.h)
local SPEC_MAX = 4096 -- bytes of a player spec (its parameters: at most 32 of 255 bytes each)
local REASON_MAX = 1000 -- bytes of a forfeit reason kept (a journal holds 1023)

local files = private.files
local printable = files.printable
local fail = private.fail

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
-- runs: the player spec parses, its name fits a journal, and the script exists
-- (a directory is not a script). -> base, params, or an error.
local function check_spec(entry, i)
    local base, params = host.playerspec(entry)
    if not base then fail(("players[%d]: bad player '%s': %s"):format(i, printable(entry, 80), params), 3) end
    -- the name a journal holds is checked by finish_names (a spec without
    -- name= is its own name); a spec with one may be longer (tune's players)
    if #entry > SPEC_MAX then
        fail(("players[%d]: the player '%s' is %d bytes long; a player spec holds at most %d bytes"):format(i,
            printable(entry, 40), #entry, SPEC_MAX), 3)
    end
    local why = private.command.script_problem(base)
    if why then fail(("players[%d]: %s"):format(i, why), 3) end
    return base, params
end

-- Player options: keys of a spec that are the tournament's, not the AI's
-- (docs/journal.md, "Player options"): name= (the name shown and written),
-- tc=S[+INC] and st=S (the player's own time control: a game clock with
-- an increment, seconds a move; either replaces the tournament's).
local PLAYER_OPTIONS = {name = true, st = true, tc = true}
local PLAYER_OPTION_LIST = "name, st, tc"
private.player_options = PLAYER_OPTIONS

-- The player options of spec text `text` whose name part is `base`, as
-- typed (raw text: name=007 stays "007"), and the other parameters' text
-- (its items as typed, joined by commas; "" for none).
local function split_options(text, base)
    local found, rest = {}, {}
    if text:sub(1, #base) ~= base then return found, nil end
    if #text > #base then
        for item in text:sub(#base + 2):gmatch("[^,]+") do
            local k, v = item:match("^([^=]*)=(.*)$")
            if k and PLAYER_OPTIONS[k] then found[k] = v else rest[#rest + 1] = item end
        end
    end
    return found, table.concat(rest, ",")
end

-- A player's own time control from its tc= and st= (nil: the tournament's).
local function own_tc(tc, st, i)
    if tc == nil and st == nil then return nil end
    local ok, r = pcall(private.timecontrol.of, {game_time = tc, move_time = st})
    if not ok then
        r = private.message(r):gsub("game_time", "tc"):gsub("move_time", "st")
        fail(("players[%d]: %s"):format(i, r), 4)
    end
    return r
end

-- One player from an entry of `players`: an AI name or script file (with
-- optional ":key=value,..."), a function, an AI, or a table {name =, ai =,
-- params =, sandbox =, limits =, tc =, st =}. Fields: name (nil for a
-- brain named by the pre-flight: finish_names), spec (text for the
-- journal), params (the AI's: player options taken out), tc (its time
-- control: its own or the tournament's), and either ai (trusted), sandbox
-- (a sandboxed player), brain, or broken (the message of a script that
-- failed to load).
local function make_player(entry, i, opts)
    local p = {params = {}}
    local spec, name, tc, st
    if type(entry) == "table" and not mb.is_ai(entry) then
        p.params = copy_params(entry.params)
        if entry.sandbox ~= nil then p.force_sandbox = entry.sandbox end
        p.limits = entry.limits
        name, tc, st = entry.name, entry.tc, entry.st
        entry = entry.ai or entry.fn or entry[1]
        if entry == nil then fail(("players[%d]: a table needs ai = NAME, FILE, function or AI"):format(i), 3) end
    end
    if type(name) == "string" then p.named = true end
    if private.brains.is_spec(entry) then
        local base = host.playerspec(entry:sub(7))
        local found = split_options(entry:sub(7), base or "")
        name, tc, st = name or found.name, tc or found.tc, st or found.st
        p.tc = own_tc(tc, st, i) or opts.tc
        p.named = name ~= nil
        -- an external brain (scripts/lib/brains.lua), its player options left to us
        spec = private.brains.setup(p, entry, i, p.tc, PLAYER_OPTIONS, PLAYER_OPTION_LIST)
        -- without name=: its ABOUT name (the pre-flight asks), else its file's
        p.file_name = private.basename(p.brain.argv[1])
    elseif type(entry) == "string" then
        local base, params = check_spec(entry, i)
        local found, rest = split_options(entry, base)
        for k, v in pairs(params) do
            if not PLAYER_OPTIONS[k] then p.params[k] = v end
        end
        name, tc, st = name or found.name, tc or found.tc, st or found.st
        p.named = name ~= nil
        p.tc = own_tc(tc, st, i) or opts.tc
        spec = entry
        p.script = base
        local sandboxed = is_path(base) or not builtin(base)
        if p.force_sandbox ~= nil then sandboxed = p.force_sandbox end
        if opts.sandbox == false then sandboxed = false end
        -- the default name: a built-in AI's as typed, a script's file name
        -- without .lua, with the AI's parameters as typed
        if not name and not rest then
            name = entry
        elseif not name then
            name = (is_path(base) or not builtin(base)) and private.basename(base) or base
            if rest ~= "" then name = name .. ":" .. rest end
        end
        local ptc = p.tc
        if sandboxed then
            local limits = p.limits or opts.limits
            -- loading and the parameter check below run the script's code:
            -- under a time control, a player without a time budget of its
            -- own gets the first move's limit for them, as for its moves
            local setup = limits
            if ptc and limits and limits.time == false then
                setup = copy_params(limits)
                setup.time = (private.timecontrol.limit(ptc, ptc.game))
            end
            local player, msg = mb.sandbox.load(base, setup)
            if player then
                p.sandbox = player
                -- its own time budget, if given: a time control's limit may
                -- shorten it, and replaces the default (mb.sandbox.defaults.time)
                local own = limits and limits.time
                p.sandbox_time = own or nil
                p.sandbox_move = player.move -- looked up once, not per move
                -- its time budget outside a time control: the hard line's deadline
                p.hard = player.limits.time or nil
                -- NAME:key=value: keys its AI does not take are refused now;
                -- a script that ran out of a budget in the check (a
                -- spinning __index on its params) loses its games with it
                local checked, err, failed = player:check_params(p.params)
                if failed then
                    p.broken = printable(err, REASON_MAX)
                    p.broken_check = true -- not a load error: the pre-flight says so
                elseif not checked then
                    fail(("players[%d]: %s; player options: %s"):format(i, tostring(err):gsub("^[^\n]-:%d+: ", ""),
                        PLAYER_OPTION_LIST), 3)
                end
            else
                p.broken = printable(msg, REASON_MAX)
            end
        else
            local ok, ai = pcall(mb.ai, base)
            if ok then
                p.ai = ai
                -- NAME:key=value: keys the AI does not take are refused now
                local checked, err = pcall(mb.check_params, ai, p.params)
                if not checked then
                    fail(("players[%d]: %s; player options: %s"):format(i, tostring(err):gsub("^[^\n]-:%d+: ", ""),
                        PLAYER_OPTION_LIST), 3)
                end
            elseif is_path(base) or mb.loadscript(base) then
                p.broken = printable("error: " .. tostring(ai), REASON_MAX)
            else
                fail(("players[%d]: %s"):format(i, tostring(ai)), 3)
            end
        end
    elseif type(entry) == "function" then
        p.ai = mb.make_ai("function", entry)
        p.tc = own_tc(tc, st, i) or opts.tc
        spec = "function"
        name = name or ("function" .. i)
    elseif mb.is_ai(entry) then
        p.ai = entry
        p.tc = own_tc(tc, st, i) or opts.tc
        spec = entry.name
        name = name or entry.name
    else
        fail(("players[%d]: an AI name, file, function, AI or table expected, got %s"):format(i, type(entry)), 3)
    end
    if next(p.params) and not spec:find(":", 1, true) then spec = spec .. ":" .. params_text(p.params) end
    p.name, p.spec = name, files.utf8_fix(spec)
    return p
end

-- The names of the players, once the pre-flight has asked the brains
-- theirs: each checked (a non-empty string without control characters,
-- at most 255 bytes), made valid UTF-8 (a name or spec with other bytes
-- has U+FFFD in their place in the journal, results.json and
-- report.html), and the later ones of a name given twice numbered (the
-- same AI twice is two players: ai2, ai2#2).
local function finish_names(players)
    local seen = {}
    for i, p in ipairs(players) do
        local name = p.name
        if name == nil then name = p.about or p.file_name end
        if type(name) ~= "string" or name == "" then
            fail(("players[%d]: the name must be a non-empty string"):format(i), 3)
        end
        if name:find("[%c\127]") then
            fail(("players[%d]: a name cannot hold tabs, newlines or other control characters ('%s')"):format(i,
                printable(name, 80)), 3)
        end
        name = files.utf8_fix(name)
        local base, n = name, 1
        while seen[name] do
            n = n + 1
            name = ("%s#%d"):format(base, n)
        end
        seen[name] = true
        if #name > NAME_MAX then
            fail(("players[%d]: the name '%s' is %d bytes long; a journal holds names of at most %d bytes"):format(i,
                printable(name, 40), #name, NAME_MAX), 3)
        end
        p.name = name
    end
end

local function make_players(list, opts)
    if type(list) ~= "table" or #list < 2 then
        fail("tournament: players = {A, B, ...} with at least two players expected", 3)
    end
    local players = {}
    for i, entry in ipairs(list) do
        local p = make_player(entry, i, opts)
        p.index = i
        players[i] = p
    end
    return players
end

-- ---------------------------------------------------------------- pre-flight

-- A reason as the pre-flight shows it: one line, without the positions
-- of the library's own files (scripts/lib/NAME.lua:N:), which say nothing
-- about the player; a script's own file:line stays.
local function preflight_reason(why)
    why = private.message((tostring(why):gsub("^error: ", "")))
    return printable(why, 300)
end

-- The board of game g in words: "4x4, k=4" (", exact rule" under it).
local function board_words(g)
    return ("%dx%d, k=%d%s"):format(g.width, g.height, g.k, g.rule == "exact" and ", exact rule" or "")
end

-- private.preflight_player(p, g) -> nil | what, reason: whether the player
-- p (as make_player makes it: broken, sandbox, ai or brain) can play from
-- the position g (the first game's start: g is left as it was). what is
-- "cannot load" (a script that does not compile, fails in its main chunk
-- or returns no AI), "cannot play this board" (a rule of a built-in AI or
-- an AI made by the wrappers that raises on the start position, as ai7's
-- centre on an even board; a Gomocup brain on a board without k=5),
-- "failed its parameter check" (a script that ran out of a budget checking
-- its NAME:key=value parameters), or
-- "failed the Gomocup handshake" (a brain that cannot be started, or does
-- not answer OK to START; "cannot start" when its command cannot be
-- run). A brain that answers, and has no name= of its own, is asked
-- ABOUT: p.about is the name it gives (or nil). Costs one START per brain and one call of
-- each rule (no search: a searching AI is not called, nor a sandboxed
-- script's move, whose state would keep what the call did).
function private.preflight_player(p, g)
    if p.broken_check then
        local budget = {time = "time", instructions = "instruction", memory = "memory"}
        return "failed its parameter check", budget[p.broken] and ("ran out of its %s budget"):format(budget[p.broken])
            or preflight_reason(p.broken)
    end
    if p.broken then return "cannot load", preflight_reason(p.broken) end
    if p.brain then
        local ok, why = private.brains.preflight(p.brain, g, not p.named)
        if ok then
            p.about = why
            return nil
        end
        if why:find("play five in a row", 1, true) then return "cannot play this board", preflight_reason(why) end
        if why:find("^cannot run ") then return "cannot start", preflight_reason(why) end
        return "failed the Gomocup handshake", preflight_reason(why)
    end
    local ai = p.ai
    if not ai or g.status ~= "playing" then return nil end
    local ok, err = true, nil
    if ai.kind == "candidate" and type(ai.candidate) == "function" then
        -- the rule alone: the wrapper's draw is not made
        ok, err = pcall(ai.candidate, g, next(p.params) and p.params or mb.NO_PARAMS)
    elseif ai.kind == "score" or ai.kind == "table" then
        -- the analysis draws nothing either
        local params = copy_params(p.params)
        params.analyze = true
        ok, err = pcall(ai.fn, g, params)
    end
    if not ok then return "cannot play this board", preflight_reason(err) end
    return nil
end

-- The pre-flight of a tournament: every distinct player (a brain's
-- command once) checked by private.preflight_player from the first
-- game's start position, before anything is written. A failure raises
-- {exit = 2, message = "players[I] SPEC WHAT (BOARD): REASON"}; with
-- allow_forfeits it is a note on stderr (unless quiet) and the player
-- plays, losing its games by forfeit.
local function preflight(players, s)
    local g = mb.Marubatsu(s.mbparams)
    for _, m in ipairs(s.openings[1] or {}) do g:move(m) end
    local brains = {}
    for i, p in ipairs(players) do
        local what, why
        local key = p.brain and table.concat(p.brain.argv, " ") .. "\0" .. p.spec
        if key and brains[key] then
            p.about = brains[key].about
        else
            what, why = private.preflight_player(p, g)
            if key then brains[key] = p end
        end
        if what then
            if what == "cannot play this board" then what = ("cannot play this board (%s)"):format(board_words(g)) end
            local message = ("players[%d] %s %s: %s"):format(i, printable(p.spec, 120), what, why)
            if not s.allow_forfeits then
                error(setmetatable({exit = 2, message = message}, {__tostring = function(e) return e.message end}), 0)
            end
            if not s.quiet then
                io.stderr:write(("marubatsu tournament: note: %s; its games are forfeits\n"):format(message))
            end
        end
    end
end

-- describe a move that is not legal in game g, or nil if it is legal
local illegal = private.illegal -- scripts/lib/sandbox.lua

local TC = private.timecontrol -- scripts/lib/timecontrol.lua

local watch_move, watch_done = host.watch_move, host.watch_done

-- The move of player p in game g: move | nil, reason. With a time control
-- tc, left is the clock of p's side (nil: no game clock) and spent the
-- seconds each side used so far; the seconds it used come third (brains
-- keep their own clock: scripts/lib/brains.lua). A sandboxed move runs
-- under the hard line (host.watch_move: in a worker process, one still
-- running past its time budget and the slack is ended by killing the
-- worker, and forfeit_line below writes the game's line).
local function player_move(p, g, tc, left, spent)
    if p.broken then return nil, p.broken end
    if p.brain then return private.brains.move(p.brain, g) end
    if tc then return TC.move(p, g, p.params, tc, left, spent) end
    if p.sandbox then
        if not p.hard then return p.sandbox_move(p.sandbox, g, p.params) end
        watch_move(p.hard, g)
        local m, why = p.sandbox_move(p.sandbox, g, p.params)
        watch_done()
        return m, why
    end
    local ok, m = pcall(p.ai.fn, g, p.params)
    if not ok then return nil, "error: " .. tostring(m) end
    local what = illegal(g, m)
    if what then return nil, "illegal move: " .. what end
    return m
end

private.players = {check_spec = check_spec, make_players = make_players, finish_names = finish_names,
    preflight = preflight, player_move = player_move}
