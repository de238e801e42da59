/* l_pattern.c: the pattern codes (pattern.h) and the big-board search
 * (pvs.h) for Lua:
 *
 *   game:pattern(square, dir, p) -> code     the code of p on the empty
 *                                            square along dir (1 row, 2
 *                                            column, 3 diagonal, 4 anti-
 *                                            diagonal); 0 on a mark
 *   game:pattern_square(square, p) -> class, value, codes
 *                                            the summary: class name, value,
 *                                            {code of dir 1, .., dir 4}
 *   game:pattern_eval([p]) -> number         p's values less the other
 *                                            side's (p: the side to move)
 *   game:forced_moves() -> moves, reason     "win", "block", "defend", or
 *                                            {} and nil
 *   game:pattern_moves([n]) -> moves, scores the candidate moves by the
 *                                            move score, best first
 *   game:pattern_weights([w]) -> w          the game's weights (set first
 *                                            when w is given)
 *   mb.pattern_name(code, k) -> name         "open 3", "4", "win", "none"
 *   mb.pattern_weights() -> w                the default weights
 *   mb.pattern_searcher([{tt_bits = b}]) -> searcher
 *   searcher:search(game [, opts]) -> move, info
 *
 * The codes are switched on for a game the first time one of these reads
 * them, with its line features, and kept by every move from then on. From
 * a sandboxed script their memory, a searcher's table and a search's
 * working memory count against the memory budget, a search's time and
 * positions against the time and instruction budgets. A Ctrl-C
 * (interrupt.h) stops a search with the error "interrupted". */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "l_budget.h"
#include "l_features.h"
#include "l_pattern.h"
#include "pvs.h"

#define SEARCHER "marubatsu.PatternSearcher"

static const char *const class_names[PAT_CLASSES] = {
    "none", "three", "double_three", "four", "four_three", "double_four", "open_four", "win",
};

/* ---- Weights ---- */

/* A table of class name -> weight. */
static void push_classes(lua_State *L, const int32_t *v, const char *field)
{
    lua_createtable(L, 0, PAT_CLASSES);
    for (int c = 1; c < PAT_CLASSES; c++) {
        lua_pushinteger(L, v[c]);
        lua_setfield(L, -2, class_names[c]);
    }
    lua_setfield(L, -2, field);
}

static void push_weights(lua_State *L, const PatWeights *w)
{
    lua_createtable(L, 0, 4);
    lua_createtable(L, PAT_SHAPES, 0);
    for (int i = 0; i < PAT_SHAPES; i++) {
        lua_pushinteger(L, w->shape[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "shape");
    push_classes(L, w->combo, "combo");
    push_classes(L, w->tomove, "tomove");
    push_classes(L, w->waiting, "waiting");
    lua_pushinteger(L, w->tempo);
    lua_setfield(L, -2, "tempo");
}

static int32_t weight_value(lua_State *L, const char *what)
{
    int exact;
    lua_Integer v = lua_tointegerx(L, -1, &exact);
    if (!exact || v < -1000000 || v > 1000000)
        luaL_error(L, "weights: %s must be an integer from -1000000 to 1000000", what);
    return (int32_t)v;
}

/* The table of class weights at t[field] (if any) into v. */
static void read_classes(lua_State *L, int idx, const char *field, int32_t *v)
{
    if (lua_getfield(L, idx, field) != LUA_TNIL) {
        if (!lua_istable(L, -1)) luaL_error(L, "weights: %s must be a table", field);
        int t = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, t)) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
            int c = 1;
            while (c < PAT_CLASSES && strcmp(class_names[c], k) != 0) c++;
            if (c == PAT_CLASSES)
                luaL_error(L,
                           "weights: unknown class '%s' in %s (known: three, double_three, "
                           "four, four_three, double_four, open_four, win)",
                           k, field);
            v[c] = weight_value(L, "class weights");
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

/* The weights table at idx into w (keys it leaves out keep w's values). */
static void read_weights(lua_State *L, int idx, PatWeights *w)
{
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (strcmp(k, "shape") != 0 && strcmp(k, "combo") != 0 && strcmp(k, "tomove") != 0 &&
            strcmp(k, "waiting") != 0 && strcmp(k, "tempo") != 0)
            luaL_error(L, "weights: unknown key %s (known: shape, combo, tomove, waiting, tempo)",
                       lua_type(L, -1) == LUA_TSTRING ? lua_pushfstring(L, "'%s'", k)
                                                      : luaL_typename(L, -1));
    }
    if (lua_getfield(L, idx, "shape") != LUA_TNIL) {
        luaL_argcheck(L, lua_istable(L, -1), idx, "weights.shape must be a table");
        lua_Integer n = luaL_len(L, -1);
        if (n > PAT_SHAPES) luaL_error(L, "weights: shape has at most %d entries", PAT_SHAPES);
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, -1, i + 1);
            w->shape[i] = weight_value(L, "shape entries");
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    read_classes(L, idx, "combo", w->combo);
    read_classes(L, idx, "tomove", w->tomove);
    read_classes(L, idx, "waiting", w->waiting);
    if (lua_getfield(L, idx, "tempo") != LUA_TNIL) w->tempo = weight_value(L, "tempo");
    lua_pop(L, 1);
}

/* ---- Game methods ---- */

static PatState *check_pat(lua_State *L, Game **g)
{
    *g = lmb_check_features(L, true);
    return (*g)->board.feat->pat;
}

static int check_empty_square(lua_State *L, int arg, const Game *g)
{
    return lmb_check_move(L, arg, g);
}

/* game:pattern(square, dir, p) -> code */
static int l_pattern(lua_State *L)
{
    Game *g;
    PatState *ps = check_pat(L, &g);
    int m = check_empty_square(L, 2, g);
    int d = (int)lmb_check_range(L, 3, 1, 4, "direction");
    Mark p = lmb_check_mark(L, 4);
    lua_pushinteger(L, game_get(g, m) ? 0 : pat_code(ps, pat_idx(ps, m), d - 1, p));
    return 1;
}

/* game:pattern_square(square, p) -> class, value, codes */
static int l_pattern_square(lua_State *L)
{
    Game *g;
    PatState *ps = check_pat(L, &g);
    int m = check_empty_square(L, 2, g);
    Mark p = lmb_check_mark(L, 3);
    int i = pat_idx(ps, m);
    bool empty = game_get(g, m) == MARK_EMPTY;
    lua_pushstring(L, empty ? class_names[pat_class(ps, i, p)] : "none");
    lua_pushinteger(L, empty ? pat_value(ps, i, p) : 0);
    lua_createtable(L, 4, 0);
    for (int d = 0; d < 4; d++) {
        lua_pushinteger(L, empty ? pat_code(ps, i, d, p) : 0);
        lua_rawseti(L, -2, d + 1);
    }
    return 3;
}

/* game:pattern_eval([p]) -> p's values less the other side's */
static int l_pattern_eval(lua_State *L)
{
    Game *g;
    PatState *ps = check_pat(L, &g);
    Mark p = lua_isnoneornil(L, 2) ? g->turn : lmb_check_mark(L, 2);
    lua_pushinteger(L, (lua_Integer)pat_eval(ps, p));
    return 1;
}

/* game:forced_moves() -> moves, reason */
static int l_forced_moves(lua_State *L)
{
    Game *g;
    PatState *ps = check_pat(L, &g);
    static const char *const reasons[] = {NULL, "win", "block", "defend"};
    int idx[MB_MAX_CELLS], reason, n = 0;
    if (g->status == STATUS_PLAYING)
        n = pat_forced(ps, g->turn, idx, &reason);
    else
        reason = 0;
    lua_createtable(L, n, 0);
    for (int j = 0; j < n; j++) {
        lua_pushinteger(L, ps->move_of[idx[j]]);
        lua_rawseti(L, -2, j + 1);
    }
    if (reasons[reason])
        lua_pushstring(L, reasons[reason]);
    else
        lua_pushnil(L);
    return 2;
}

/* game:pattern_moves([n [, defend]]) -> moves, scores: the empty squares
 * within 2 of a mark along the lines (the centre on an empty board), by
 * move score for the side to move, ties in normative order; at most n. */
static int l_pattern_moves(lua_State *L)
{
    Game *g;
    PatState *ps = check_pat(L, &g);
    const Geometry *geo = game_geom(g);
    int cap =
        (int)(lua_isnoneornil(L, 2) ? geo->ncells : lmb_check_range(L, 2, 0, geo->ncells, "count"));
    int defend = (int)(lua_isnoneornil(L, 3) ? 80 : lmb_check_range(L, 3, 0, 1000, "defend"));
    int mv[MB_MAX_CELLS], sc[MB_MAX_CELLS], n = 0;
    if (g->status == STATUS_PLAYING) {
        for (int b = 0; b < geo->ncells; b++) {
            int m = geo->move_of[b], i = pat_idx(ps, m);
            if (ps->cell[i] != MARK_EMPTY || (!ps->near[i] && ps->stones)) continue;
            if (!ps->stones &&
                m != geometry_xy_to_move(geo, (geo->width - 1) / 2, (geo->height - 1) / 2))
                continue;
            int v = pat_move_score(ps, i, g->turn, defend), t = n++;
            while (t > 0 && sc[t - 1] < v) {
                mv[t] = mv[t - 1];
                sc[t] = sc[t - 1];
                t--;
            }
            mv[t] = m;
            sc[t] = v;
        }
    }
    if (n > cap) n = cap;
    lua_createtable(L, n, 0);
    lua_createtable(L, n, 0);
    for (int j = 0; j < n; j++) {
        lua_pushinteger(L, mv[j]);
        lua_rawseti(L, -3, j + 1);
        lua_pushinteger(L, sc[j]);
        lua_rawseti(L, -2, j + 1);
    }
    return 2;
}

/* game:pattern_weights([w]) -> w */
static int l_pattern_weights(lua_State *L)
{
    Game *g;
    PatState *ps = check_pat(L, &g);
    if (!lua_isnoneornil(L, 2)) {
        PatWeights w = ps->weights;
        read_weights(L, 2, &w);
        pat_set_weights(ps, &w);
    }
    push_weights(L, &ps->weights);
    return 1;
}

/* ---- Module functions ---- */

/* mb.pattern_name(code, k) -> name */
static int l_pattern_name(lua_State *L)
{
    int k = (int)lmb_check_range(L, 2, 1, MB_MAX_SIDE, "k");
    int c = (int)lmb_check_range(L, 1, 0, 2 * k - 1, "code");
    char buf[24];
    lua_pushstring(L, pat_code_name(c, k, buf, sizeof buf));
    return 1;
}

/* mb.pattern_weights() -> the default weights */
static int l_default_weights(lua_State *L)
{
    PatWeights w = pat_default_weights();
    push_weights(L, &w);
    return 1;
}

/* ---- The searcher ---- */

typedef struct PatSearcher {
    Pvs pvs;
    int bits;
    /* the table follows */
} PatSearcher;

static size_t table_offset(void) { return (sizeof(PatSearcher) + 15) & ~(size_t)15; }

/* mb.pattern_searcher([{tt_bits = b}]) -> searcher (2^b table entries of
 * 16 bytes, b = 10 .. 26, default 20: 16 MiB) */
static int l_searcher(lua_State *L)
{
    int bits = 20;
    static const char *const names[] = {"tt_bits", NULL};
    if (!lua_isnoneornil(L, 1)) {
        lmb_check_option_names(L, 1, "pattern_searcher", LMB_NAMES(names));
        if (lua_getfield(L, 1, "tt_bits") != LUA_TNIL) {
            int exact;
            lua_Integer b = lua_tointegerx(L, -1, &exact);
            if (!exact || b < 10 || b > 26)
                luaL_error(L,
                           "pattern_searcher: option 'tt_bits' must be an integer from 10 to 26");
            bits = (int)b;
        }
        lua_pop(L, 1);
    }
    size_t off = table_offset();
    PatSearcher *s = lua_newuserdatauv(L, off + pvs_table_bytes(bits), 0); /* may raise: the cap */
    s->bits = bits;
    pvs_init(&s->pvs, (char *)s + off, bits);
    luaL_setmetatable(L, SEARCHER);
    return 1;
}

/* One option of searcher:search: name, kind ('b' boolean, 'i' integer
 * lo..hi, 'n' number lo..hi), where in PvsOptions. */
typedef struct OptSpec {
    const char *name;
    char kind;
    double lo, hi;
    size_t off;
} OptSpec;

#define OPT(name, kind, lo, hi)                                                                    \
    {                                                                                              \
#name, kind, lo, hi, offsetof(PvsOptions, name)                                            \
    }
static const OptSpec opt_specs[] = {
    OPT(timelimit, 'n', 0, 1e7), OPT(soft, 'n', 0, 1),        OPT(maxdepth, 'i', 1, 64),
    OPT(tt, 'b', 0, 0),          OPT(aspiration, 'b', 0, 0),  OPT(killers, 'b', 0, 0),
    OPT(history, 'b', 0, 0),     OPT(lmr, 'b', 0, 0),         OPT(vcf, 'b', 0, 0),
    OPT(forced, 'b', 0, 0),      OPT(prune, 'b', 0, 0),       OPT(window, 'i', 1, 1000000),
    OPT(vcf_depth, 'i', 0, 60),  OPT(vcf_nodes, 'i', 0, 1e7), OPT(root_vcf, 'i', 0, 60),
    OPT(width, 'i', 0, 1024),    OPT(width1, 'i', 0, 1024),   OPT(defend, 'i', 0, 1000),
    OPT(root_vct, 'i', 0, 60),   OPT(vct_nodes, 'i', 0, 1e8), OPT(vct_share, 'n', 0, 0.5),
    OPT(guard, 'b', 0, 0),       OPT(qdefend, 'b', 0, 0),
};
#define NSPECS (sizeof opt_specs / sizeof opt_specs[0])

static const char *known_options(lua_State *L)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < NSPECS; i++) {
        luaL_addstring(&b, opt_specs[i].name);
        luaL_addstring(&b, ", ");
    }
    luaL_addstring(&b, "nodes, weights");
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

/* The options table at idx into o; raises on a bad or unknown option. */
static void read_search_options(lua_State *L, int idx, PvsOptions *o)
{
    if (lua_isnoneornil(L, idx)) return;
    luaL_checktype(L, idx, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        bool known = k && (strcmp(k, "nodes") == 0 || strcmp(k, "weights") == 0);
        for (size_t i = 0; k && !known && i < NSPECS; i++)
            known = strcmp(k, opt_specs[i].name) == 0;
        if (!known)
            luaL_error(L, "search: unknown option %s (known: %s)",
                       k ? lua_pushfstring(L, "'%s'", k) : luaL_typename(L, -1), known_options(L));
    }
    for (size_t i = 0; i < NSPECS; i++) {
        const OptSpec *sp = &opt_specs[i];
        char *at = (char *)o + sp->off;
        int t = lua_getfield(L, idx, sp->name);
        if (t != LUA_TNIL) {
            if (sp->kind == 'b') {
                if (t != LUA_TBOOLEAN)
                    luaL_error(L, "search: option '%s' must be a boolean", sp->name);
                *(bool *)(void *)at = lua_toboolean(L, -1);
            } else if (sp->kind == 'i') {
                int exact;
                lua_Integer v = lua_tointegerx(L, -1, &exact);
                if (!exact || v < sp->lo || v > sp->hi)
                    luaL_error(L, "search: option '%s' must be an integer from %d to %d", sp->name,
                               (int)sp->lo, (int)sp->hi);
                *(int *)(void *)at = (int)v;
            } else {
                double v = lua_tonumber(L, -1);
                if (t != LUA_TNUMBER || !(v >= sp->lo && v <= sp->hi)) {
                    char range[64];
                    snprintf(range, sizeof range, "from %g to %g", sp->lo, sp->hi);
                    luaL_error(L, "search: option '%s' must be a number %s", sp->name, range);
                }
                *(double *)(void *)at = v;
            }
        }
        lua_pop(L, 1);
    }
    if (lua_getfield(L, idx, "nodes") != LUA_TNIL) {
        int exact;
        lua_Integer v = lua_tointegerx(L, -1, &exact);
        if (!exact || v < 1) luaL_error(L, "search: option 'nodes' must be a positive integer");
        o->max_nodes = (uint64_t)v;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, idx, "weights") != LUA_TNIL) read_weights(L, -1, &o->weights);
    lua_pop(L, 1);
}

/* searcher:search(game [, opts]) -> move, info */
static int l_search(lua_State *L)
{
    PatSearcher *s = luaL_checkudata(L, 1, SEARCHER);
    const Game *g = lmb_check_game(L, 2);
    PvsOptions o = pvs_default_options();
    read_search_options(L, 3, &o);
    lua_createtable(L, 0, 10); /* before the search: no error may leak its memory */
    NativeLimits nl = budget_native(L);
    if (nl.b) {
        if (nl.seconds >= 0 && (o.timelimit < 0 || nl.seconds < o.timelimit))
            o.timelimit = nl.seconds > 1e-6 ? nl.seconds : 1e-6;
        if (nl.max_nodes && (!o.max_nodes || nl.max_nodes < o.max_nodes))
            o.max_nodes = nl.max_nodes;
        size_t need = pat_bytes(game_geom(g)) * 2 + sizeof(PvsResult);
        if (nl.room != SIZE_MAX && nl.room < need) budget_native_done(L, &nl, 0, "memory");
    }
    PvsResult r;
    int rc = pvs_search(&s->pvs, g, &o, &r);
    if (rc == MB_EINTR) {
        budget_native_done(L, &nl, r.nodes + r.vcf_nodes, NULL);
        return lmb_error_interrupted(L);
    }
    if (rc != MB_OK) {
        budget_native_done(L, &nl, 0, rc == MB_ENOMEM ? "memory" : NULL);
        return luaL_error(L, "search: %s", mb_strerror(rc));
    }
    budget_native_done(L, &nl, r.nodes + r.vcf_nodes, NULL);
    lua_pushinteger(L, r.score);
    lua_setfield(L, -2, "score");
    lua_pushinteger(L, r.depth);
    lua_setfield(L, -2, "depth");
    lua_pushinteger(L, (lua_Integer)r.nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushinteger(L, (lua_Integer)r.vcf_nodes);
    lua_setfield(L, -2, "vcf_nodes");
    lua_pushnumber(L, r.seconds);
    lua_setfield(L, -2, "seconds");
    lua_pushboolean(L, r.timeout);
    lua_setfield(L, -2, "timeout");
    lua_pushstring(L, r.reason);
    lua_setfield(L, -2, "reason");
    lua_createtable(L, r.npv, 0);
    for (int j = 0; j < r.npv; j++) {
        lua_pushinteger(L, r.pv[j]);
        lua_rawseti(L, -2, j + 1);
    }
    lua_setfield(L, -2, "pv");
    if (r.move >= 0)
        lua_pushinteger(L, r.move);
    else
        lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
}

static const luaL_Reg game_methods[] = {
    {"pattern", l_pattern},
    {"pattern_square", l_pattern_square},
    {"pattern_eval", l_pattern_eval},
    {"forced_moves", l_forced_moves},
    {"pattern_moves", l_pattern_moves},
    {"pattern_weights", l_pattern_weights},
    {NULL, NULL},
};

static const luaL_Reg searcher_methods[] = {
    {"search", l_search},
    {NULL, NULL},
};

static const luaL_Reg functions[] = {
    {"pattern_name", l_pattern_name},
    {"pattern_weights", l_default_weights},
    {"pattern_searcher", l_searcher},
    {NULL, NULL},
};

void lmb_open_pattern(lua_State *L)
{
    lmb_game_add_methods(L, game_methods);
    if (luaL_newmetatable(L, SEARCHER)) {
        luaL_newlib(L, searcher_methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    luaL_setfuncs(L, functions, 0);
}
