/* l_sandbox.c: mb.sandbox, AI scripts run in their own Lua states with
 * per-move budgets.
 *
 *   mb.sandbox.load(spec [, limits]) -> player | nil, message
 *   player:move(game, params) -> move | nil, reason
 *   player(game, params) -> move, or an error naming the reason
 *   player:stats() -> {memory, peak, baseline, instructions, overrun}
 *   player:set_time(seconds | false) -> previous   (the time budget of next moves)
 *   player:close()  (also __close and __gc)
 *   player.name, .spec, .limits, .ai_name, .last_reason, .broken
 *   mb.sandbox.defaults   the default limits (time, memory; instructions
 *                         is opt-in)
 *
 * One player, one lua_State. load makes a new state with lua_newstate and a
 * capped allocator whose data is the player's budget, opens base, string,
 * table, math, utf8 and the marubatsu module in it (the part of the library
 * AI scripts use; no host library), gives it the host's mb.path,
 * mb.scripts_dir and mb.lang, and points its module-level random functions
 * at the player's own stream (Player.rng, seeded by player:seed; mb.seed is
 * an error inside). Then scripts/lib/sandbox_env.lua hardens that state's
 * globals and builds the script's environment from its allow-list (see
 * docs/lua-api.md §5.10); mb.sandbox itself, the limits and the player's
 * methods are scripts/lib/sandbox.lua. The script is compiled by the one
 * loader (mb.loadscript, text chunks only).
 *
 * Budgets, per call (the script's main chunk and each move):
 *   instructions  (opt-in) a count hook on the child state; once exceeded
 *                 it raises on every instruction until the call unwinds,
 *                 so the script's pcall cannot swallow it. While a count
 *                 hook is set Lua checks it at every VM instruction, so
 *                 this budget slows the script's Lua code (l_budget.c)
 *   time          seconds of wall clock: a POSIX timer whose signal
 *                 handler sets a count hook of 1 once the deadline passed
 *                 (see "The time budget" in l_budget.c); nothing per
 *                 instruction
 *   memory        bytes held by the whole child state (its allocator refuses
 *                 to go past the cap, after one emergency collection); an
 *                 empty sandbox state with the library part AI scripts
 *                 use costs about 90 KiB (player:stats().baseline)
 * Collections run inside the calls and count against their time; a move
 * that returns more than BUDGET_LATE_RESET past its deadline ran
 * something no budget could stop (a collection made slow by the script's
 * data), so its state is closed and the script loaded anew (player_reset;
 * if that fails, the player is broken: its moves fail with the load's
 * reason, player.broken). The host never collects a child's garbage.
 * A move copies the host's engine Game into the one game object the child
 * keeps for the player (lmb_game_assign) and the params (numbers, strings,
 * booleans, tables of them) into a fresh table, calls the AI, then compares
 * the child's game with the host's in C: changed is "tampered"; the result
 * must be a legal move of the host's game, which the script never sees.
 * Reasons: "time", "instructions", "memory", "error: <message>", "illegal
 * move: <what>", "tampered".
 *
 * Long C calls: pattern functions bound their worst case before running
 * (sandbox_env.lua); string.rep, plain string.find, table.insert, remove
 * and move are the child's own versions whose loops look at the budgets
 * (l_bounded.c), as does mb.shuffle; the searches and the solver take the
 * player's deadline and memory cap (l_budget.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lualib.h>

#include "l_bounded.h"
#include "l_budget.h"
#include "l_game.h"
#include "l_random.h"
#include "l_sandbox.h"
#include "l_transfer.h"

#define PLAYER        "marubatsu.SandboxPlayer"
#define MAX_PATH_DIRS 64   /* mb.path entries handed to a child */
#define MAX_MESSAGE   2000 /* bytes of an error message or a returned string */

typedef struct Player {
    Budget b;         /* first: the child's allocator data */
    Rng rng;          /* the player's own stream (its mb.random, ...) */
    lua_State *child; /* NULL once closed */
    Game *game;       /* the engine Game of the child's game object */
    size_t baseline;  /* bytes held after loading */
    double load_time; /* the time budget it was loaded with (0: none) */
    bool has_reason;  /* the fields table holds a last_reason */
    bool broken;      /* its script failed to load again: fields.broken says why */
} Player;

/* Keys of the child's registry. */

static int child_panic(lua_State *L)
{
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
    fprintf(stderr, "marubatsu: unprotected error in a sandbox state: %s\n", msg);
    return 0; /* Lua aborts */
}

/* Push to the host the reason a child call failed: a budget's name, or
 * "error: <message>" from the error value on the child's top (strings and
 * numbers only: no script code runs to make it text). Empties the child's
 * stack. Nothing collects the child's garbage here: a collection can run
 * for as long as the script's data makes it (see l_budget.h), so it only
 * runs inside the script's own calls, under their budgets (Lua collects
 * before a refused allocation is refused for good). */
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
    lua_settop(C, 0);
}

/* ---- Loading ---- */

/* What the host hands a new child state. */
typedef struct Setup {
    Player *p;
    Rng *rng;
    const char *scripts_dir, *lang;
    int npath;
    const char *path[MAX_PATH_DIRS];
    lua_CFunction open_module; /* luaopen_marubatsu */
} Setup;

/* In the child: the metatable of any value, raw (for the inventory of
 * scripts/lib/sandbox_env.lua; never given to the script). */
static int child_rawmeta(lua_State *L)
{
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) lua_pushnil(L);
    return 1;
}

/* In the child, protected: open the libraries, the module, and
 * scripts/lib/sandbox_env.lua (the script's environment). */
static int child_setup(lua_State *L)
{
    Setup *s = lua_touserdata(L, 1);
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_IOLIBNAME, luaopen_io},
        {LUA_OSLIBNAME, luaopen_os},     {NULL, NULL},
    };
    for (const luaL_Reg *lib = libs; lib->name; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_SANDBOXED_KEY);
    budget_attach(L, &s->p->b);
    luaL_requiref(L, "marubatsu", s->open_module, 0);
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
    lmb_push_library(L, "lib/sandbox_env");
    lua_pushcfunction(L, child_rawmeta);
    lmb_push_bounded(L);
    lua_pushcfunction(L, budget_spent);
    lua_call(L, 5, 1);
    lua_rawgeti(L, -1, 2);
    s->p->game = lmb_check_game(L, -1);
    lua_pop(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_SANDBOX_CTL_KEY);
    return 0;
}

/* In the child, protected: ctl.compile(spec) -> start | nil, message. */
static int child_compile(lua_State *L)
{
    const char *spec = lua_touserdata(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_SANDBOX_CTL_KEY);
    lua_getfield(L, -1, "compile");
    lua_pushstring(L, spec);
    lua_call(L, 1, 2);
    return 2;
}

/* The player at arg, with its state (a broken player has none, but its
 * moves, stats, seed and time budget still answer: with_state false). */
static Player *check_player_state(lua_State *L, int arg, bool with_state)
{
    Player *p = luaL_checkudata(L, arg, PLAYER);
    if (!p->child && (with_state || !p->broken)) luaL_error(L, "sandbox: the player is closed");
    return p;
}

static Player *check_player(lua_State *L, int arg) { return check_player_state(L, arg, true); }

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
    Player *p = luaL_checkudata(L, 1, PLAYER);
    close_player(p);
    p->broken = false;
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

/* Make p's state and load the script spec into it: the libraries, the
 * module and the environment, then (unless no_script) the script, whose
 * main chunk runs under the budgets with p->b.time_limit. The player
 * userdata is at pi; upvalues of the running function: the host's mb, -,
 * luaopen_marubatsu. true, or false with p closed and the reason pushed. */
static bool player_open(lua_State *L, Player *p, int pi, const char *spec, bool no_script)
{
    int top = lua_gettop(L);
    /* what the child gets from the host (strings anchored by mb) */
    Setup s = {.p = p, .rng = &p->rng, .open_module = lua_tocfunction(L, lua_upvalueindex(3))};
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
        lua_settop(L, top);
        lua_pushliteral(L, "memory");
        return false;
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
    if (status == LUA_OK && no_script) {
        p->baseline = p->b.used;
        lua_settop(L, top);
        return true;
    }
    if (status == LUA_OK) {
        lua_pushcfunction(C, child_compile);
        lua_pushlightuserdata(C, (void *)(uintptr_t)spec);
        status = budget_pcall(&p->b, p->child, 1, 2, false);
    }
    if (status == LUA_OK && lua_isnil(C, -2)) { /* not found, or does not compile */
        lua_settop(L, top);
        if (lua_type(C, -1) == LUA_TSTRING)
            lua_pushstring(L, lua_tostring(C, -1));
        else
            lua_pushfstring(L, "AI script '%s' could not be loaded", spec);
        close_player(p);
        return false;
    }
    if (status == LUA_OK) {
        lua_pop(C, 1);
        status = budget_pcall(&p->b, p->child, 0, 1, true);
    }
    lua_settop(L, top);
    if (status != LUA_OK) {
        push_reason(L, p, status);
        close_player(p);
        return false;
    }
    lua_getiuservalue(L, pi, 1);
    lua_pushstring(L, lua_tostring(C, -1));
    lua_setfield(L, -2, "ai_name");
    lua_pop(L, 1);
    lua_settop(C, 0);
    p->baseline = p->b.used;
    return true;
}

/* new_player(spec, limits, name [, no_script]) -> player | nil, message;
 * upvalues: the host's mb, the player metatable, luaopen_marubatsu. With
 * no_script the state is made but no script is loaded (for the
 * inventory). */
static int l_new_player(lua_State *L)
{
    const char *spec = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checkstring(L, 3);
    bool no_script = lua_toboolean(L, 4); /* mb.sandbox.inventory's state */
    lua_settop(L, 3);
    Player *p = lua_newuserdatauv(L, sizeof *p, 1);
    int pi = lua_gettop(L);
    memset(p, 0, sizeof *p);
    p->b.overrun = -1;
    p->b.late = -1;
    /* a fraction rounds up: 0 would mean no budget at all */
    double mem = ceil(limit_field(L, 2, "memory"));
    p->b.max_memory = mem >= (double)SIZE_MAX ? 0 : (size_t)mem;
    double ins = ceil(limit_field(L, 2, "instructions"));
    p->b.max_instructions = ins >= 9e18 ? 0 : (long long)ins;
    p->b.time_limit = limit_field(L, 2, "time");
    p->load_time = p->b.time_limit;
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_setmetatable(L, pi);
    lua_createtable(L, 0, 6);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "spec");
    lua_pushvalue(L, 3);
    lua_setfield(L, -2, "name");
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "limits");
    lua_setiuservalue(L, pi, 1);
    rng_seed(&p->rng, 0); /* the host seeds it (player:seed) */
    if (!player_open(L, p, pi, spec, no_script)) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_settop(L, pi);
    return 1;
}

/* After a call that ran more than BUDGET_LATE_RESET past its deadline: the
 * state held something no budget could stop in time (a collection made
 * slow by the script's data, a long C call), so it is not run again. The
 * script is loaded anew into a new state, as it was first (its load-time
 * time budget); the player's random stream goes on. If that load fails,
 * the player is broken: its moves fail with the load's reason. */
static void player_reset(lua_State *L, Player *p, int pi)
{
    int top = lua_gettop(L);
    /* the stats of the call that failed, not of the reload's */
    double overrun = p->b.overrun, late = p->b.late;
    long long count = p->b.count;
    close_player(p);
    lua_getiuservalue(L, pi, 1);
    int fields = lua_gettop(L);
    lua_getfield(L, fields, "spec");
    double time_limit = p->b.time_limit;
    p->b.time_limit = p->load_time;
    if (!player_open(L, p, pi, lua_tostring(L, -1), false)) {
        p->broken = true;
        lua_setfield(L, fields, "broken");
    }
    p->b.time_limit = time_limit;
    p->b.overrun = overrun;
    p->b.late = late;
    p->b.count = count;
    lua_settop(L, top);
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
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_SANDBOX_CTL_KEY);
    int ctl = lua_gettop(L);
    lua_rawgeti(L, ctl, 1);
    lua_rawgeti(L, ctl, 2);
    lmb_game_assign(L, -1, a->game);
    if (a->nparams == 0) {
        lua_rawgeti(L, ctl, 3); /* mb.NO_PARAMS: no table made per move */
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
        a->last_turn != b->last_turn || a->status != b->status || a->move_count != b->move_count ||
        a->last_move != b->last_move || a->nrecords != b->nrecords || a->edited != b->edited)
        return false;
    if (memcmp(a->records, b->records, (size_t)a->nrecords * sizeof *a->records) != 0) return false;
    /* games never edited and not replaying: the records make the board */
    if (!a->edited && a->nrecords == a->move_count + 1) return true;
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
    Player *p = check_player_state(L, 1, false);
    const Game *hg = lmb_check_game(L, 2);
    if (p->broken) {
        lua_pushnil(L);
        lua_getiuservalue(L, 1, 1);
        lua_getfield(L, -1, "broken");
        lua_remove(L, -2);
        set_reason_flag(L, p, true);
        return 2;
    }
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
        if (p->b.late > BUDGET_LATE_RESET) player_reset(L, p, 1);
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
    case LUA_TNIL: lua_pushnil(L); break;
    case LUA_TBOOLEAN: lua_pushboolean(L, lua_toboolean(C, -1)); break;
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
 * instructions of the last call (to the hook's 1000; nil without an
 * instruction budget: then no hook counts them); seconds from the budget
 * running out to the call's return (nil if none ran out). */
static int l_stats(lua_State *L)
{
    Player *p = check_player_state(L, 1, false);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, (lua_Integer)p->b.used);
    lua_setfield(L, -2, "memory");
    lua_pushinteger(L, (lua_Integer)p->b.peak);
    lua_setfield(L, -2, "peak");
    lua_pushinteger(L, (lua_Integer)p->baseline);
    lua_setfield(L, -2, "baseline");
    if (p->b.max_instructions) {
        lua_pushinteger(L, (lua_Integer)p->b.count);
        lua_setfield(L, -2, "instructions");
    }
    if (p->b.overrun >= 0) {
        lua_pushnumber(L, p->b.overrun);
        lua_setfield(L, -2, "overrun");
    }
    return 1;
}

/* In the child, protected: ctl.check(the params unpacked) -> nil | message. */
static int child_check(lua_State *L)
{
    const char *bytes = lua_touserdata(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_SANDBOX_CTL_KEY);
    lua_getfield(L, -1, "check");
    lmb_unpack_value(L, bytes);
    lua_call(L, 1, 1);
    return 1;
}

/* player:check_params(params) -> true | nil, message | nil, reason, true:
 * whether the player's AI takes every key of params (mb.check_params run in
 * its state, on a copy; an AI that lists no parameters takes anything).
 * The check reads the script's own tables (its AI's params, which may
 * have metamethods), so it runs under the budgets of a move; a budget that
 * runs out gives the move's reason ("time", "instructions", "memory") and
 * true: the script failed, not the parameters. */
static int l_check_params(lua_State *L)
{
    Player *p = check_player(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    size_t len;
    const char *bytes = lmb_pack_table(L, 2, &len); /* kept alive at 3, 4 */
    lua_State *C = p->child;
    lua_settop(C, 0);
    lua_pushcfunction(C, child_check);
    lua_pushlightuserdata(C, (void *)bytes);
    int status = budget_pcall(&p->b, C, 1, 1, true);
    if (status != LUA_OK) {
        lua_pushnil(L);
        push_reason(L, p, status);
        lua_pushboolean(L, 1);
        return 3;
    }
    if (lua_type(C, -1) == LUA_TSTRING) {
        lua_pushnil(L);
        lua_pushstring(L, lua_tostring(C, -1));
        lua_settop(C, 0);
        return 2;
    }
    lua_settop(C, 0);
    lua_pushboolean(L, 1);
    return 1;
}


/* In the child, protected: ctl[NAME]() (NAME the third argument: "tune",
 * "inventory") packed for the host into *bytes, *len (the first two). */
static int child_packed(lua_State *L)
{
    const char **bytes = lua_touserdata(L, 1);
    size_t *len = lua_touserdata(L, 2);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_SANDBOX_CTL_KEY);
    lua_getfield(L, -1, lua_tostring(L, 3));
    lua_call(L, 0, 1);
    *bytes = lmb_pack_table(L, -1, len); /* kept alive on the child's stack */
    return 3;
}

/* player:tune() -> {NAME = {default, min, max, step, integer}, ...} | nil,
 * reason: the tunable parameters the player's AI declares (mb.make_ai's
 * tune, checked there; `marubatsu tune --list`), copied out of its state
 * under the budgets of a move. */
static int l_tune(lua_State *L)
{
    Player *p = check_player(L, 1);
    lua_State *C = p->child;
    const char *bytes = NULL;
    size_t len = 0;
    lua_settop(C, 0);
    lua_pushcfunction(C, child_packed);
    lua_pushlightuserdata(C, (void *)&bytes);
    lua_pushlightuserdata(C, &len);
    lua_pushliteral(C, "tune");
    int status = budget_pcall(&p->b, C, 3, 3, true);
    if (status != LUA_OK) {
        lua_pushnil(L);
        push_reason(L, p, status);
        return 2;
    }
    lmb_unpack_value(L, bytes);
    lua_settop(C, 0);
    return 1;
}

/* player:seed(n [, "game"]): seed the player's own stream (mb.random,
 * mb.choice, ... and math.random inside its state), as mb.seed seeds the
 * host's; with "game", as host.stream_seed seeds a tournament game's. */
static int l_seed(lua_State *L)
{
    Player *p = check_player_state(L, 1, false);
    lua_Integer n = luaL_checkinteger(L, 2);
    if (lua_isnoneornil(L, 3)) {
        rng_seed_i64(&p->rng, (int64_t)n);
        return 0;
    }
    luaL_argcheck(L, strcmp(luaL_checkstring(L, 3), "game") == 0, 3,
                  "\"game\" or nothing expected");
    rng_seed_mixed(&p->rng, (uint64_t)n);
    return 0;
}

/* player:set_time(seconds | false) -> previous: the time budget of the
 * player's next moves (false or 0: none), for a time control that gives
 * each move min(its limit, the clock left); the previous budget back
 * (false for none). player.limits keeps the limits it was loaded with. */
static int l_set_time(lua_State *L)
{
    Player *p = check_player_state(L, 1, false);
    double v = 0;
    if (!(lua_isboolean(L, 2) && !lua_toboolean(L, 2))) {
        v = luaL_checknumber(L, 2);
        luaL_argcheck(L, v >= 0 && v <= 1e9, 2, "seconds in [0, 1e9] or false expected");
    }
    if (p->b.time_limit > 0)
        lua_pushnumber(L, p->b.time_limit);
    else
        lua_pushboolean(L, 0);
    p->b.time_limit = v;
    return 1;
}


/* mb.sandbox.inventory() -> {"PATH TYPE", ...}: what a script finds in a
 * fresh player's state (scripts/lib/sandbox_env.lua). Upvalue: new_player. */
static int l_inventory(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushliteral(L, "(inventory)");
    lua_createtable(L, 0, 0); /* no limits */
    lua_pushliteral(L, "inventory");
    lua_pushboolean(L, 1); /* no script */
    lua_call(L, 4, 2);
    Player *p = luaL_testudata(L, -2, PLAYER);
    if (!p || !p->child) return luaL_error(L, "sandbox.inventory: %s", lua_tostring(L, -1));
    lua_State *C = p->child;
    const char *bytes = NULL;
    size_t len = 0;
    lua_settop(C, 0);
    lua_pushcfunction(C, child_packed);
    lua_pushlightuserdata(C, (void *)&bytes);
    lua_pushlightuserdata(C, &len);
    lua_pushliteral(C, "inventory");
    if (lua_pcall(C, 3, 3, 0) != LUA_OK) {
        lua_pushstring(L, lua_tostring(C, -1));
        close_player(p);
        return lua_error(L);
    }
    lmb_unpack_value(L, bytes);
    close_player(p);
    return 1;
}

void lmb_open_sandbox(lua_State *L, int private, lua_CFunction open_module)
{
    private = lua_absindex(L, private);
    int mb = lua_gettop(L); /* the module table */
    lua_createtable(L, 0, 8);
    int c = lua_gettop(L);
    luaL_newmetatable(L, PLAYER); /* sets __name */
    int mt = lua_gettop(L);
    lua_pushcfunction(L, l_close);
    lua_setfield(L, mt, "__gc");
    lua_pushcfunction(L, l_close);
    lua_setfield(L, mt, "__close");
    lua_pushvalue(L, mt);
    lua_setfield(L, c, "Player");
    lua_pushvalue(L, mb);
    lua_pushvalue(L, mt);
    lua_pushcfunction(L, open_module);
    lua_pushcclosure(L, l_new_player, 3);
    lua_pushvalue(L, -1);
    lua_setfield(L, c, "new_player");
    lua_pushvalue(L, mb); /* raw_move reloads a script with new_player's upvalues */
    lua_pushvalue(L, mt);
    lua_pushcfunction(L, open_module);
    lua_pushcclosure(L, l_raw_move, 3);
    lua_setfield(L, c, "raw_move");
    lua_pushcclosure(L, l_inventory, 1);
    lua_setfield(L, c, "inventory");
    static const luaL_Reg fns[] = {{"fields", l_fields},
                                   {"close", l_close},
                                   {"stats", l_stats},
                                   {"seed", l_seed},
                                   {"check_params", l_check_params},
                                   {"set_time", l_set_time},
                                   {"tune", l_tune},
                                   {NULL, NULL}};
    lua_pop(L, 1); /* the metatable */
    luaL_setfuncs(L, fns, 0);
    lua_setfield(L, private, "sandbox_c");
}
