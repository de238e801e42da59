/* l_sandbox.c: mb.sandbox, AI scripts run in their own Lua states with
 * per-move budgets.
 *
 *   mb.sandbox.load(spec [, limits]) -> player | nil, message
 *   player:move(game, params) -> move | nil, reason
 *   player(game, params) -> move, or an error naming the reason
 *   player:stats() -> {memory, peak, baseline, instructions, overrun}
 *   player:close()  (also __close and __gc)
 *   player.name, .spec, .limits, .ai_name, .last_reason
 *   mb.sandbox.defaults   the default limits (instructions, time, memory)
 *
 * One player, one lua_State. load makes a new state with lua_newstate and a
 * capped allocator whose data is the player's budget, opens base, string,
 * table, math, utf8 and the marubatsu module in it (io and os only as
 * io.write/stdout/stderr and os.clock/time/date for the library), gives it
 * the host's mb.path, mb.scripts_dir and mb.lang, and points its module-level
 * random functions at the host's default stream (mb.stream), so mb.seed in
 * the host makes sandboxed and trusted AIs draw the same numbers; mb.seed is
 * an error inside. Then child_lua (below) hardens that state's globals (no
 * string.dump, dofile, loadfile; text-only load; no __gc metatables, whose
 * finalizers would run with hooks off) and builds the script's environment:
 * safe base functions, string, table, math (random on the host's stream),
 * utf8, os.clock/time/date, collectgarbage("count"), a copy of the mb API
 * without loadscript, reload, seed, stream, path, sandbox, ...; require
 * "marubatsu" gives that copy; mb.ai loads further scripts by name only. No
 * io, package, debug, coroutine, dofile, loadfile. The script is compiled by
 * the child's mb.loadscript (text chunks only).
 *
 * Budgets, per call (the script's main chunk and each move):
 *   instructions  a count hook on the child state; once exceeded it raises
 *                 on every instruction until the call unwinds, so the
 *                 script's pcall cannot swallow it
 *   time          seconds of wall clock: a POSIX timer whose signal
 *                 handler sets a count hook of 1 once the deadline passed
 *                 (see "The time budget" below)
 *   memory        bytes held by the whole child state (its allocator refuses
 *                 to go past the cap); an empty sandbox state with the
 *                 library part AI scripts use costs about 90 KiB
 *                 (player:stats().baseline)
 * A move copies the host's engine Game into the one game object the child
 * keeps for the player (lmb_game_assign) and the params (numbers, strings,
 * booleans, tables of them) into a fresh table, calls the AI, then compares
 * the child's game with the host's in C: changed is "tampered"; the result
 * must be a legal move of the host's game, which the script never sees.
 * Reasons: "time", "instructions", "memory", "error: <message>", "illegal
 * move: <what>", "tampered".
 *
 * Not covered: time spent inside one long C call (a pathological
 * string.find pattern) is only noticed when it returns. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lualib.h>

#include "budget.h"
#include "lmb.h"

#define PLAYER "marubatsu.SandboxPlayer"
#define MAX_PATH_DIRS 64    /* mb.path entries handed to a child */
#define MAX_MESSAGE 2000    /* bytes of an error message or a returned string */

typedef struct Player {
    Budget b;          /* first: the child's allocator data */
    lua_State *child;  /* NULL once closed */
    Game *game;        /* the engine Game of the child's game object */
    size_t baseline;   /* bytes held after loading */
    bool has_reason;   /* the fields table holds a last_reason */
} Player;

/* Keys of the child's registry. */
static const char ctl_key = 0;

static int child_panic(lua_State *L)
{
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
    fprintf(stderr, "marubatsu: unprotected error in a sandbox state: %s\n", msg);
    return 0; /* Lua aborts */
}

static int collect(lua_State *L)
{
    lua_gc(L, LUA_GCCOLLECT);
    return 0;
}

/* Push to the host the reason a child call failed: a budget's name, or
 * "error: <message>" from the error value on the child's top (strings and
 * numbers only: no script code runs to make it text). Empties the child's
 * stack; after a refused allocation, collects the child's garbage. */
static void push_reason(lua_State *L, Player *p, int status)
{
    lua_State *C = p->child;
    if (p->b.reason) {
        lua_pushstring(L, p->b.reason);
    } else if (status == LUA_ERRMEM) {
        lua_pushliteral(L, "memory");
    } else if (lua_type(C, -1) == LUA_TSTRING) {
        size_t n;
        const char *s = lua_tolstring(C, -1, &n);
        luaL_Buffer buf;
        luaL_buffinit(L, &buf);
        luaL_addstring(&buf, "error: ");
        luaL_addlstring(&buf, s, n > MAX_MESSAGE ? MAX_MESSAGE : n);
        if (n > MAX_MESSAGE) luaL_addstring(&buf, "...");
        luaL_pushresult(&buf);
    } else if (lua_type(C, -1) == LUA_TNUMBER) {
        char num[64];
        if (lua_isinteger(C, -1))
            snprintf(num, sizeof num, "%lld", (long long)lua_tointeger(C, -1));
        else
            snprintf(num, sizeof num, "%.14g", (double)lua_tonumber(C, -1));
        lua_pushfstring(L, "error: %s", num);
    } else {
        lua_pushfstring(L, "error: (error object is a %s value)", luaL_typename(C, -1));
    }
    bool memory = p->b.reason && strcmp(p->b.reason, "memory") == 0;
    lua_settop(C, 0);
    if (memory || status == LUA_ERRMEM) {
        /* start the next move clean (the refusal does not count now) */
        lua_pushcfunction(C, collect);
        lua_pcall(C, 0, 0, 0);
        lua_settop(C, 0);
    }
}

/* ---- Loading ---- */

/* What the host hands a new child state. */
typedef struct Setup {
    Player *p;
    Rng *rng;
    const char *scripts_dir, *lang;
    int npath;
    const char *path[MAX_PATH_DIRS];
} Setup;

/* The child's Lua half: hardens its globals, builds the script's
 * environment, returns ctl = {[1] = the AI (once started), [2] = the game
 * object of the moves, compile = function(spec)}. */
static const char child_lua[] =
    "local mb = ...\n"
    "local raw_load, raw_setmetatable, raw_getmetatable = load, setmetatable, getmetatable\n"
    "\n"
    "-- this state's own globals, where the library runs\n"
    "string.dump = nil\n"
    "dofile, loadfile = nil, nil\n"
    "io = {write = io.write, stdout = io.stdout, stderr = io.stderr}\n"
    "os = {clock = os.clock, time = os.time, date = os.date}\n"
    "-- finalizers run with hooks off, so no budget could stop one\n"
    "local function no_gc(mt)\n"
    "    if type(mt) == \"table\" and rawget(mt, \"__gc\") ~= nil then\n"
    "        error(\"setmetatable: __gc metamethods are not allowed in the sandbox\", 3)\n"
    "    end\n"
    "end\n"
    "function setmetatable(t, mt)\n"
    "    no_gc(mt)\n"
    "    return raw_setmetatable(t, mt)\n"
    "end\n"
    "local function text_only(chunk)\n"
    "    if type(chunk) ~= \"string\" then return \"load: only text chunks (strings) in the sandbox\" end\n"
    "    if chunk:byte(1) == 27 then return \"load: binary chunks are not allowed in the sandbox\" end\n"
    "end\n"
    "function load(chunk, name, mode, ...)\n"
    "    local bad = text_only(chunk)\n"
    "    if bad then return nil, bad end\n"
    "    return raw_load(chunk, name, \"t\", ...)\n"
    "end\n"
    "\n"
    "local function copy(t, except)\n"
    "    local c = {}\n"
    "    for k, v in pairs(t) do if not (except and except[k]) then c[k] = v end end\n"
    "    return c\n"
    "end\n"
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
    "local function basename(spec)\n"
    "    return ((spec:match(\"([^/]+)$\") or spec):gsub(\"%.lua$\", \"\"))\n"
    "end\n"
    "\n"
    "-- as the loader's as_ai: an AI, a function, or {name =, fn =}\n"
    "local function as_ai(value, spec)\n"
    "    if mb.is_ai(value) then return value end\n"
    "    if type(value) == \"function\" then return mb.make_ai(basename(spec), value) end\n"
    "    if type(value) == \"table\" and type(value.fn) == \"function\" then\n"
    "        return mb.make_ai(value.name or basename(spec), value.fn, value)\n"
    "    end\n"
    "    error((\"AI script '%s' returned %s; expected a function (game, params) -> move, \"\n"
    "        .. \"or a table {name = ..., fn = ...}\"):format(spec, type(value)), 0)\n"
    "end\n"
    "\n"
    "-- after the player's own script, further scripts load by name only\n"
    "local loadscript = mb.loadscript\n"
    "function mb.loadscript(spec, e)\n"
    "    if type(spec) == \"string\" and (spec:find(\"/\", 1, true) or spec:match(\"%.lua$\")) then\n"
    "        return nil, (\"the sandbox loads further scripts by name only, not '%s'\"):format(spec)\n"
    "    end\n"
    "    return loadscript(spec, e)\n"
    "end\n"
    "\n"
    "-- mb keys a script does not get: loading outside the sandbox, the\n"
    "-- stream and its seed, files and the terminal.\n"
    "local hidden = {\n"
    "    loadscript = true, reload = true, sandbox = true, path = true, scripts_dir = true,\n"
    "    seed = true, stream = true, embedded = true, list_scripts = true, isatty = true,\n"
    "    play = true, play_terminal = true, replay_terminal = true, show_progress = true,\n"
    "    load_bestmoves = true, ai = true,\n"
    "}\n"
    "\n"
    "-- the script's environment\n"
    "local env = {}\n"
    "local owned = raw_setmetatable({}, {__mode = \"k\"}) -- metatables the script made\n"
    "for _, k in ipairs {\"assert\", \"error\", \"ipairs\", \"next\", \"pairs\", \"pcall\", \"select\",\n"
    "    \"tonumber\", \"tostring\", \"type\", \"xpcall\", \"rawequal\", \"rawget\", \"rawset\", \"rawlen\"} do\n"
    "    env[k] = _G[k]\n"
    "end\n"
    "-- print goes to stderr: stdout belongs to the host (a tournament's table).\n"
    "-- At most PRINT_MOVE bytes per move and PRINT_GAME per game (a new game is\n"
    "-- seen when the move count falls back), then one note; control characters\n"
    "-- other than tab and newline are shown escaped (\\x1b, \\u009b), so a script\n"
    "-- cannot drive the terminal.\n"
    "local stderr, concat, select_, tostring_ = io.stderr, table.concat, select, tostring\n"
    "local PRINT_MOVE, PRINT_GAME = 4096, 16384\n"
    "local calls, printed_call, last_count, move_bytes, game_bytes, noted = 0, -1, -1, 0, 0, -1\n"
    "local the_game -- the game object of the moves (ctl[2])\n"
    "local function escape_control(c) return (\"\\\\x%02x\"):format(c:byte()) end\n"
    "local function escape_c1(c) return (\"\\\\u%04x\"):format(c:byte()) end\n"
    "env.print = function(...)\n"
    "    if printed_call ~= calls then -- the first print of this move\n"
    "        printed_call = calls\n"
    "        local count = the_game and the_game.move_count or 0\n"
    "        if count <= last_count then game_bytes = 0 end\n"
    "        last_count, move_bytes = count, 0\n"
    "    end\n"
    "    local room = math.min(PRINT_MOVE - move_bytes, PRINT_GAME - game_bytes)\n"
    "    if room > 0 then\n"
    "        local n, t = select_(\"#\", ...), {...}\n"
    "        for i = 1, n do t[i] = tostring_(t[i]) end\n"
    "        local text = concat(t, \"\\t\", 1, n):gsub(\"[\\0-\\8\\11-\\31\\127]\", escape_control):gsub(\"\\194([\\128-\\159])\", escape_c1)\n"
    "        if #text < room then\n"
    "            move_bytes, game_bytes = move_bytes + #text + 1, game_bytes + #text + 1\n"
    "            stderr:write(text, \"\\n\")\n"
    "            return\n"
    "        end\n"
    "        stderr:write(text:sub(1, room - 1), \"\\n\")\n"
    "        move_bytes, game_bytes = move_bytes + room, game_bytes + room\n"
    "    end\n"
    "    if noted ~= calls then -- once a move\n"
    "        noted = calls\n"
    "        stderr:write((\"(print: output cut at %d bytes a move, %d a game)\\n\"):format(PRINT_MOVE, PRINT_GAME))\n"
    "    end\n"
    "end\n"
    "env._VERSION = _VERSION\n"
    "env._G = env\n"
    "env.setmetatable = function(t, mt)\n"
    "    if type(t) ~= \"table\" then error(\"bad argument #1 to 'setmetatable' (table expected)\", 2) end\n"
    "    local old = raw_getmetatable(t)\n"
    "    if old ~= nil and not owned[old] then error(\"cannot change a protected metatable\", 2) end\n"
    "    if mt ~= nil then\n"
    "        if type(mt) ~= \"table\" then error(\"bad argument #2 to 'setmetatable' (nil or table expected)\", 2) end\n"
    "        no_gc(mt)\n"
    "        owned[mt] = true\n"
    "    end\n"
    "    return raw_setmetatable(t, mt)\n"
    "end\n"
    "env.getmetatable = function(t)\n"
    "    if type(t) ~= \"table\" then return nil end\n"
    "    local mt = raw_getmetatable(t)\n"
    "    if owned[mt] then return mt end\n"
    "    if type(mt) == \"table\" and rawget(mt, \"__metatable\") ~= nil then return rawget(mt, \"__metatable\") end\n"
    "    return nil\n"
    "end\n"
    "env.collectgarbage = function(opt)\n"
    "    if opt == \"count\" then return collectgarbage(\"count\") end\n"
    "    error(\"collectgarbage: only \\\"count\\\" is available in the sandbox\", 2)\n"
    "end\n"
    "env.load = function(chunk, name, mode, e)\n"
    "    local bad = text_only(chunk)\n"
    "    if bad then return nil, bad end\n"
    "    return raw_load(chunk, name, \"t\", type(e) == \"table\" and e or env)\n"
    "end\n"
    "env.string = copy(string)\n"
    "env.table = copy(table)\n"
    "env.utf8 = copy(utf8)\n"
    "env.os = {clock = os.clock, time = os.time, date = os.date}\n"
    "local m = copy(math)\n"
    "-- math.random on the host's stream (mb.random is bound to it)\n"
    "m.random = function(lo, hi)\n"
    "    if lo == nil then return mb.random() end\n"
    "    lo = math.tointeger(lo) or error(\"bad argument #1 to 'random' (number has no integer representation)\", 2)\n"
    "    if hi == nil then lo, hi = 1, lo end\n"
    "    hi = math.tointeger(hi) or error(\"bad argument #2 to 'random' (number has no integer representation)\", 2)\n"
    "    if lo > hi then error(\"bad argument to 'random' (interval is empty)\", 2) end\n"
    "    return lo + mb.randbelow(hi - lo + 1)\n"
    "end\n"
    "m.randomseed = function() end -- the host seeds the stream\n"
    "env.math = m\n"
    "local api = {}\n"
    "for k, v in pairs(mb) do\n"
    "    if not hidden[k] then api[k] = deepcopy(v) end\n"
    "end\n"
    "local loaded = {}\n"
    "-- mb.ai inside the sandbox: scripts by name, into this same environment\n"
    "api.ai = function(spec)\n"
    "    if mb.is_ai(spec) then return spec end\n"
    "    if type(spec) == \"function\" then return mb.make_ai(\"function\", spec) end\n"
    "    if type(spec) == \"table\" and type(spec.fn) == \"function\" then\n"
    "        return mb.make_ai(spec.name or \"table\", spec.fn, spec)\n"
    "    end\n"
    "    if type(spec) ~= \"string\" then error(\"bad argument #1 to 'ai' (AI name or function expected)\", 2) end\n"
    "    if loaded[spec] then return loaded[spec] end\n"
    "    local chunk, where = mb.loadscript(spec, env)\n"
    "    if not chunk then error(where, 0) end\n"
    "    local ai = as_ai(chunk(spec, where), spec)\n"
    "    loaded[spec] = ai\n"
    "    return ai\n"
    "end\n"
    "env.mb = api\n"
    "-- require: only the marubatsu module (the script's copy of it)\n"
    "env.require = function(name)\n"
    "    if name == \"marubatsu\" then return api end\n"
    "    error((\"module '%s' is not available in the sandbox\"):format(tostring(name)), 2)\n"
    "end\n"
    "\n"
    "local ctl = {false, mb.Marubatsu()}\n"
    "the_game = ctl[2]\n"
    "-- compile(spec) -> start | nil, message; start() runs the main chunk\n"
    "function ctl.compile(spec)\n"
    "    local chunk, where = loadscript(spec, env)\n"
    "    if not chunk then return nil, where end\n"
    "    return function()\n"
    "        local ai = as_ai(chunk(spec, where), spec)\n"
    "        local fn = ai.fn -- called directly: no __call dispatch per move\n"
    "        ctl[1] = function(game, params)\n"
    "            calls = calls + 1 -- for print's budget per move\n"
    "            return fn(game, params)\n"
    "        end\n"
    "        return tostring(ai.name)\n"
    "    end\n"
    "end\n"
    "return ctl\n";

/* In the child, protected: open the libraries, the module, and child_lua. */
static int child_setup(lua_State *L)
{
    Setup *s = lua_touserdata(L, 1);
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},         {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table},   {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},   {LUA_IOLIBNAME, luaopen_io},
        {LUA_OSLIBNAME, luaopen_os},       {NULL, NULL},
    };
    for (const luaL_Reg *lib = libs; lib->name; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushboolean(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lmb_sandbox_key);
    luaL_requiref(L, "marubatsu", luaopen_marubatsu, 0);
    int mb = lua_gettop(L);
    lua_pushstring(L, s->scripts_dir); /* NULL pushes nil */
    lua_setfield(L, mb, "scripts_dir");
    if (s->lang) {
        lua_pushstring(L, s->lang);
        lua_setfield(L, mb, "lang");
    }
    lua_createtable(L, s->npath, 0);
    for (int i = 0; i < s->npath; i++) {
        lua_pushstring(L, s->path[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, mb, "path");
    lmb_bind_default_stream(L, mb, s->rng);
    if (luaL_loadbufferx(L, child_lua, sizeof child_lua - 1, "=sandbox", "t") != LUA_OK)
        return lua_error(L);
    lua_pushvalue(L, mb);
    lua_call(L, 1, 1);
    lua_rawgeti(L, -1, 2);
    s->p->game = lmb_check_game(L, -1);
    lua_pop(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ctl_key);
    return 0;
}

/* In the child, protected: ctl.compile(spec) -> start | nil, message. */
static int child_compile(lua_State *L)
{
    const char *spec = lua_touserdata(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &ctl_key);
    lua_getfield(L, -1, "compile");
    lua_pushstring(L, spec);
    lua_call(L, 1, 2);
    return 2;
}

static Player *check_player(lua_State *L, int arg)
{
    Player *p = luaL_checkudata(L, arg, PLAYER);
    if (!p->child) luaL_error(L, "sandbox: the player is closed");
    return p;
}

static void close_player(Player *p)
{
    if (p->child) {
        lua_close(p->child);
        p->child = NULL;
        p->game = NULL;
    }
}

static int l_close(lua_State *L)
{
    close_player(luaL_checkudata(L, 1, PLAYER));
    return 0;
}

/* A limit of the table at t: a positive number, else 0 (none). */
static double limit_field(lua_State *L, int t, const char *name)
{
    lua_getfield(L, t, name);
    double v = lua_isnumber(L, -1) ? (double)lua_tonumber(L, -1) : 0;
    lua_pop(L, 1);
    return v > 0 ? v : 0;
}

/* new_player(spec, limits, name) -> player | nil, message; upvalues: the
 * host's mb, its default stream, the player metatable. */
static int l_new_player(lua_State *L)
{
    const char *spec = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checkstring(L, 3);
    lua_settop(L, 3);
    Player *p = lua_newuserdatauv(L, sizeof *p, 1);
    int pi = lua_gettop(L);
    memset(p, 0, sizeof *p);
    p->b.overrun = -1;
    double mem = limit_field(L, 2, "memory");
    p->b.max_memory = mem >= (double)SIZE_MAX ? 0 : (size_t)mem;
    double ins = limit_field(L, 2, "instructions");
    p->b.max_instructions = ins >= 9e18 ? 0 : (long long)ins;
    p->b.time_limit = limit_field(L, 2, "time");
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_setmetatable(L, pi);
    lua_createtable(L, 0, 6);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "spec");
    lua_pushvalue(L, 3);
    lua_setfield(L, -2, "name");
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "limits");
    lua_pushvalue(L, lua_upvalueindex(2)); /* keeps the stream alive */
    lua_setfield(L, -2, "stream");
    lua_setiuservalue(L, pi, 1);

    /* what the child gets from the host (strings anchored by mb) */
    Setup s = {.p = p, .rng = lua_touserdata(L, lua_upvalueindex(2))};
    int mb = lua_upvalueindex(1);
    lua_getfield(L, mb, "scripts_dir");
    s.scripts_dir = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_getfield(L, mb, "lang");
    s.lang = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (lua_getfield(L, mb, "path") == LUA_TTABLE) {
        for (lua_Integer i = 1; s.npath < MAX_PATH_DIRS; i++) {
            int t = lua_rawgeti(L, -1, i);
            const char *dir = t == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            lua_pop(L, 1);
            if (t == LUA_TNIL) break;
            if (dir) s.path[s.npath++] = dir;
        }
    }

    p->child = lua_newstate(budget_alloc, &p->b);
    if (!p->child) {
        lua_pushnil(L);
        lua_pushliteral(L, "memory");
        return 2;
    }
    lua_State *C = p->child;
    lua_atpanic(C, child_panic);
    /* generational collection: a move's garbage is young and the state
     * small, so the incremental collector would go round the whole library
     * every few hundred moves */
    lua_gc(C, LUA_GCGEN, 0, 0);
    lua_pushcfunction(C, child_setup);
    lua_pushlightuserdata(C, &s);
    int status = budget_pcall(&p->b, p->child, 1, 0, false);
    if (status == LUA_OK) {
        lua_pushcfunction(C, child_compile);
        lua_pushlightuserdata(C, (void *)(uintptr_t)spec);
        status = budget_pcall(&p->b, p->child, 1, 2, false);
    }
    if (status == LUA_OK && lua_isnil(C, -2)) { /* not found, or does not compile */
        lua_pushnil(L);
        if (lua_type(C, -1) == LUA_TSTRING)
            lua_pushstring(L, lua_tostring(C, -1));
        else
            lua_pushfstring(L, "AI script '%s' could not be loaded", spec);
        close_player(p);
        return 2;
    }
    if (status == LUA_OK) {
        lua_pop(C, 1);
        status = budget_pcall(&p->b, p->child, 0, 1, true);
    }
    if (status != LUA_OK) {
        lua_pushnil(L);
        push_reason(L, p, status);
        close_player(p);
        return 2;
    }
    lua_getiuservalue(L, pi, 1);
    lua_pushstring(L, lua_tostring(C, -1));
    lua_setfield(L, -2, "ai_name");
    lua_pop(L, 1);
    lua_settop(C, 0);
    p->baseline = p->b.used;
    lua_settop(L, pi);
    return 1;
}

/* ---- Moves ---- */

typedef struct MoveArgs {
    const Game *game;
    const char *params;
    size_t nparams;
} MoveArgs;

/* In the child, protected: -> ai, the game (now a copy of the host's),
 * a fresh params table. */
static int child_prepare(lua_State *L)
{
    MoveArgs *a = lua_touserdata(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &ctl_key);
    int ctl = lua_gettop(L);
    lua_rawgeti(L, ctl, 1);
    lua_rawgeti(L, ctl, 2);
    lmb_game_assign(L, -1, a->game);
    if (a->nparams == 0) {
        lua_newtable(L);
    } else {
        lmb_unpack_value(L, a->params);
    }
    return 3;
}

/* In the child, protected and under the budgets: prepare, then
 * ai(game, params) -> its result (one protected call per move). */
static int child_move(lua_State *L)
{
    child_prepare(L);
    lua_call(L, 2, 1);
    return 1;
}

static bool same_game(const Game *a, const Game *b)
{
    if (a->board.geom != b->board.geom || a->board.kind != b->board.kind ||
        a->board.counters != b->board.counters || a->turn != b->turn ||
        a->last_turn != b->last_turn || a->status != b->status ||
        a->move_count != b->move_count || a->last_move != b->last_move ||
        a->nrecords != b->nrecords || a->edited != b->edited)
        return false;
    if (memcmp(a->records, b->records, (size_t)a->nrecords * sizeof *a->records) != 0) return false;
    int n = game_geom(a)->ncells;
    for (int m = 0; m < n; m++)
        if (game_get(a, m) != game_get(b, m)) return false;
    return true;
}

static void set_reason_flag(lua_State *L, Player *p, bool has)
{
    if (!has && p->has_reason) {
        lua_getiuservalue(L, 1, 1);
        lua_pushnil(L);
        lua_setfield(L, -2, "last_reason");
        lua_pop(L, 1);
    }
    p->has_reason = has;
}

/* raw_move(player, game, params) -> move (legal) | nil, reason |
 * false, value, kind (an illegal result: scalars copied, else kind names
 * the type). The host's game is only read. */
static int l_raw_move(lua_State *L)
{
    Player *p = check_player(L, 1);
    const Game *hg = lmb_check_game(L, 2);
    MoveArgs a = {hg, NULL, 0};
    bool copy = false;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_settop(L, 3);
        lua_pushnil(L);
        copy = lua_next(L, 3) != 0; /* an empty table passes as a fresh one */
        lua_settop(L, 3);
    }
    if (copy) {
        a.params = lmb_pack_table(L, 3, &a.nparams); /* kept alive at 4, 5 */
    }
    lua_State *C = p->child;
    lua_settop(C, 0);
    lua_pushcfunction(C, child_move);
    lua_pushlightuserdata(C, &a);
    int status = budget_pcall(&p->b, p->child, 1, 1, true);
    if (status != LUA_OK) {
        lua_pushnil(L);
        push_reason(L, p, status);
        set_reason_flag(L, p, true);
        return 2;
    }
    if (!same_game(p->game, hg)) {
        lua_settop(C, 0);
        lua_pushnil(L);
        lua_pushliteral(L, "tampered");
        set_reason_flag(L, p, true);
        return 2;
    }
    int exact;
    lua_Integer m = lua_tointegerx(C, -1, &exact);
    if (exact && lua_isinteger(C, -1) && m >= 0 && m < game_geom(hg)->ncells &&
        hg->status == STATUS_PLAYING && game_get(hg, (int)m) == MARK_EMPTY) {
        lua_settop(C, 0);
        set_reason_flag(L, p, false);
        lua_pushinteger(L, m);
        return 1;
    }
    lua_pushboolean(L, 0);
    int n = 2;
    switch (lua_type(C, -1)) {
    case LUA_TNIL:
        lua_pushnil(L);
        break;
    case LUA_TBOOLEAN:
        lua_pushboolean(L, lua_toboolean(C, -1));
        break;
    case LUA_TNUMBER:
        if (lua_isinteger(C, -1))
            lua_pushinteger(L, lua_tointeger(C, -1));
        else
            lua_pushnumber(L, lua_tonumber(C, -1));
        break;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(C, -1, &len);
        lua_pushlstring(L, s, len > MAX_MESSAGE ? MAX_MESSAGE : len);
        break;
    }
    default:
        lua_pushnil(L);
        lua_pushstring(L, luaL_typename(C, -1));
        n = 3;
    }
    lua_settop(C, 0);
    set_reason_flag(L, p, true);
    return n;
}

/* fields(player) -> the table of name, spec, limits, ai_name, last_reason */
static int l_fields(lua_State *L)
{
    luaL_checkudata(L, 1, PLAYER);
    lua_getiuservalue(L, 1, 1);
    return 1;
}

/* player:stats() -> {memory =, peak =, baseline =, instructions =,
 * overrun =}: bytes the state holds now, at most, and after loading; the
 * instructions of the last call (to the hook's 1000); seconds from the
 * budget running out to the call's return (nil if none ran out). */
static int l_stats(lua_State *L)
{
    Player *p = check_player(L, 1);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, (lua_Integer)p->b.used);
    lua_setfield(L, -2, "memory");
    lua_pushinteger(L, (lua_Integer)p->b.peak);
    lua_setfield(L, -2, "peak");
    lua_pushinteger(L, (lua_Integer)p->baseline);
    lua_setfield(L, -2, "baseline");
    lua_pushinteger(L, (lua_Integer)p->b.count);
    lua_setfield(L, -2, "instructions");
    if (p->b.overrun >= 0) {
        lua_pushnumber(L, p->b.overrun);
        lua_setfield(L, -2, "overrun");
    }
    return 1;
}

/* The host's Lua half: limits, the player's methods, move checks. */
static const char host_lua[] =
    "local new_player, raw_move, fields, close, stats, Player = ...\n"
    "local sandbox = {}\n"
    "\n"
    "sandbox.defaults = {instructions = 10000000, time = 5, memory = 64 * 1024 * 1024}\n"
    "\n"
    "local function basename(spec)\n"
    "    return ((spec:match(\"([^/]+)$\") or spec):gsub(\"%.lua$\", \"\"))\n"
    "end\n"
    "\n"
    "local function describe(v, kind)\n"
    "    if kind ~= nil then return \"a \" .. kind .. \" value\" end\n"
    "    if v == nil then return \"nothing\" end\n"
    "    if type(v) == \"string\" then return (\"%q (a string)\"):format(v) end\n"
    "    if type(v) == \"number\" then return tostring(v) .. \" (not an integer)\" end\n"
    "    return \"a \" .. type(v) .. \" value\"\n"
    "end\n"
    "\n"
    "-- what is wrong with the result m of a move on g\n"
    "local function illegal(g, m, kind)\n"
    "    if math.type(m) ~= \"integer\" then return describe(m, kind) end\n"
    "    if not pcall(g.excel, g, m) then return tostring(m) .. \" (off the board)\" end\n"
    "    if g:getmark_by_move(m) ~= \".\" then return (\"%d (%s, occupied)\"):format(m, g:excel(m)) end\n"
    "    return (\"%d (%s, the game is over)\"):format(m, g:excel(m))\n"
    "end\n"
    "\n"
    "local function limits_of(t)\n"
    "    local l = {}\n"
    "    for k, v in pairs(sandbox.defaults) do l[k] = v end\n"
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
    "    return new_player(spec, limits_of(limits), basename(spec))\n"
    "end\n"
    "\n"
    "local methods = {close = close, stats = stats}\n"
    "\n"
    "-- player:move(game, params) -> move | nil, reason\n"
    "function methods.move(p, game, params)\n"
    "    local m, v, kind = raw_move(p, game, params)\n"
    "    if m then return m end\n"
    "    local reason = v\n"
    "    if m == false then reason = \"illegal move: \" .. illegal(game, v, kind) end\n"
    "    fields(p).last_reason = reason\n"
    "    return nil, reason\n"
    "end\n"
    "\n"
    "Player.__index = function(p, k)\n"
    "    local f = methods[k]\n"
    "    if f ~= nil then return f end\n"
    "    return fields(p)[k]\n"
    "end\n"
    "Player.__tostring = function(p) return \"sandboxed AI \" .. fields(p).name end\n"
    "-- a sandboxed player is also callable as an AI: errors on a failed move\n"
    "Player.__call = function(p, game, params)\n"
    "    local m, reason = methods.move(p, game, params)\n"
    "    if m == nil then error((\"%s: %s\"):format(fields(p).name, reason), 2) end\n"
    "    return m\n"
    "end\n"
    "\n"
    "return sandbox\n";

void lmb_open_sandbox(lua_State *L)
{
    int mb = lua_gettop(L);
    if (luaL_loadbufferx(L, host_lua, sizeof host_lua - 1, "=sandbox", "t") != LUA_OK)
        lua_error(L);
    luaL_newmetatable(L, PLAYER); /* sets __name */
    int mt = lua_gettop(L);
    lua_pushcfunction(L, l_close);
    lua_setfield(L, mt, "__gc");
    lua_pushcfunction(L, l_close);
    lua_setfield(L, mt, "__close");
    lua_pushvalue(L, mb);
    lua_getfield(L, mb, "stream");
    lmb_check_random(L, -1);
    lua_pushvalue(L, mt);
    lua_pushcclosure(L, l_new_player, 3);
    lua_pushcfunction(L, l_raw_move);
    lua_pushcfunction(L, l_fields);
    lua_pushcfunction(L, l_close);
    lua_pushcfunction(L, l_stats);
    lua_pushvalue(L, mt);
    lua_remove(L, mt);
    lua_call(L, 6, 1);
    lua_setfield(L, mb, "sandbox");
}
