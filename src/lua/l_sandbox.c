/* l_sandbox.c: mb.sandbox, AI scripts run in a restricted environment with
 * per-move budgets.
 *
 *   mb.sandbox.load(spec [, limits]) -> player | nil, message
 *   player:move(game, params) -> move | nil, reason
 *   mb.sandbox.defaults   the default limits (instructions, time, memory)
 *
 * spec goes through mb.loadscript (text chunks only) with a fresh
 * environment table per player: safe base functions, string (no dump),
 * table, math (random routed to the engine's default stream), utf8,
 * os = {clock, time, date}, collectgarbage("count") only, load of text
 * chunks only, and a per-player copy of the mb API (no loadscript, reload,
 * seed, stream, path, sandbox; mb.ai loads into the same sandbox), and
 * require "marubatsu" giving that copy. No io, package, debug, other
 * modules, dofile, loadfile, coroutine.
 *
 * Budgets, per call (the script's main chunk and each move):
 *   instructions  a count hook; once exceeded it raises on every tick until
 *                 the call unwinds, so the script's pcall cannot swallow it
 *   time          seconds of wall clock, checked in the same hook
 *   memory        bytes of net allocation: the state's allocator is wrapped
 *                 for the call and refuses to grow past the cap. The state is
 *                 shared with the host (one lua_State, not one per player),
 *                 so this counts net growth during the call only.
 * The script gets a copy of the game; its move is checked against the real
 * game, which is never handed out. Reasons: "time", "instructions",
 * "memory", "error: <message>", "illegal move: <what>", "tampered" (the copy
 * was changed when the script returned).
 *
 * Not covered yet: time spent inside one long C call (a pathological
 * string.find pattern) is only noticed when it returns. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lmb.h"

#define HOOK_EVERY 1000

typedef struct {
    lua_Alloc f;    /* the state's own allocator */
    void *ud;
    long long grown; /* net bytes allocated during the call */
    long long max_memory; /* <= 0: no cap */
    long long max_instructions; /* <= 0: no cap */
    long long instructions;
    double deadline; /* <= 0: none */
    int every;
    const char *reason; /* "instructions", "time", "memory" or NULL */
} Budget;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Budget *b = ud;
    long long delta = (long long)nsize - (ptr ? (long long)osize : 0);
    if (nsize > 0 && delta > 0 && b->max_memory > 0 && b->grown + delta > b->max_memory) {
        if (!b->reason) b->reason = "memory";
        return NULL;
    }
    void *p = b->f(b->ud, ptr, osize, nsize);
    if (p || nsize == 0) b->grown += delta;
    return p;
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    void *ud;
    if (lua_getallocf(L, &ud) != capped_alloc) return;
    Budget *b = ud;
    b->instructions += b->every;
    if (!b->reason && b->max_instructions > 0 && b->instructions >= b->max_instructions)
        b->reason = "instructions";
    if (!b->reason && b->deadline > 0 && now() > b->deadline) b->reason = "time";
    if (b->reason) {
        /* from now on every instruction raises, so the call unwinds */
        if (b->every != 1) {
            b->every = 1;
            lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
        }
        luaL_error(L, "sandbox: %s budget exceeded", b->reason);
    }
}

static long long limit_field(lua_State *L, int t, const char *name, double scale)
{
    lua_getfield(L, t, name);
    double v = lua_isnumber(L, -1) ? lua_tonumber(L, -1) * scale : 0;
    lua_pop(L, 1);
    return v > 0 ? (long long)v : 0;
}

/* run(limits, f, ...) -> true, results... | false, reason, message
 * f(...) under the budgets of limits {instructions =, time =, memory =};
 * reason is a budget's name or "error". Never raises for the call's sake. */
static int l_run(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    Budget b = {0};
    b.max_instructions = limit_field(L, 1, "instructions", 1);
    b.max_memory = limit_field(L, 1, "memory", 1);
    lua_getfield(L, 1, "time");
    double t = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : 0;
    lua_pop(L, 1);
    b.every = HOOK_EVERY;
    if (b.max_instructions > 0 && b.max_instructions < b.every) b.every = (int)b.max_instructions;
    int nargs = lua_gettop(L) - 2;
    lua_Hook old_hook = lua_gethook(L);
    int old_mask = lua_gethookmask(L), old_count = lua_gethookcount(L);
    b.f = lua_getallocf(L, &b.ud);
    if (b.f == capped_alloc) return luaL_error(L, "sandbox: nested sandboxed calls are not supported");
    b.deadline = t > 0 ? now() + t : 0;
    lua_setallocf(L, capped_alloc, &b);
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, b.every);
    int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
    lua_sethook(L, old_hook, old_mask, old_count);
    lua_setallocf(L, b.f, b.ud);
    if (status == LUA_OK && !b.reason) {
        int n = lua_gettop(L) - 1;
        lua_pushboolean(L, 1);
        lua_replace(L, 1);
        return n + 1;
    }
    /* the error value, as text without running any of the script's code */
    const char *msg;
    if (status == LUA_OK)
        msg = "(the script went on after its budget ran out)";
    else if (lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER)
        msg = lua_tostring(L, -1);
    else if (status == LUA_ERRMEM)
        msg = "not enough memory";
    else
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
    lua_pushboolean(L, 0);
    lua_pushstring(L, b.reason ? b.reason : "error");
    lua_pushstring(L, msg);
    return 3;
}

/* The Lua half: environments, players, move checks. */
static const char sandbox_lua[] =
    "local mb, run = ...\n"
    "local sandbox = {}\n"
    "\n"
    "sandbox.defaults = {instructions = 10000000, time = 5, memory = 64 * 1024 * 1024}\n"
    "\n"
    "-- mb keys a script does not get: loading outside the sandbox, the shared\n"
    "-- stream and its seed, files and the terminal.\n"
    "local hidden = {\n"
    "    loadscript = true, reload = true, sandbox = true, path = true, scripts_dir = true,\n"
    "    seed = true, stream = true, embedded = true, list_scripts = true, isatty = true,\n"
    "    play = true, play_terminal = true, replay_terminal = true, show_progress = true,\n"
    "    load_bestmoves = true, ai = true,\n"
    "}\n"
    "\n"
    "local function deepcopy(v, seen)\n"
    "    if type(v) ~= \"table\" then return v end\n"
    "    seen = seen or {}\n"
    "    if seen[v] then return seen[v] end\n"
    "    local t = {}\n"
    "    seen[v] = t\n"
    "    for k, x in pairs(v) do t[deepcopy(k, seen)] = deepcopy(x, seen) end\n"
    "    return t\n"
    "end\n"
    "\n"
    "local function copy(t, except)\n"
    "    local c = {}\n"
    "    for k, v in pairs(t) do if not (except and except[k]) then c[k] = v end end\n"
    "    return c\n"
    "end\n"
    "\n"
    "-- the methods of strings during a sandboxed call (no dump)\n"
    "local safe_string = copy(string, {dump = true})\n"
    "local string_meta = getmetatable(\"\")\n"
    "\n"
    "local function in_sandbox(limits, f, ...)\n"
    "    local saved = string_meta.__index\n"
    "    string_meta.__index = safe_string\n"
    "    local r = table.pack(run(limits, f, ...))\n"
    "    string_meta.__index = saved\n"
    "    return table.unpack(r, 1, r.n)\n"
    "end\n"
    "\n"
    "local function message_of(reason, msg)\n"
    "    if reason == \"error\" then return \"error: \" .. msg end\n"
    "    return reason\n"
    "end\n"
    "\n"
    "local function new_env(player)\n"
    "    local env = {}\n"
    "    local owned = setmetatable({}, {__mode = \"k\"}) -- metatables this player made\n"
    "    for _, k in ipairs {\"assert\", \"error\", \"ipairs\", \"next\", \"pairs\", \"pcall\", \"select\",\n"
    "        \"tonumber\", \"tostring\", \"type\", \"xpcall\", \"rawequal\", \"rawget\", \"rawset\", \"rawlen\",\n"
    "        \"print\"} do\n"
    "        env[k] = _G[k]\n"
    "    end\n"
    "    env._VERSION = _VERSION\n"
    "    env._G = env\n"
    "    env.setmetatable = function(t, mt)\n"
    "        if type(t) ~= \"table\" then error(\"bad argument #1 to 'setmetatable' (table expected)\", 2) end\n"
    "        local old = getmetatable(t)\n"
    "        if old ~= nil and not owned[old] then error(\"cannot change a protected metatable\", 2) end\n"
    "        if mt ~= nil then\n"
    "            if type(mt) ~= \"table\" then error(\"bad argument #2 to 'setmetatable' (nil or table expected)\", 2) end\n"
    "            owned[mt] = true\n"
    "        end\n"
    "        return setmetatable(t, mt)\n"
    "    end\n"
    "    env.getmetatable = function(t)\n"
    "        if type(t) ~= \"table\" then return nil end\n"
    "        local mt = getmetatable(t)\n"
    "        if owned[mt] then return mt end\n"
    "        if type(mt) == \"table\" and rawget(mt, \"__metatable\") ~= nil then return rawget(mt, \"__metatable\") end\n"
    "        return nil\n"
    "    end\n"
    "    env.collectgarbage = function(opt)\n"
    "        if opt == \"count\" then return collectgarbage(\"count\") end\n"
    "        error(\"collectgarbage: only \\\"count\\\" is available in the sandbox\", 2)\n"
    "    end\n"
    "    env.load = function(chunk, name, mode, e)\n"
    "        if type(chunk) ~= \"string\" then return nil, \"load: only text chunks (strings) in the sandbox\" end\n"
    "        if chunk:byte(1) == 27 then return nil, \"load: binary chunks are not allowed in the sandbox\" end\n"
    "        return load(chunk, name, \"t\", type(e) == \"table\" and e or env)\n"
    "    end\n"
    "    env.string = copy(safe_string)\n"
    "    env.table = copy(table)\n"
    "    env.utf8 = copy(utf8)\n"
    "    env.os = {clock = os.clock, time = os.time, date = os.date}\n"
    "    local m = copy(math)\n"
    "    m.random = function(lo, hi)\n"
    "        if lo == nil then return mb.random() end\n"
    "        lo = math.tointeger(lo) or error(\"bad argument #1 to 'random' (number has no integer representation)\", 2)\n"
    "        if hi == nil then lo, hi = 1, lo end\n"
    "        hi = math.tointeger(hi) or error(\"bad argument #2 to 'random' (number has no integer representation)\", 2)\n"
    "        if lo > hi then error(\"bad argument to 'random' (interval is empty)\", 2) end\n"
    "        return lo + mb.randbelow(hi - lo + 1)\n"
    "    end\n"
    "    m.randomseed = function() end -- the engine's stream is seeded by mb.seed only\n"
    "    env.math = m\n"
    "    local api = {}\n"
    "    for k, v in pairs(mb) do\n"
    "        if not hidden[k] then api[k] = deepcopy(v) end\n"
    "    end\n"
    "    local loaded = {}\n"
    "    -- mb.ai inside the sandbox: scripts load into this same environment\n"
    "    api.ai = function(spec)\n"
    "        if mb.is_ai(spec) then return spec end\n"
    "        if type(spec) == \"function\" then return mb.make_ai(\"function\", spec) end\n"
    "        if type(spec) == \"table\" and type(spec.fn) == \"function\" then\n"
    "            return mb.make_ai(spec.name or \"table\", spec.fn, spec)\n"
    "        end\n"
    "        if type(spec) ~= \"string\" then error(\"bad argument #1 to 'ai' (AI name or function expected)\", 2) end\n"
    "        if loaded[spec] then return loaded[spec] end\n"
    "        local chunk, where = mb.loadscript(spec, env)\n"
    "        if not chunk then error(where, 0) end\n"
    "        local ai = player.as_ai(chunk(spec, where), spec)\n"
    "        loaded[spec] = ai\n"
    "        return ai\n"
    "    end\n"
    "    env.mb = api\n"
    "    -- require: only the marubatsu module (this player's copy of it)\n"
    "    env.require = function(name)\n"
    "        if name == \"marubatsu\" then return api end\n"
    "        error((\"module '%s' is not available in the sandbox\"):format(tostring(name)), 2)\n"
    "    end\n"
    "    return env\n"
    "end\n"
    "\n"
    "local function basename(spec)\n"
    "    return ((spec:match(\"([^/]+)$\") or spec):gsub(\"%.lua$\", \"\"))\n"
    "end\n"
    "\n"
    "local Player = {}\n"
    "Player.__index = Player\n"
    "Player.__name = \"marubatsu.SandboxPlayer\"\n"
    "Player.__tostring = function(p) return \"sandboxed AI \" .. p.name end\n"
    "\n"
    "-- as the loader's as_ai: an AI, a function, or {name =, fn =}\n"
    "function Player.as_ai(value, spec)\n"
    "    if mb.is_ai(value) then return value end\n"
    "    if type(value) == \"function\" then return mb.make_ai(basename(spec), value) end\n"
    "    if type(value) == \"table\" and type(value.fn) == \"function\" then\n"
    "        return mb.make_ai(value.name or basename(spec), value.fn, value)\n"
    "    end\n"
    "    error((\"AI script '%s' returned %s; expected a function (game, params) -> move, \"\n"
    "        .. \"or a table {name = ..., fn = ...}\"):format(spec, type(value)), 0)\n"
    "end\n"
    "\n"
    "local function snapshot(g)\n"
    "    local r = g.records\n"
    "    return table.concat({g:board_to_str(), tostring(g.status), tostring(g.turn),\n"
    "        tostring(g.last_turn), tostring(g.move_count), tostring(g.last_move),\n"
    "        table.concat(r, \",\", 1, #r)}, \"|\")\n"
    "end\n"
    "\n"
    "local function describe(v)\n"
    "    if v == nil then return \"nothing\" end\n"
    "    if type(v) == \"string\" then return (\"%q (a string)\"):format(v) end\n"
    "    if type(v) == \"number\" then return tostring(v) .. \" (not an integer)\" end\n"
    "    return \"a \" .. type(v) .. \" value\"\n"
    "end\n"
    "\n"
    "-- nil if m is a legal move of g, else what is wrong with it\n"
    "local function illegal(g, m)\n"
    "    if math.type(m) ~= \"integer\" then return describe(m) end\n"
    "    for _, l in ipairs(g:calc_legal_moves()) do\n"
    "        if l == m then return nil end\n"
    "    end\n"
    "    if not pcall(g.excel, g, m) then return tostring(m) .. \" (off the board)\" end\n"
    "    if g:getmark_by_move(m) ~= \".\" then return (\"%d (%s, occupied)\"):format(m, g:excel(m)) end\n"
    "    return (\"%d (%s, the game is over)\"):format(m, g:excel(m))\n"
    "end\n"
    "\n"
    "local function limits_of(t)\n"
    "    local l = copy(sandbox.defaults)\n"
    "    if t ~= nil then\n"
    "        if type(t) ~= \"table\" then error(\"bad argument #2 to 'load' (table of limits expected)\", 3) end\n"
    "        for _, k in ipairs {\"instructions\", \"time\", \"memory\"} do\n"
    "            if t[k] ~= nil then\n"
    "                if t[k] ~= false and type(t[k]) ~= \"number\" then\n"
    "                    error((\"bad limit '%s' (number or false expected)\"):format(k), 3)\n"
    "                end\n"
    "                l[k] = t[k] or nil\n"
    "            end\n"
    "        end\n"
    "    end\n"
    "    return l\n"
    "end\n"
    "\n"
    "-- mb.sandbox.load(spec [, limits]) -> player | nil, message\n"
    "function sandbox.load(spec, limits)\n"
    "    if type(spec) ~= \"string\" then error(\"bad argument #1 to 'load' (string expected)\", 2) end\n"
    "    local p = setmetatable({spec = spec, name = basename(spec), limits = limits_of(limits)}, Player)\n"
    "    p.env = new_env(p)\n"
    "    local chunk, where = mb.loadscript(spec, p.env)\n"
    "    if not chunk then return nil, where end\n"
    "    p.where = where\n"
    "    local ok, value, msg = in_sandbox(p.limits, function()\n"
    "        return Player.as_ai(chunk(spec, where), spec)\n"
    "    end)\n"
    "    if not ok then return nil, message_of(value, msg) end\n"
    "    p.ai = value\n"
    "    return p\n"
    "end\n"
    "\n"
    "-- player:move(game, params) -> move | nil, reason\n"
    "function Player:move(game, params)\n"
    "    local copy_ = game:copy()\n"
    "    local before = snapshot(copy_)\n"
    "    local real = snapshot(game)\n"
    "    local pcopy = {}\n"
    "    if type(params) == \"table\" then for k, v in pairs(params) do pcopy[k] = v end end\n"
    "    local ai = self.ai\n"
    "    local ok, move, msg = in_sandbox(self.limits, function(g, prm)\n"
    "        local m = ai(g, prm)\n"
    "        return m\n"
    "    end, copy_, pcopy)\n"
    "    assert(snapshot(game) == real, \"sandbox: the engine's game changed\")\n"
    "    if not ok then\n"
    "        self.last_reason = message_of(move, msg)\n"
    "        return nil, self.last_reason\n"
    "    end\n"
    "    if snapshot(copy_) ~= before then\n"
    "        self.last_reason = \"tampered\"\n"
    "        return nil, \"tampered\"\n"
    "    end\n"
    "    local what = illegal(game, move)\n"
    "    if what then\n"
    "        self.last_reason = \"illegal move: \" .. what\n"
    "        return nil, self.last_reason\n"
    "    end\n"
    "    self.last_reason = nil\n"
    "    return move\n"
    "end\n"
    "\n"
    "-- a sandboxed player is also callable as an AI: errors on a failed move\n"
    "Player.__call = function(p, game, params)\n"
    "    local m, reason = p:move(game, params)\n"
    "    if m == nil then error((\"%s: %s\"):format(p.name, reason), 2) end\n"
    "    return m\n"
    "end\n"
    "\n"
    "return sandbox\n"
    ;

void lmb_open_sandbox(lua_State *L)
{
    int mb = lua_gettop(L);
    if (luaL_loadbufferx(L, sandbox_lua, sizeof sandbox_lua - 1, "=sandbox", "t") != LUA_OK)
        lua_error(L);
    lua_pushvalue(L, mb);
    lua_pushcfunction(L, l_run);
    lua_call(L, 2, 1);
    lua_setfield(L, mb, "sandbox");
}
