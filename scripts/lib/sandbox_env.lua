-- scripts/lib/sandbox_env.lua: the environment of a sandboxed AI script,
-- built from an allow-list. Embedded; runs once in each sandboxed player's
-- own Lua state (src/lua/l_sandbox.c), after the part of the library AI
-- scripts use (wrappers, rules, search_ai, loader), with that state's mb, the
-- library's private table, rawmeta (a C function: the metatable of any
-- value, for the inventory), bounded (the C versions of string.rep,
-- plain string.find, table.insert, remove and move whose loops count
-- against the budgets: src/lua/l_bounded.c) and spent (a C function:
-- whether the running call's budget has run out). Returns ctl = {[1] = the AI's function (once
-- started), [2] = the game object of the moves, [3] = the params of a move
-- given none (mb.NO_PARAMS, as a trusted AI gets), compile = function(spec),
-- inventory = function() -> {"path type", ...}}.
--
-- Nothing reaches the script unless ALLOWED below names it: a function
-- added to mb later is not exposed until it is listed here and in
-- docs/lua-api.md §5.10 (tests/lua/allowlist_spec.lua compares the
-- environment with that list). The host library (tournaments, journals,
-- files, processes) does not exist in this state at all.
local mb, private, rawmeta, bounded, spent = ...
local raw_load, raw_setmetatable, raw_getmetatable = load, setmetatable, getmetatable
local rawget_, rawlen_, type_, error_, tostring_ = rawget, rawlen, type, error, tostring
local pairs_, ipairs_, select_ = pairs, ipairs, select

-- What a sandboxed script may use: a table name (or "_G") -> its allowed
-- keys. Entries written in this file (print, setmetatable, ...) replace the
-- standard ones; see the comments where they are made.
local ALLOWED = {
    _G = {"assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
        "tostring", "type", "xpcall", "rawequal", "rawget", "rawset", "rawlen", "_VERSION",
        -- sandbox versions, below
        "print", "setmetatable", "getmetatable", "collectgarbage", "load", "require",
        "_G", "mb", "string", "table", "math", "utf8", "os"},
    string = {"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match",
        "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper"},
    table = {"concat", "insert", "move", "pack", "remove", "sort", "unpack"},
    math = {"abs", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max",
        "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed",
        "sin", "sqrt", "tan", "tointeger", "type", "ult", "acos", "asin", "atan"},
    utf8 = {"char", "charpattern", "codepoint", "codes", "len", "offset"},
    os = {"clock"},
    mb = {"Marubatsu", "move", "markpat_index", "VERSION", "lang", "NO_PARAMS",
        "make_ai", "is_ai", "ai_by_candidate", "ai_by_score", "ai", "rules", "search_ai",
        "random", "randbelow", "choice", "randint", "getrandbits", "shuffle",
        "search_abs_dls", "search_pvs_dls", "search_iddfs", "solve", "mcts", "vcf", "vct", "clock",
        "pattern_name", "pattern_weights", "pattern_searcher"},
    ["mb.rules"] = {"centre", "corners", "is_corner", "special", "patterns", "positional",
        "winning_move"},
}

-- ---- This state's own globals, where the library runs ----
-- (the script never sees them, but it can call library functions, so
-- nothing dangerous may be left here either)
string.dump = nil
dofile, loadfile = nil, nil
io = {write = io.write, stdout = io.stdout, stderr = io.stderr}
os = {clock = os.clock}
package, debug, coroutine = nil, nil, nil

-- C loops the budgets could not stop (they act between Lua
-- instructions): string.rep("", math.maxinteger) made n empty copies,
-- table.move over a range of 2^63 and table.insert/remove under a __len of
-- 2^50 shifted that many elements, a plain string.find compared up to
-- #s * #p bytes. Their replacements look at the budgets as they go
-- (src/lua/l_bounded.c; mb.shuffle too), so such a call ends with the
-- move's time, instruction or memory budget. Strings' methods are the
-- same functions.
string.rep = bounded.rep
table.insert, table.remove, table.move = bounded.insert, bounded.remove, bounded.move
local find_plain = bounded.find_plain

-- Patterns: string.find/match/gmatch/gsub run in C, where no budget can
-- stop them, and Lua's matcher backtracks: on n bytes, each repetition
-- (x*, x+, x-) can be tried at every length for every way the rest
-- matched, so a pattern's worst case is about (n + 1) starts times a
-- factor per item: n + 1 for a repetition, for %b (a balance scan) and for
-- a back reference (%1..%9), 2 for an optional item (x?), 1 for anything
-- else; an anchored pattern (^...) has one start; each start then compares
-- up to #p characters, so a pattern without magic characters costs
-- (n + 1) * (#p + 1). It is bounded before the pattern runs; one over
-- MAX_PATTERN_STEPS is refused with an error. string.find with plain, or
-- with a pattern without magic characters (Lua then searches plainly),
-- is find_plain above.
local MAX_PATTERN_STEPS = 1e7
local str_find, str_match, str_gmatch, str_gsub = string.find, string.match, string.gmatch, string.gsub
local str_len, str_sub = string.len, string.sub
local MAGIC = "[%^%$%*%+%-%?%.%[%%%(]" -- what makes Lua search with patterns

-- the end of the item (a single character class) that starts at i of
-- pattern p: a set [...], an escape %x, or one character
local function class_end(p, i)
    local c = str_sub(p, i, i)
    if c == "%" then return i + 1 end
    if c ~= "[" then return i end
    local j = i + 1
    if str_sub(p, j, j) == "^" then j = j + 1 end
    repeat -- the first ']' of a set is a character, not its end
        if j > #p then return #p end -- unclosed: Lua itself raises the error
        if str_sub(p, j, j) == "%" then j = j + 1 end
        j = j + 1
    until str_sub(p, j, j) == "]"
    return j
end

local function pattern_steps(n, p)
    if not str_find(p, MAGIC) then return (n + 1) * (#p + 1) end
    local steps, i = n + 1, 1
    if str_sub(p, 1, 1) == "^" then steps, i = 1, 2 end
    while i <= #p do
        local c = str_sub(p, i, i)
        if c == "(" or c == ")" then
            i = i + 1
        elseif c == "%" and str_sub(p, i + 1, i + 1) == "b" then
            steps, i = steps * (n + 1), i + 4
        elseif c == "%" and str_find(str_sub(p, i + 1, i + 1), "^[1-9]$") then
            steps, i = steps * (n + 1), i + 2
        elseif c == "%" and str_sub(p, i + 1, i + 1) == "f" then
            i = class_end(p, i + 2) + 1 -- a frontier matches no characters
        else
            local e = class_end(p, i)
            local q = str_sub(p, e + 1, e + 1)
            if q == "*" or q == "+" or q == "-" then
                steps, e = steps * (n + 1), e + 1
            elseif q == "?" then
                steps, e = steps * 2, e + 1
            end
            i = e + 1
        end
        if steps > MAX_PATTERN_STEPS * 1e3 then break end -- already far over
    end
    return steps + #p * (n + 1)
end

local function bound(fname, s, p)
    if type_(s) ~= "string" or type_(p) ~= "string" then return end
    local steps = pattern_steps(str_len(s), p)
    if steps > MAX_PATTERN_STEPS then
        error_(("%s: the pattern's worst case on a subject of %d bytes is about %.3g steps, "
            .. "more than the sandbox allows in one call (%g); use a plainer pattern or a shorter subject")
            :format(fname, str_len(s), steps, MAX_PATTERN_STEPS), 3)
    end
end

function string.find(s, p, init, plain)
    if plain or (type_(p) == "string" and not str_find(p, MAGIC)) then return find_plain(s, p, init) end
    bound("find", s, p)
    return str_find(s, p, init, plain)
end
function string.match(s, p, init)
    bound("match", s, p)
    return str_match(s, p, init)
end
function string.gmatch(s, p, init)
    bound("gmatch", s, p)
    return str_gmatch(s, p, init)
end
function string.gsub(s, p, repl, n)
    bound("gsub", s, p)
    return str_gsub(s, p, repl, n)
end

-- table.sort without a comparator compares in C; above a few thousand
-- elements, or when a metatable may give it more (a __len, an __index
-- table), it sorts with a Lua comparator, which the budgets can stop.
local raw_sort = table.sort
local function less(a, b) return a < b end
function table.sort(t, cmp)
    if cmp == nil and type_(t) == "table" and (rawlen_(t) > 4096 or raw_getmetatable(t) ~= nil) then
        cmp = less
    end
    return raw_sort(t, cmp)
end

-- Finalizers run with hooks off, after the move: no budget could stop one.
local function no_gc(mt)
    if type_(mt) == "table" and rawget_(mt, "__gc") ~= nil then
        error_("setmetatable: __gc metamethods are not allowed in the sandbox", 3)
    end
end
function setmetatable(t, mt)
    no_gc(mt)
    return raw_setmetatable(t, mt)
end
local function text_only(chunk)
    if type_(chunk) ~= "string" then return "load: only text chunks (strings) in the sandbox" end
    if chunk:byte(1) == 27 then return "load: binary chunks are not allowed in the sandbox" end
end
function load(chunk, name, mode, ...)
    local bad = text_only(chunk)
    if bad then return nil, bad end
    return raw_load(chunk, name, "t", ...)
end

local function copy(t, keys)
    local c = {}
    for _, k in ipairs_(keys) do c[k] = t[k] end
    return c
end

-- ---- The script's environment ----
local env = {}
for _, k in ipairs_(ALLOWED._G) do env[k] = _G[k] end
local owned = raw_setmetatable({}, {__mode = "k"}) -- metatables the script made

-- print goes to stderr: stdout belongs to the host (a tournament's table).
-- At most PRINT_MOVE bytes per move and PRINT_GAME per game (a new game is
-- seen when the move count falls back), then one note; control characters
-- other than tab and newline are shown escaped (\x1b, \u009b), so a script
-- cannot drive the terminal.
local stderr, concat = io.stderr, table.concat
local PRINT_MOVE, PRINT_GAME = 4096, 16384
local calls, printed_call, last_count, move_bytes, game_bytes, noted = 0, -1, -1, 0, 0, -1
local the_game -- the game object of the moves (ctl[2])
local function escape_control(c) return ("\\x%02x"):format(c:byte()) end
local function escape_c1(c) return ("\\u%04x"):format(c:byte()) end
env.print = function(...)
    if printed_call ~= calls then -- the first print of this move
        printed_call = calls
        local count = the_game and the_game.move_count or 0
        if count <= last_count then game_bytes = 0 end
        last_count, move_bytes = count, 0
    end
    local room = math.min(PRINT_MOVE - move_bytes, PRINT_GAME - game_bytes)
    if room > 0 then
        local n, t = select_("#", ...), {...}
        for i = 1, n do t[i] = tostring_(t[i]) end
        local text = str_gsub(str_gsub(concat(t, "\t", 1, n), "[\0-\8\11-\31\127]", escape_control),
            "\194([\128-\159])", escape_c1) -- the raw gsub: these patterns are linear
        if #text < room then
            move_bytes, game_bytes = move_bytes + #text + 1, game_bytes + #text + 1
            stderr:write(text, "\n")
            return
        end
        stderr:write(text:sub(1, room - 1), "\n")
        move_bytes, game_bytes = move_bytes + room, game_bytes + room
    end
    if noted ~= calls then -- once a move
        noted = calls
        stderr:write(("(print: output cut at %d bytes a move, %d a game)\n"):format(PRINT_MOVE, PRINT_GAME))
    end
end
env._G = env
-- on tables only; a metatable the script did not make cannot be replaced
env.setmetatable = function(t, mt)
    if type_(t) ~= "table" then error_("bad argument #1 to 'setmetatable' (table expected)", 2) end
    local old = raw_getmetatable(t)
    if old ~= nil and not owned[old] then error_("cannot change a protected metatable", 2) end
    if mt ~= nil then
        if type_(mt) ~= "table" then error_("bad argument #2 to 'setmetatable' (nil or table expected)", 2) end
        no_gc(mt)
        owned[mt] = true
    end
    return raw_setmetatable(t, mt)
end
env.getmetatable = function(t)
    if type_(t) ~= "table" then return nil end
    local mt = raw_getmetatable(t)
    if owned[mt] then return mt end
    if type_(mt) == "table" and rawget_(mt, "__metatable") ~= nil then return rawget_(mt, "__metatable") end
    return nil
end
-- collectgarbage: "collect" (the default), "step" (one step, whatever its
-- size argument) and "count". A
-- collection runs inside the script's call, so it counts against the
-- move's time like the collections Lua makes by itself; the options that
-- stop the collector or change its mode or pace are refused.
local gc = collectgarbage
env.collectgarbage = function(opt)
    if opt == nil or opt == "collect" then return gc("collect") end
    if opt == "count" then return gc("count") end
    if opt == "step" then return gc("step") end -- one step (a young collection)
    error_("collectgarbage: only \"collect\", \"step\" and \"count\" are available in the sandbox", 2)
end
-- xpcall: once the call's budget has run out, the hook raises on every
-- instruction, with hooks off while it runs; Lua would call the message
-- handler there, where nothing could stop one that spins. So the script's
-- handler is skipped then (the error goes through as it is).
local raw = {xpcall = xpcall} -- called as raw.xpcall, its errors name 'xpcall'
env.xpcall = function(f, handler, ...)
    if type_(handler) ~= "function" then return (raw.xpcall(f, handler, ...)) end -- its own error
    return raw.xpcall(f, function(e)
        if spent() then return e end
        return handler(e)
    end, ...)
end
env.load = function(chunk, name, mode, e)
    local bad = text_only(chunk)
    if bad then return nil, bad end
    return raw_load(chunk, name, "t", type_(e) == "table" and e or env)
end
env.string = copy(string, ALLOWED.string)
env.table = copy(table, ALLOWED.table)
env.utf8 = copy(utf8, ALLOWED.utf8)
env.os = copy(os, ALLOWED.os)
local m = copy(math, ALLOWED.math)
-- math.random on the player's own stream (mb.random is bound to it)
local tointeger, randbelow, random = math.tointeger, mb.randbelow, mb.random
m.random = function(lo, hi)
    if lo == nil then return random() end
    lo = tointeger(lo) or error_("bad argument #1 to 'random' (number has no integer representation)", 2)
    if hi == nil then lo, hi = 1, lo end
    hi = tointeger(hi) or error_("bad argument #2 to 'random' (number has no integer representation)", 2)
    if lo > hi then error_("bad argument to 'random' (interval is empty)", 2) end
    return lo + randbelow(hi - lo + 1)
end
m.randomseed = function() end -- the host seeds the stream
env.math = m

local api = copy(mb, ALLOWED.mb)
api.rules = copy(mb.rules, ALLOWED["mb.rules"])
-- mb.search_ai (what ai_abs_dls, ai_pvs_dls, ai_ab_iddfs and ai_pvs_iddfs
-- share): its debug lines go through print (stderr, bounded), never stdout
local search_ai = mb.search_ai
api.search_ai = {
    options = search_ai.options,
    root_answer = function(name, game, result, params)
        return search_ai.root_answer(name, game, result, params, env.print)
    end,
    depths_answer = function(name, game, result, params)
        return search_ai.depths_answer(name, game, result, params, env.print)
    end,
}
-- mb.ai inside the sandbox: further scripts by name only, into this same
-- environment (an AI, a function or a table as mb.ai takes them)
local loaded = {}
api.ai = function(spec)
    local ai = private.ai_of_value(spec)
    if ai then return ai end
    if type_(spec) ~= "string" then error_("bad argument #1 to 'ai' (AI name or function expected)", 2) end
    if loaded[spec] then return loaded[spec] end
    if str_find(spec, "/", 1, true) or str_find(spec, ".lua", -4, true) then
        error_(("the sandbox loads further scripts by name only, not '%s'"):format(spec), 2)
    end
    local chunk, where = private.resolve(spec, env)
    if not chunk then error_(where, 0) end
    ai = private.as_ai(chunk(spec, where), spec)
    loaded[spec] = ai
    return ai
end
env.mb = api
-- require: only the marubatsu module (the script's copy of it)
env.require = function(name)
    if name == "marubatsu" then return api end
    error_(("module '%s' is not available in the sandbox"):format(tostring_(name)), 2)
end

local ctl = {false, mb.Marubatsu(), mb.NO_PARAMS}
the_game = ctl[2]
-- compile(spec) -> start | nil, message; start() runs the main chunk
function ctl.compile(spec)
    local chunk, where = private.resolve(spec, env)
    if not chunk then return nil, where end
    return function()
        local ai = private.as_ai(chunk(spec, where), spec)
        local fn = ai.fn -- called directly: no __call dispatch per move
        ctl[1] = function(game, params)
            calls = calls + 1 -- for print's budget per move
            return fn(game, params)
        end
        ctl.ai = ai
        return tostring_(ai.name)
    end
end

-- check(params) -> nil | message: keys the player's AI does not take
-- (mb.check_params; player:check_params in the host)
function ctl.check(params)
    local ok, err = pcall(mb.check_params, ctl.ai, params)
    if not ok then return tostring_(err) end
end

-- tune() -> the AI's declared tunable parameters (mb.make_ai checked them:
-- plain tables of numbers) or an empty table; player:tune in the host
function ctl.tune()
    local out = {}
    for name, e in pairs_(ctl.ai.tune or {}) do
        out[name] = {default = e.default, min = e.min, max = e.max, step = e.step, integer = e.integer}
    end
    return out
end

-- inventory() -> sorted {"PATH TYPE", ...}: everything a script can reach
-- by indexing, from its environment and from the values it can make
-- without arguments it controls (a game, an AI, a string): a table's
-- fields, what getmetatable gives it, and the __index table of a value's
-- metatable (written index(PATH)), which indexing reaches. A table met
-- again is "PATH = FIRST PATH".
function ctl.inventory()
    local out, seen = {}, {}
    local function key(k)
        if type_(k) == "string" then return "." .. k end
        if type_(k) == "number" then return "[" .. tostring_(k) .. "]" end
        return "[" .. type_(k) .. "]"
    end
    local function walk(v, path)
        local t = type_(v)
        if t == "table" then
            if seen[v] then
                out[#out + 1] = path .. " = " .. seen[v]
                return
            end
            seen[v] = path
        end
        out[#out + 1] = path .. " " .. t
        if t == "table" then
            for k, x in pairs_(v) do walk(x, path .. key(k)) end
            local visible = env.getmetatable(v)
            if visible ~= nil then walk(visible, "getmetatable(" .. path .. ")") end
        end
        if t == "string" and path ~= "string" then return end -- one metatable for all
        local mt = rawmeta(v)
        local index = type_(mt) == "table" and rawget_(mt, "__index") or nil
        if type_(index) == "table" then walk(index, "index(" .. path .. ")") end
    end
    walk("", "string")
    walk(env, "_G")
    local g = api.Marubatsu()
    walk(g, "game")
    walk(api.make_ai("x", function() end), "ai")
    table.sort(out)
    return out
end

return ctl
