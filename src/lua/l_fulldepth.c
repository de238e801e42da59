/* l_fulldepth.c: mb.searcher, the series' full-depth searchers of
 * fulldepth.h (spec ais.md §6, §7.1-7.4) under their root wrappers, from Lua.
 *
 *   mb.searcher(name, game, opts) -> move | analysis
 *   name: "ai_mmdfs", "ai_mmdfs_tt", "ai_abs", "ai_abs2", "ai_abs3",
 *         "ai_abs_tt", "ai_abs_tt2", "ai_abs_tt3", "ai_abs_tt4",
 *         "ai_nws_3score", "ai_nws_3score2", "ai_nws_3score_tt" (§6, under
 *         ai_by_score: every root child scored in MOVER-VIEW, best = max) or
 *         "ai_mmdfs_all", "ai_abs_all", "ai_scout", "ai_mtdf" (§7, under
 *         ai_by_mmscore: o-view scores, max when 〇 is to move, min when ×).
 *   opts: shortest_victory (false; ai_mmdfs_tt, ai_abs_tt*, the §7 ones)
 *         use_tt (false; §7), init_ab (false; ai_abs_all, ai_scout, ai_mtdf)
 *         share_tt (true; §7: one table for all the root children)
 *         ai_for_mo (nil; ai_abs_all, ai_scout, ai_mtdf: only "ai14s", the
 *               move ordering of §7.2 by the C ai14s)
 *         sort_allnodes (false; with ai_for_mo: true sorts every node's
 *               children by ai14s score, false swaps ai14s's first best
 *               move to the front)
 *         rand (true: one choice from mb.stream over the tie list; for the §7
 *               ones drawn even with analyze, as ai_by_mmscore does)
 *         analyze (false: true returns {candidate, score_by_move, moves,
 *               counts, count, tt_size, score, bestmove}, and for the §7
 *               ones with share_tt PV and pv_complete: the intended PV of
 *               ai_by_mmscore (the series crashes there, §13 #4), bestmove
 *               then each position's first legal child the shared table
 *               proves to keep the score, as far as the table knows;
 *               pv_complete false when it stops before the game ends)
 *         debug (false: print "count = N" for every root child)
 *         candidates (nil: every legal move; d: only the candidate moves at
 *               distance d, best first, at every node: candidates.h)
 *         hash (64: the megabytes each table may hold; at the limit the
 *               bound table replaces entries and the exact map drops new
 *               keys, analyze then gives hash_full = true; a 3x3 board
 *               never reaches 1 MB)
 *
 * Root children are searched in legal order (fulldepth_root). The tie list
 * is in legal order. The engine game is searched in place and left exactly
 * as found (its record of undone moves included). Unknown option names, and
 * options the named searcher does not take, are errors. */
#include <stdio.h>
#include <string.h>

#include "candidates.h"
#include "l_fulldepth.h"
#include "search.h"
#include "fulldepth.h"

/* Which options a searcher takes (besides rand, analyze, debug). */
enum { TAKES_SV = 1, TAKES_TT = 2, TAKES_INIT_AB = 4, TAKES_SHARE = 8, TAKES_MO = 16 };

static int takes(FullDepthId id)
{
    switch (id) {
    case FULL_MMDFS_TT:
    case FULL_ABS_TT:
    case FULL_ABS_TT2:
    case FULL_ABS_TT3:
    case FULL_ABS_TT4: return TAKES_SV;
    case FULL_MMDFS_ALL: return TAKES_SV | TAKES_TT | TAKES_SHARE;
    case FULL_ABS_ALL:
    case FULL_SCOUT:
    case FULL_MTDF: return TAKES_SV | TAKES_TT | TAKES_INIT_AB | TAKES_SHARE | TAKES_MO;
    default: return 0;
    }
}

static bool is_mmscore(FullDepthId id) { return id >= FULL_MMDFS_ALL; }

static const struct {
    const char *name;
    int flag; /* 0: every searcher takes it */
} option_list[] = {
    {"shortest_victory", TAKES_SV},
    {"use_tt", TAKES_TT},
    {"init_ab", TAKES_INIT_AB},
    {"share_tt", TAKES_SHARE},
    {"ai_for_mo", TAKES_MO},
    {"sort_allnodes", TAKES_MO},
    {"rand", 0},
    {"analyze", 0},
    {"debug", 0},
    {"candidates", 0},
    {"hash", 0},
    {NULL, 0},
};

static FullDepthId check_name(lua_State *L, int arg)
{
    const char *name = luaL_checkstring(L, arg);
    for (int i = 0; i < FULL_COUNT; i++)
        if (strcmp(name, fulldepth_name((FullDepthId)i)) == 0) return (FullDepthId)i;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < FULL_COUNT; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, fulldepth_name((FullDepthId)i));
    }
    luaL_pushresult(&b);
    luaL_error(L, "mb.searcher: unknown searcher '%s' (known: %s)", name, lua_tostring(L, -1));
    return FULL_COUNT;
}

static bool opt_bool(lua_State *L, int t, const char *name, bool dflt)
{
    if (lua_isnoneornil(L, t)) return dflt;
    int ty = lua_getfield(L, t, name);
    bool v = dflt;
    if (ty == LUA_TBOOLEAN)
        v = lua_toboolean(L, -1);
    else if (ty != LUA_TNIL)
        luaL_error(L, "mb.searcher: option '%s' must be a boolean, got %s", name,
                   luaL_typename(L, -1));
    lua_pop(L, 1);
    return v;
}

/* The move ordering of ai_for_mo / sort_allnodes (§7.2): only "ai14s" (or
 * nil: none) is supported as ai_for_mo. */
static FullDepthOrder opt_order(lua_State *L, int t)
{
    if (lua_isnoneornil(L, t)) return FULL_ORDER_NONE;
    bool sorted = opt_bool(L, t, "sort_allnodes", false);
    int ty = lua_getfield(L, t, "ai_for_mo");
    FullDepthOrder o = FULL_ORDER_NONE;
    if (ty == LUA_TSTRING) {
        if (strcmp(lua_tostring(L, -1), "ai14s") != 0)
            luaL_error(L, "mb.searcher: ai_for_mo '%s' is not supported (only \"ai14s\")",
                       lua_tostring(L, -1));
        o = sorted ? FULL_ORDER_AI14S_SORT : FULL_ORDER_AI14S_SWAP;
    } else if (ty != LUA_TNIL) {
        luaL_error(L, "mb.searcher: option 'ai_for_mo' must be the string \"ai14s\", got %s",
                   luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return o;
}

/* Unknown names, and names this searcher does not take, are errors. */
static void check_option_names(lua_State *L, int t, FullDepthId id)
{
    if (lua_isnoneornil(L, t)) return;
    lmb_check_option_names(L, t, "mb.searcher", LMB_NAMES(option_list));
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        const char *k = lua_tostring(L, -1);
        int found = 0;
        while (strcmp(k, option_list[found].name) != 0) found++;
        int flag = option_list[found].flag;
        if (flag && !(takes(id) & flag))
            luaL_error(L, "mb.searcher: %s does not take option '%s'", fulldepth_name(id), k);
    }
}

/* The candidates option: nil (0: every legal move) or a distance 1..32. */
static int opt_candidates(lua_State *L, int t)
{
    if (lua_isnoneornil(L, t)) return 0;
    int ty = lua_getfield(L, t, "candidates"), exact = 0;
    lua_Integer d = ty == LUA_TNUMBER ? lua_tointegerx(L, -1, &exact) : 0;
    if (ty != LUA_TNIL && (!exact || d < 1 || d > CANDIDATES_MAX_DISTANCE))
        luaL_error(L, "mb.searcher: option 'candidates' must be a distance 1..%d, got %s",
                   CANDIDATES_MAX_DISTANCE, luaL_tolstring(L, -1, NULL));
    lua_pop(L, 1);
    return (int)d;
}

/* mb.searcher(name, game, opts) */
static int l_searcher(lua_State *L)
{
    FullDepthId id = check_name(L, 1);
    Game *g = lmb_check_game(L, 2);
    lua_settop(L, 3);
    check_option_names(L, 3, id);
    FullDepthOpts so = {
        .shortest_victory = opt_bool(L, 3, "shortest_victory", false),
        .use_tt = opt_bool(L, 3, "use_tt", false),
        .init_ab = opt_bool(L, 3, "init_ab", false),
        .order = opt_order(L, 3),
        .candidates = opt_candidates(L, 3),
    };
    bool share = opt_bool(L, 3, "share_tt", true);
    bool rand = opt_bool(L, 3, "rand", true);
    bool analyze = opt_bool(L, 3, "analyze", false);
    bool debug = opt_bool(L, 3, "debug", false);
    size_t hash = lmb_opt_hash(L, 3, "mb.searcher", TT_DEFAULT_HASH_MB);
    bool mm = is_mmscore(id);
    if (g->status != STATUS_PLAYING)
        return luaL_error(L, "mb.searcher: the game is over (%s)", status_name(g->status));
    if (game_geom(g)->ncells > TT_PACKED_MAX_CELLS)
        return luaL_error(L, "mb.searcher: the board is too large (at most %d squares)",
                          TT_PACKED_MAX_CELLS);
    /* ai_by_score draws nothing when analyzing; ai_by_mmscore always draws */
    Rng *rng = rand && (mm || !analyze) ? lmb_default_stream(L, "mb.searcher") : NULL;

    /* the engine leaves g as found, its record included (game_mark) */
    FullDepthRoot r;
    FullDepth sr;
    fulldepth_init(&sr, id, &so);
    fulldepth_set_hash(&sr, hash);
    int rc = fulldepth_root_with(&sr, g, mm && share, &r);
    if (rc || r.n == 0) {
        fulldepth_free(&sr);
        lmb_game_sync(L, 2);
        if (rc == MB_EINTR) return lmb_error_interrupted(L);
        if (rc) return luaL_error(L, "mb.searcher: %s", mb_strerror(rc));
        return luaL_error(L, "mb.searcher: no legal move");
    }

    /* the series' view, and the tie list in legal order */
    bool o_turn = g->turn == MARK_O;
    bool maximize = mm ? o_turn : true;
    double scores[MB_MAX_CELLS], best;
    for (int i = 0; i < r.n; i++) {
        double v = r.values[i];
        if (!mm && !o_turn) v = -v;
        scores[i] = v + 0.0; /* no -0 */
    }
    int cand[MB_MAX_CELLS], ncand = search_ties(r.moves, scores, r.n, maximize, cand, &best);
    if (debug)
        for (int i = 0; i < r.n; i++)
            printf("%s move %d count = %llu\n", fulldepth_name(id), r.moves[i],
                   (unsigned long long)r.counts[i]);
    int bestmove = search_pick(cand, ncand, rng);
    /* the PV that ai_by_mmscore intends from the shared table (§3.3, §13 #4) */
    int pv[MB_MAX_CELLS], npv = 0;
    bool pv_complete = false;
    if (analyze && mm && share) {
        npv = fulldepth_pv(&sr, g, bestmove, best, pv, &pv_complete);
    }
    bool full = fulldepth_table_full(&sr);
    fulldepth_free(&sr);
    lmb_game_sync(L, 2);
    if (!analyze) {
        lua_pushinteger(L, bestmove);
        return 1;
    }
    lua_createtable(L, 0, 8);
    int t = lua_gettop(L);
    lmb_push_moves(L, cand, ncand);
    lua_setfield(L, t, "candidate");
    lua_createtable(L, 0, r.n);
    for (int i = 0; i < r.n; i++) {
        lua_pushnumber(L, scores[i]);
        lua_rawseti(L, -2, r.moves[i]);
    }
    lua_setfield(L, t, "score_by_move");
    lmb_push_moves(L, r.moves, r.n);
    lua_setfield(L, t, "moves");
    lua_createtable(L, r.n, 0);
    for (int i = 0; i < r.n; i++) {
        lua_pushinteger(L, (lua_Integer)r.counts[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, t, "counts");
    lua_pushinteger(L, (lua_Integer)r.total);
    lua_setfield(L, t, "count");
    lua_pushinteger(L, (lua_Integer)r.table_count);
    lua_setfield(L, t, "tt_size");
    if (full) { /* a table reached its limit */
        lua_pushboolean(L, 1);
        lua_setfield(L, t, "hash_full");
    }
    lua_pushnumber(L, best);
    lua_setfield(L, t, "score");
    if (mm) { /* ai_by_mmscore's draw */
        lua_pushinteger(L, bestmove);
        lua_setfield(L, t, "bestmove");
    }
    if (mm && share) {
        lmb_push_moves(L, pv, npv);
        lua_setfield(L, t, "PV");
        lua_pushboolean(L, pv_complete);
        lua_setfield(L, t, "pv_complete");
    }
    return 1;
}

static const luaL_Reg functions[] = {
    {"searcher", l_searcher},
    {NULL, NULL},
};

void lmb_open_fulldepth(lua_State *L) { luaL_setfuncs(L, functions, 0); }
