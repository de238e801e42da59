/* l_features.c: the game methods that read the line features (linefeat.h),
 * the Zobrist key (zobrist.h) and the candidate moves (candidates.h):
 *
 *   game:window_counts(p [, t]) -> t   t[j] = windows with j of p's marks
 *                                      and none of the other's, j = 1 .. k
 *   game:window_count(p, j) -> n       the same for one j (0 .. k)
 *   game:threats(p) -> wins, opens     p's win squares and open k-1
 *                                      squares (arrays of moves, normative
 *                                      order)
 *   game:threat_counts(p) -> nwin, nopen
 *   game:hash() -> integer             the Zobrist key of the marks
 *   game:candidates([d]) -> moves      empty squares within distance d
 *                                      (default 2) of a mark, best first
 *
 * p is "o" or "x". The features are switched on for the game the first
 * time one of these is called, and kept from then on (every move, unmove
 * and search updates them; copies keep them). From a sandboxed script their
 * memory counts against the memory budget. Registered into the
 * game's methods table by lmb_open_game. */
#include "candidates.h"
#include "l_budget.h"
#include "l_features.h"
#include "linefeat.h"
#include "pattern.h"

/* In a sandboxed state, hold `bytes` more as a Lua userdata kept while the
 * game at 1 lives (in the registry table `reg`, weak keys), so that the
 * state's memory cap counts memory the engine malloc'ed for it. [-0, +0, e] */
static void charge_game(lua_State *L, const char *reg, size_t bytes)
{
    if (!budget_native(L).b) return;
    if (lua_getfield(L, LUA_REGISTRYINDEX, reg) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 1);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, reg);
    }
    lua_pushvalue(L, 1);
    lua_newuserdatauv(L, bytes, 0); /* may raise: the cap */
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

Game *lmb_check_features(lua_State *L, bool patterns)
{
    Game *g = lmb_check_game(L, 1);
    if (!g->board.feat) {
        charge_game(L, LMB_FEATURE_BYTES_KEY, linefeat_bytes(game_geom(g)));
        if (linefeat_enable(&g->board) != MB_OK)
            luaL_error(L, "not enough memory for the line features");
    }
    if (patterns && !g->board.feat->pat) {
        charge_game(L, LMB_PATTERN_BYTES_KEY, pat_bytes(game_geom(g)));
        if (linefeat_enable_patterns(&g->board) != MB_OK)
            luaL_error(L, "not enough memory for the pattern codes");
    }
    return g;
}

/* The game at 1 with its features on (switched on here when off). From a
 * sandboxed state their memory (malloc'ed by the engine) is also held as a
 * Lua userdata of the same size (charge_game): a script that switches
 * features on for game after game runs out of its memory budget, not of
 * the machine's. [-0, +0, e] */
static Game *check_featured(lua_State *L) { return lmb_check_features(L, false); }

/* Push an array of n moves. [-0, +1, m] */
static void push_squares(lua_State *L, const int16_t *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, v[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/* game:window_counts(p [, t]) -> t: t[j] for j = 1 .. k (t is filled and
 * returned when given, so an evaluator need not make a table per call). */
static int l_window_counts(lua_State *L)
{
    Game *g = check_featured(L);
    Mark p = lmb_check_mark(L, 2);
    int k = game_geom(g)->k;
    if (lua_istable(L, 3))
        lua_pushvalue(L, 3);
    else {
        luaL_argcheck(L, lua_isnoneornil(L, 3), 3, "table expected to fill");
        lua_createtable(L, k, 0);
    }
    for (int j = 1; j <= k; j++) {
        lua_pushinteger(L, linefeat_window_count(g->board.feat, p, j));
        lua_rawseti(L, -2, j);
    }
    return 1;
}

/* game:window_count(p, j) -> windows with j (0 .. k) of p's marks and none
 * of the other's. */
static int l_window_count(lua_State *L)
{
    Game *g = check_featured(L);
    Mark p = lmb_check_mark(L, 2);
    lua_Integer j = lmb_check_range(L, 3, 0, game_geom(g)->k, "mark count");
    lua_pushinteger(L, linefeat_window_count(g->board.feat, p, (int)j));
    return 1;
}

/* The threat lists of the game at 1 for the mark at 2, pushed as two
 * arrays (lists) or as their two sizes. */
static int push_threats(lua_State *L, bool lists)
{
    Game *g = check_featured(L);
    Mark p = lmb_check_mark(L, 2);
    const int16_t *win, *open;
    int nwin, nopen;
    linefeat_threats(g->board.feat, &g->board, p, &win, &nwin, &open, &nopen);
    if (lists) {
        push_squares(L, win, nwin);
        push_squares(L, open, nopen);
    } else {
        lua_pushinteger(L, nwin);
        lua_pushinteger(L, nopen);
    }
    return 2;
}

/* game:threats(p) -> wins, opens */
static int l_threats(lua_State *L) { return push_threats(L, true); }

/* game:threat_counts(p) -> nwin, nopen */
static int l_threat_counts(lua_State *L) { return push_threats(L, false); }

/* game:hash() -> the Zobrist key (a 64-bit integer; 0 for the empty board) */
static int l_hash(lua_State *L)
{
    Game *g = check_featured(L);
    lua_pushinteger(L, (lua_Integer)g->board.feat->key);
    return 1;
}

/* game:candidates([d]) -> moves, best first (candidates.h); d = 1 .. 32,
 * default 2. Empty once the game is over. */
static int l_candidates(lua_State *L)
{
    Game *g = check_featured(L);
    int d = (int)(lua_isnoneornil(L, 2)
                      ? 2
                      : lmb_check_range(L, 2, 1, CANDIDATES_MAX_DISTANCE, "distance"));
    int out[MB_MAX_CELLS];
    int n = candidates_generate(g, d, out, NULL);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, out[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static const luaL_Reg methods[] = {
    {"window_counts", l_window_counts},
    {"window_count", l_window_count},
    {"threats", l_threats},
    {"threat_counts", l_threat_counts},
    {"hash", l_hash},
    {"candidates", l_candidates},
    {NULL, NULL},
};

void lmb_open_features(lua_State *L) { lmb_game_add_methods(L, methods); }
