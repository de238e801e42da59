/* l_mcts.c: mb.mcts, the native Monte Carlo tree search (mcts.h) for Lua.
 *
 *   mb.mcts{seed =, c =, solver =, radius =, expand_after =, max_nodes =,
 *           hash = MB, prior = function(game, move) -> number,
 *           prior_weight =, playout = function(game) -> move} -> searcher
 *   searcher:search(game, {playouts =, time =, seed =}) -> move, info
 *   searcher:children() -> {{move =, visits =, score =, prior =, proven =}, ...}
 *   searcher:reset()
 *
 * info = {playouts, root_visits, nodes, value, proven ("win", "draw",
 * "loss" or nil), reused, seconds, hash_full (true when the arena was
 * full: leaves stopped growing, playouts went on)}. Every option is
 * optional: seed 0, c 0.7, solver false, radius 2, expand_after 1,
 * max_nodes 2^20 (24 MiB; or hash, the arena in megabytes), native
 * playouts, no priors. A Ctrl-C (interrupt.h) raises "interrupted". search needs playouts or time (seconds);
 * seed reseeds the searcher's generator first (AIs pass one drawn from
 * mb's stream, so that tournaments are reproducible).
 *
 * The arena is a Lua userdata, so a sandboxed script's memory budget
 * counts it; in a sandboxed state the search also stops when the call's
 * time budget runs out (polled every 32 playouts). Lua callbacks see the
 * real game object, synced before each call, and must leave it as they
 * found it; an error in one stops the search, the game is restored, then
 * the error is raised again. Unknown option names are errors. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "l_budget.h"
#include "l_mcts.h"
#include "mcts.h"

#define LMB_MCTS "marubatsu.Mcts"

enum { UV_ARENA = 1, UV_PRIOR, UV_PLAYOUT, NUV = 3 };

typedef struct LMcts {
    Mcts *m;
    bool has_prior, has_playout;
} LMcts;

/* What the C callbacks need during one search. */
typedef struct Ctx {
    lua_State *L;
    int game;  /* stack index of the game userdata */
    int prior; /* stack index of the prior function (or 0) */
    int playout;
    int err; /* stack slot for an error value */
    bool failed;
    int *saved; /* the game's moves before a callback (ncells entries) */
} Ctx;

static LMcts *check_mcts(lua_State *L, int arg)
{
    LMcts *s = luaL_checkudata(L, arg, LMB_MCTS);
    if (!s->m) luaL_argerror(L, arg, "a closed searcher");
    return s;
}

/* ---- callbacks ---- */

/* Put g back on the moves saved[0 .. n) after a callback moved it. */
static void restore(Game *g, const int *saved, int n)
{
    int same = 0;
    while (same < n && same < g->move_count && g->records[same + 1] == saved[same]) same++;
    while (g->move_count > same) game_unmove(g);
    for (int i = same; i < n; i++) game_move(g, saved[i]);
}

/* Under lua_pcall: (fn, game, move | nil, what, ctx) -> the callback's
 * value, with the game synced first and checked after: a callback that
 * moved the game is an error, after the game is put back. */
static int protected_call(lua_State *L)
{
    Game *g = lmb_check_game(L, 2);
    Ctx *c = lua_touserdata(L, 5);
    int mc = g->move_count, lm = g->last_move;
    for (int i = 0; i < mc; i++) c->saved[i] = g->records[i + 1];
    lmb_game_sync(L, 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    int nargs = 1;
    if (!lua_isnil(L, 3)) {
        lua_pushvalue(L, 3);
        nargs = 2;
    }
    int hold = lmb_game_hold(g); /* the callback may look ahead, not rewrite the line */
    int status = lua_pcall(L, nargs, 1, 0);
    lmb_game_release(g, hold);
    bool moved = g->move_count != mc || g->last_move != lm;
    for (int i = 0; !moved && i < mc; i++) moved = g->records[i + 1] != c->saved[i];
    if (moved) {
        restore(g, c->saved, mc);
        lmb_game_sync(L, 2);
        return luaL_error(
            L, "mcts %s: the callback changed the game (it must leave it as it found it)",
            lua_tostring(L, 4));
    }
    if (status != LUA_OK) return lua_error(L);
    return 1;
}

static int call_back(Ctx *c, int fn, int move, const char *what)
{
    lua_State *L = c->L;
    lua_pushcfunction(L, protected_call);
    lua_pushvalue(L, fn);
    lua_pushvalue(L, c->game);
    if (move >= 0)
        lua_pushinteger(L, move);
    else
        lua_pushnil(L);
    lua_pushstring(L, what);
    lua_pushlightuserdata(L, c);
    if (lua_pcall(L, 5, 1, 0) != LUA_OK) {
        lua_replace(L, c->err);
        c->failed = true;
        return MB_EINVAL;
    }
    return MB_OK;
}

static int fail_with(Ctx *c, const char *msg)
{
    lua_pushstring(c->L, msg);
    lua_replace(c->L, c->err);
    c->failed = true;
    return MB_EINVAL;
}

static int prior_cb(const Game *g, int m, double *prior, void *ud)
{
    (void)g;
    Ctx *c = ud;
    int rc = call_back(c, c->prior, m, "prior");
    if (rc != MB_OK) return rc;
    int isnum;
    lua_Number v = lua_tonumberx(c->L, -1, &isnum);
    lua_pop(c->L, 1);
    if (!isnum || !isfinite(v))
        return fail_with(c, "mcts prior: the callback must return a finite number");
    *prior = v;
    return MB_OK;
}

static int playout_cb(Game *g, int *m, void *ud)
{
    Ctx *c = ud;
    int rc = call_back(c, c->playout, -1, "playout");
    if (rc != MB_OK) return rc;
    int isint;
    lua_Integer v = lua_tointegerx(c->L, -1, &isint);
    lua_pop(c->L, 1);
    if (!isint || v < 0 || v >= game_geom(g)->ncells || game_get(g, (int)v) != MARK_EMPTY)
        return fail_with(c, "mcts playout: the callback must return an empty square of the board");
    *m = (int)v;
    return MB_OK;
}


/* In a sandboxed state: the call's budget has run out. */
static bool budget_stop(void *ud)
{
    const Budget *b = ud;
    return b->timed_out || b->reason != NULL || (b->deadline > 0 && clock_now() >= b->deadline);
}

/* ---- options ---- */

static const char *const option_names[] = {"seed",         "c",         "solver", "radius",
                                           "expand_after", "max_nodes", "hash",   "prior",
                                           "prior_weight", "playout",   NULL};

static double num_field(lua_State *L, int t, const char *k, double dflt, double lo, double hi)
{
    lua_getfield(L, t, k);
    double v = dflt;
    if (!lua_isnil(L, -1)) {
        int isnum;
        v = lua_tonumberx(L, -1, &isnum);
        if (!isnum || !(v >= lo && v <= hi))
            luaL_error(L, "mb.mcts: %s must be a number in %g..%g", k, lo, hi);
    }
    lua_pop(L, 1);
    return v;
}

static lua_Integer int_field(lua_State *L, int t, const char *k, lua_Integer dflt, lua_Integer lo,
                             lua_Integer hi)
{
    lua_getfield(L, t, k);
    lua_Integer v = dflt;
    if (!lua_isnil(L, -1)) {
        int isint;
        v = lua_tointegerx(L, -1, &isint);
        if (!isint || v < lo || v > hi)
            luaL_error(L, "mb.mcts: %s must be an integer in %I..%I", k, (LUAI_UACINT)lo,
                       (LUAI_UACINT)hi);
    }
    lua_pop(L, 1);
    return v;
}

/* mb.mcts{...} -> searcher */
static int l_new(lua_State *L)
{
    if (lua_isnoneornil(L, 1)) lua_newtable(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lmb_check_option_names(L, 1, "mb.mcts", LMB_NAMES(option_names));
    MctsOptions o = mcts_default_options();
    o.seed = (uint64_t)int_field(L, 1, "seed", 0, LUA_MININTEGER, LUA_MAXINTEGER);
    o.c = num_field(L, 1, "c", o.c, 0, 1e6);
    o.radius = (int)int_field(L, 1, "radius", o.radius, 0, 32);
    o.expand_after = (long)int_field(L, 1, "expand_after", o.expand_after, 1, 1000000);
    lua_Integer max_nodes =
        int_field(L, 1, "max_nodes", (lua_Integer)o.max_nodes, 16, (lua_Integer)1 << 28);
    if (lua_getfield(L, 1, "hash") != LUA_TNIL) { /* the arena in megabytes instead */
        if (lua_getfield(L, 1, "max_nodes") != LUA_TNIL)
            return luaL_error(L, "mb.mcts: give max_nodes or hash, not both");
        lua_pop(L, 1);
        size_t nodes = lmb_opt_hash(L, 1, "mb.mcts", 0) / mcts_node_size();
        max_nodes = nodes > ((size_t)1 << 28) ? (lua_Integer)1 << 28 : (lua_Integer)nodes;
    }
    lua_pop(L, 1);
    o.prior_weight = num_field(L, 1, "prior_weight", o.prior_weight, -1e9, 1e9);
    lua_getfield(L, 1, "solver");
    o.solver = lua_toboolean(L, -1);
    lua_pop(L, 1);
    LMcts *s = lua_newuserdatauv(L, sizeof *s, NUV);
    s->m = NULL;
    s->has_prior = s->has_playout = false;
    luaL_setmetatable(L, LMB_MCTS);
    int ud = lua_gettop(L);
    for (int i = 0; i < 2; i++) {
        const char *k = i == 0 ? "prior" : "playout";
        lua_getfield(L, 1, k);
        if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
            luaL_error(L, "mb.mcts: %s must be a function", k);
        if (i == 0)
            s->has_prior = !lua_isnil(L, -1);
        else
            s->has_playout = !lua_isnil(L, -1);
        lua_setiuservalue(L, ud, i == 0 ? UV_PRIOR : UV_PLAYOUT);
    }
    size_t bytes = (size_t)max_nodes * mcts_node_size();
    void *arena = lua_newuserdatauv(L, bytes, 0); /* counted by a sandbox's budget */
    lua_setiuservalue(L, ud, UV_ARENA);
    if (s->has_prior) o.prior = prior_cb; /* ud set per search */
    if (s->has_playout) o.playout = playout_cb;
    void *alloc_ud;
    if (lua_getallocf(L, &alloc_ud) == budget_alloc) {
        o.stop = budget_stop;
        o.stop_ud = alloc_ud;
    }
    s->m = mcts_new_in(&o, arena, bytes);
    if (!s->m) return luaL_error(L, "mb.mcts: not enough memory");
    return 1;
}

static const char *const search_names[] = {"playouts", "time", "seed", NULL};

/* searcher:search(game, {playouts =, time =, seed =}) -> move, info */
static int l_search(lua_State *L)
{
    LMcts *s = check_mcts(L, 1);
    Game *g = lmb_check_game(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    lmb_check_option_names(L, 3, "search", LMB_NAMES(search_names));
    lua_Integer playouts = int_field(L, 3, "playouts", 0, 0, LUA_MAXINTEGER);
    double seconds = num_field(L, 3, "time", 0, 0, 1e7);
    if (playouts == 0 && seconds == 0) return luaL_error(L, "search: playouts or time is needed");
    lua_getfield(L, 3, "seed");
    if (!lua_isnil(L, -1)) {
        int isint;
        lua_Integer seed = lua_tointegerx(L, -1, &isint);
        if (!isint) return luaL_error(L, "search: seed must be an integer");
        mcts_reseed(s->m, (uint64_t)seed);
    }
    lua_pop(L, 1);
    Ctx c = {L, 2, 0, 0, 0, false, NULL};
    c.saved = lua_newuserdatauv(L, sizeof *c.saved * (size_t)game_geom(g)->ncells, 0);
    lua_getiuservalue(L, 1, UV_PRIOR);
    c.prior = lua_gettop(L);
    lua_getiuservalue(L, 1, UV_PLAYOUT);
    c.playout = lua_gettop(L);
    lua_pushnil(L);
    c.err = lua_gettop(L);
    mcts_set_callback_data(s->m, &c);
    /* In a sandbox, the player's budgets bound the search: its deadline
     * (polled by budget_stop) and its instructions, a playout counting as
     * one search node per move it can play (half the empty squares, plus
     * one) at BUDGET_INSTRUCTIONS_PER_NODE each. A search the
     * instructions cannot pay for ends the move with "instructions". */
    NativeLimits nl = budget_native(L);
    unsigned long long per = (unsigned long long)(game_geom(g)->ncells - g->move_count) / 2 + 1;
    bool capped = false;
    if (nl.b && nl.max_nodes) {
        unsigned long long most = nl.max_nodes / per;
        if (most == 0) budget_native_done(L, &nl, nl.max_nodes, "instructions");
        if (playouts == 0 || (unsigned long long)playouts > most) {
            playouts = most > (unsigned long long)LONG_MAX ? LONG_MAX : (lua_Integer)most;
            capped = true;
        }
    }
    MctsResult r;
    memset(&r, 0, sizeof r);
    int rc = mcts_search(s->m, g, (long)playouts, seconds, &r);
    mcts_set_callback_data(s->m, NULL);
    budget_native_done(L, &nl, (unsigned long long)r.playouts * per,
                       capped && r.playouts >= playouts ? "instructions" : NULL);
    if (s->has_prior || s->has_playout) lmb_game_sync(L, 2); /* the fields as they were */
    if (c.failed) {
        lua_pushvalue(L, c.err);
        return lua_error(L);
    }
    if (rc == MB_EINTR) return lmb_error_interrupted(L);
    if (rc != MB_OK) return luaL_error(L, "search: %s", mb_strerror(rc));
    if (r.move == MOVE_NONE)
        lua_pushnil(L);
    else
        lua_pushinteger(L, r.move);
    lua_createtable(L, 0, 7);
    lua_pushinteger(L, r.playouts);
    lua_setfield(L, -2, "playouts");
    lua_pushinteger(L, r.root_visits);
    lua_setfield(L, -2, "root_visits");
    lua_pushinteger(L, (lua_Integer)r.nodes);
    lua_setfield(L, -2, "nodes");
    if (r.full) { /* the arena reached its limit: leaves stopped growing */
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "hash_full");
    }
    lua_pushnumber(L, r.value);
    lua_setfield(L, -2, "value");
    if (r.proven != MCTS_UNPROVEN) {
        lua_pushstring(L, r.proven > 0 ? "win" : r.proven < 0 ? "loss" : "draw");
        lua_setfield(L, -2, "proven");
    }
    lua_pushboolean(L, r.reused);
    lua_setfield(L, -2, "reused");
    lua_pushnumber(L, r.seconds);
    lua_setfield(L, -2, "seconds");
    return 2;
}

/* searcher:children() -> the root's children, most visited first */
static int l_children(lua_State *L)
{
    LMcts *s = check_mcts(L, 1);
    int n = mcts_root_children(s->m, NULL, 0);
    MctsChild *out = lua_newuserdatauv(L, sizeof *out * (size_t)(n > 0 ? n : 1), 0);
    n = mcts_root_children(s->m, out, n);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 0, 5);
        lua_pushinteger(L, out[i].move);
        lua_setfield(L, -2, "move");
        lua_pushinteger(L, out[i].visits);
        lua_setfield(L, -2, "visits");
        lua_pushnumber(L, out[i].score);
        lua_setfield(L, -2, "score");
        lua_pushnumber(L, out[i].prior);
        lua_setfield(L, -2, "prior");
        if (out[i].proven != MCTS_UNPROVEN) {
            lua_pushstring(L, out[i].proven > 0 ? "win" : out[i].proven < 0 ? "loss" : "draw");
            lua_setfield(L, -2, "proven");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_reset(lua_State *L)
{
    mcts_reset(check_mcts(L, 1)->m);
    return 0;
}

static int l_gc(lua_State *L)
{
    LMcts *s = luaL_checkudata(L, 1, LMB_MCTS);
    mcts_free(s->m);
    s->m = NULL;
    return 0;
}

static const luaL_Reg methods[] = {
    {"search", l_search},
    {"children", l_children},
    {"reset", l_reset},
    {NULL, NULL},
};

static const luaL_Reg functions[] = {
    {"mcts", l_new},
    {NULL, NULL},
};

void lmb_open_mcts(lua_State *L)
{
    if (luaL_newmetatable(L, LMB_MCTS)) {
        luaL_newlib(L, methods);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    luaL_setfuncs(L, functions, 0);
}
