/* l_search.c: mb.search_abs_dls, the series' depth-limited αβ search
 * ai_abs_dls under its root driver ai_by_mmscore (search.h; spec search.md
 * §3-§4, ais.md §7.5), from Lua.
 *
 *   mb.search_abs_dls(game, opts) -> move | analysis | score
 *   opts: maxdepth (1.., default 1)    plies below each root child
 *         eval ("ai14s", the C evaluator, default; or a Lua function
 *               (game) -> o-view score, called at the leaves on `game`)
 *         use_tt (false), share_tt (true), timelimit (seconds or nil),
 *         rand (true: one choice from mb.stream over the tie list, also
 *               with analyze), analyze (false), calc_score (false: true
 *               returns the search value of the position itself)
 *
 * The search moves the engine game in place and restores it exactly. A
 * Lua evaluator reads the game's fields, which live in the state table C
 * keeps in sync (l_game.c), so before every Lua call the state table is
 * brought up to date (lmb_game_sync), and once more after the search. An
 * error in the evaluator aborts the search (SEARCH_ABORTED); after the game
 * is restored the error is raised again. A timeout returns nil, "time out".
 * Unknown option names are errors (they are usually typos). */
#include <math.h>
#include <string.h>

#include "eval14.h"
#include "lmb.h"
#include "search.h"

/* What the C eval callback needs to call a Lua evaluator. */
typedef struct LuaEval {
    lua_State *L;
    Search *s;
    int fn;      /* stack index of the evaluator */
    int game;    /* stack index of the game userdata */
    int err;     /* stack index of a slot that receives the error value */
    bool failed; /* the evaluator raised an error (its value is at err) */
} LuaEval;

/* Run under lua_pcall: (fn, game) -> the o-view score. Syncs the fields
 * first, then checks that the evaluator left the game where it was. */
static int protected_eval(lua_State *L)
{
    Game *g = lmb_check_game(L, 2);
    int mc = g->move_count, lm = g->last_move;
    Status st = g->status;
    bool ed = g->edited;
    lmb_game_sync(L, 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 1, 1);
    if (g->move_count != mc || g->last_move != lm || g->status != st || g->edited != ed)
        return luaL_error(L, "search_abs_dls: the evaluator changed the game (it must leave "
                             "the game as it found it)");
    int isnum;
    lua_Number v = lua_tonumberx(L, -1, &isnum);
    if (!isnum)
        return luaL_error(L, "search_abs_dls: the evaluator returned %s, expected a number",
                          luaL_typename(L, -1));
    if (isnan(v)) return luaL_error(L, "search_abs_dls: the evaluator returned NaN");
    lua_pushnumber(L, v);
    return 1;
}

static double lua_eval(Game *g, void *ud)
{
    (void)g;
    LuaEval *e = ud;
    lua_State *L = e->L;
    lua_pushcfunction(L, protected_eval);
    lua_pushvalue(L, e->fn);
    lua_pushvalue(L, e->game);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        lua_replace(L, e->err);
        e->failed = true;
        e->s->status = SEARCH_ABORTED;
        return 0;
    }
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* ---- Options ---- */

typedef struct Options {
    int maxdepth;
    bool lua_eval; /* the evaluator is the function at the stack slot fn */
    bool use_tt, share_tt, rand, analyze, calc_score;
    double timelimit; /* < 0: none */
} Options;

static const char *const option_names[] = {"maxdepth", "eval",    "use_tt",     "share_tt",
                                           "timelimit", "rand",   "analyze",    "calc_score",
                                           NULL};

static bool opt_bool(lua_State *L, int t, const char *name, bool dflt)
{
    int ty = lua_getfield(L, t, name);
    bool v = dflt;
    if (ty == LUA_TBOOLEAN)
        v = lua_toboolean(L, -1);
    else if (ty != LUA_TNIL)
        luaL_error(L, "search_abs_dls: option '%s' must be a boolean, got %s", name,
                   luaL_typename(L, -1));
    lua_pop(L, 1);
    return v;
}

/* Read the options table at t; a Lua evaluator is pushed (its slot is the
 * new top), else nothing is pushed. */
static Options read_options(lua_State *L, int t)
{
    Options o = {.maxdepth = 1, .share_tt = true, .rand = true, .timelimit = -1};
    if (lua_isnoneornil(L, t)) return o;
    luaL_checktype(L, t, LUA_TTABLE);
    /* unknown names first: a typo must not be silently ignored */
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        bool known = false;
        for (int i = 0; k && option_names[i]; i++) known = known || strcmp(k, option_names[i]) == 0;
        if (!known)
            luaL_error(L, "search_abs_dls: unknown option %s (known: maxdepth, eval, use_tt, "
                          "share_tt, timelimit, rand, analyze, calc_score)",
                       k ? lua_pushfstring(L, "'%s'", k) : luaL_typename(L, -1));
    }
    int ty = lua_getfield(L, t, "maxdepth");
    if (ty != LUA_TNIL) {
        int exact;
        lua_Integer d = lua_tointegerx(L, -1, &exact);
        if (ty != LUA_TNUMBER || !exact)
            luaL_error(L, "search_abs_dls: option 'maxdepth' must be an integer, got %s",
                       ty == LUA_TNUMBER ? "a number with a fraction" : luaL_typename(L, -1));
        if (d < 1 || d > 1000000)
            luaL_error(L, "search_abs_dls: option 'maxdepth' must be at least 1, got %I",
                       (LUAI_UACINT)d);
        o.maxdepth = (int)d;
    }
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "timelimit");
    if (ty != LUA_TNIL) {
        int isnum;
        lua_Number s = lua_tonumberx(L, -1, &isnum);
        if (ty != LUA_TNUMBER || !isnum || !(s >= 0))
            luaL_error(L, "search_abs_dls: option 'timelimit' must be a number of seconds "
                          ">= 0 or nil");
        o.timelimit = s;
    }
    lua_pop(L, 1);
    o.use_tt = opt_bool(L, t, "use_tt", false);
    o.share_tt = opt_bool(L, t, "share_tt", true);
    o.rand = opt_bool(L, t, "rand", true);
    o.analyze = opt_bool(L, t, "analyze", false);
    o.calc_score = opt_bool(L, t, "calc_score", false);
    ty = lua_getfield(L, t, "eval");
    if (ty == LUA_TFUNCTION) {
        o.lua_eval = true; /* stays pushed */
        return o;
    }
    if (ty == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1);
        if (strcmp(name, "ai14s") != 0)
            luaL_error(L, "search_abs_dls: unknown evaluator '%s' (the C evaluators: "
                          "\"ai14s\"; or pass a function (game) -> o-view score)",
                       name);
    } else if (ty != LUA_TNIL) {
        luaL_error(L, "search_abs_dls: option 'eval' must be \"ai14s\" or a function (game) "
                      "-> o-view score, got %s",
                   luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return o;
}

/* The default stream mb.stream (the one mb.choice draws from). */
static Rng *default_stream(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "marubatsu.module");
    if (lua_type(L, -1) != LUA_TTABLE || lua_getfield(L, -1, "stream") != LUA_TUSERDATA)
        luaL_error(L, "search_abs_dls: mb.stream is missing");
    Rng *r = lmb_check_random(L, -1);
    lua_pop(L, 2); /* the module table keeps the stream alive */
    return r;
}

/* The principal variation of a root call with a shared table (search.md
 * §4): from bestmove, follow the stored best moves; the game is moved in
 * place and restored exactly (marks, counters, record). */
static int pv_walk(Game *g, const TT *tt, int bestmove, int *pv)
{
    int ncells = game_geom(g)->ncells;
    int mc = g->move_count, nrec = g->nrecords;
    int saved[MB_MAX_CELLS + 1];
    memcpy(saved, g->records, (size_t)nrec * sizeof *saved);
    char key[MB_MAX_CELLS + 1];
    int n = 0, m = bestmove;
    while (g->status == STATUS_PLAYING && n < ncells) {
        pv[n++] = m;
        if (m < 0 || m >= ncells || game_get(g, m) != MARK_EMPTY) break; /* guard */
        game_move(g, m);
        board_key(&g->board, key);
        TTEntry e;
        if (!tt_probe(tt, key, &e)) break;
        m = e.move;
    }
    while (g->move_count > mc) game_unmove(g);
    memcpy(g->records, saved, (size_t)nrec * sizeof *saved);
    g->nrecords = nrec;
    return n;
}

static void push_moves(lua_State *L, const int *moves, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, moves[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/* mb.search_abs_dls(game, opts) */
static int l_search_abs_dls(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    lua_settop(L, 2);
    lua_pushnil(L); /* 3: the error slot of a Lua evaluator */
    Options o = read_options(L, 2);
    int fn = o.lua_eval ? lua_gettop(L) : 0;
    if (!o.calc_score && g->status != STATUS_PLAYING)
        return luaL_error(L, "search_abs_dls: the game is over (%s)", status_name(g->status));
    Rng *rng = o.rand && !o.calc_score ? default_stream(L) : NULL;
    luaL_checkstack(L, 16, "search_abs_dls");

    /* no Lua error may escape from here to search_free */
    Search s;
    LuaEval le = {.L = L, .s = &s, .fn = fn, .game = 1, .err = 3, .failed = false};
    int rc = o.lua_eval ? search_init(&s, g, lua_eval, &le, o.maxdepth)
                        : search_init(&s, g, eval14_search_eval, NULL, o.maxdepth);
    if (rc) return luaL_error(L, "search_abs_dls: %s", mb_strerror(rc));
    s.use_tt = o.use_tt;
    if (o.timelimit >= 0) search_set_timelimit(&s, o.timelimit);
    SearchRootResult r;
    double score = 0;
    int pv[MB_MAX_CELLS], npv = 0;
    size_t tt_size = 0;
    if (o.calc_score) {
        double t0 = search_now();
        rc = search_run(&s, &score);
        r.time = search_now() - t0;
        r.total = s.count;
    } else {
        rc = search_root(&s, o.share_tt, rng, &r);
        if (rc == SEARCH_OK && o.analyze) {
            if (o.share_tt)
                npv = pv_walk(g, &s.tt, r.bestmove, pv);
            else
                pv[npv++] = r.bestmove;
        }
    }
    tt_size = tt_count(&s.tt);
    search_free(&s);
    if (o.lua_eval) lmb_game_sync(L, 1); /* the fields as they were */

    switch (rc) {
    case SEARCH_OK:
        break;
    case SEARCH_TIMEOUT:
        lua_pushnil(L);
        lua_pushliteral(L, "time out");
        return 2;
    case SEARCH_ABORTED:
        if (le.failed) {
            lua_pushvalue(L, 3);
            return lua_error(L);
        }
        return luaL_error(L, "search_abs_dls: the search was aborted");
    case SEARCH_ENOMEM:
        return luaL_error(L, "search_abs_dls: out of memory (transposition table)");
    default:
        return luaL_error(L, "search_abs_dls: internal error (a stored best move is not legal)");
    }

    if (o.calc_score) {
        lua_pushnumber(L, score);
        return 1;
    }
    if (!o.analyze) {
        lua_pushinteger(L, r.bestmove);
        return 1;
    }
    lua_createtable(L, 0, 12);
    int t = lua_gettop(L);
    push_moves(L, r.candidates, r.ncandidates);
    lua_setfield(L, t, "candidate");
    lua_createtable(L, 0, r.nmoves);
    for (int i = 0; i < r.nmoves; i++) {
        lua_pushnumber(L, r.scores[i]);
        lua_rawseti(L, -2, r.moves[i]);
    }
    lua_setfield(L, t, "score_by_move");
    push_moves(L, r.moves, r.nmoves);
    lua_setfield(L, t, "moves");
    lua_createtable(L, r.nmoves, 0);
    for (int i = 0; i < r.nmoves; i++) {
        lua_pushinteger(L, (lua_Integer)r.counts[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, t, "counts");
    lua_pushnumber(L, r.best_score);
    lua_setfield(L, t, "score");
    lua_pushinteger(L, r.bestmove);
    lua_setfield(L, t, "bestmove");
    push_moves(L, pv, npv);
    lua_setfield(L, t, "PV");
    lua_pushinteger(L, (lua_Integer)r.total);
    lua_setfield(L, t, "count");
    lua_pushnumber(L, r.time);
    lua_setfield(L, t, "time");
    lua_pushinteger(L, (lua_Integer)tt_size);
    lua_setfield(L, t, "tt_size");
    return 1;
}

void lmb_open_search(lua_State *L)
{
    lua_pushcfunction(L, l_search_abs_dls);
    lua_setfield(L, -2, "search_abs_dls");
}
