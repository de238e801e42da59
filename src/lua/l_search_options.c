/* l_search_options.c: reading the options tables of the αβ searches from
 * Lua (l_search_options.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "candidates.h"
#include "eval14.h"
#include "l_search_options.h"
#include "tt.h"
#include "vcf.h"

/* Each searcher's option names, in the order its error message lists them. */
static const char *const abs_names[] = {"maxdepth", "eval",          "eval_func",  "eval_params",
                                        "use_tt",   "share_tt",      "timelimit",  "rand",
                                        "analyze",  "calc_score",    "candidates", "vcf",
                                        "hash",     "lines_weights", NULL};
const Kind LMB_SEARCH_ABS = {
    "search_abs_dls", abs_names, {.maxdepth = 1, .share_tt = true, .rand = true, .timelimit = -1}};
static const char *const pvs_names[] = {
    "maxdepth", "eval",       "eval_func",  "eval_params", "share_tt", "timelimit",     "rand",
    "analyze",  "calc_score", "candidates", "vcf",         "hash",     "lines_weights", NULL};
const Kind LMB_SEARCH_PVS = {
    "search_pvs_dls",
    pvs_names,
    {.maxdepth = 1, .use_tt = true, .share_tt = true, .rand = true, .timelimit = -1, .pvs = true}};
static const char *const iddfs_names[] = {"pvs",         "moveordering",  "eval",       "eval_func",
                                          "eval_params", "use_tt",        "share_tt",   "timelimit",
                                          "rand",        "analyze",       "candidates", "vcf",
                                          "hash",        "lines_weights", NULL};
const Kind LMB_SEARCH_IDDFS = {"search_iddfs",
                               iddfs_names,
                               {.maxdepth = 1,
                                .use_tt = true,
                                .share_tt = true,
                                .rand = true,
                                .timelimit = 10,
                                .moveordering = true}};

static bool opt_bool(lua_State *L, int t, const char *name, bool dflt, const char *fname)
{
    int ty = lua_getfield(L, t, name);
    bool v = dflt;
    if (ty == LUA_TBOOLEAN)
        v = lua_toboolean(L, -1);
    else if (ty != LUA_TNIL)
        luaL_error(L, "%s: option '%s' must be a boolean, got %s", fname, name,
                   luaL_typename(L, -1));
    lua_pop(L, 1);
    return v;
}

/* The series' form of the evaluator: eval_func (an AI, or a function
 * (game, params)) called at each leaf as eval_func(game, params) with
 * params = eval_params plus calc_score = true (so ai14s with
 * eval_params = {minimax = true} gives the o-view score). Pushes the
 * function and the params table (a copy made once per search) and returns
 * true, or returns false (nothing pushed) when there is no eval_func. */
static bool read_eval_func(lua_State *L, int t, const char *fname, Options *o)
{
    int ty = lua_getfield(L, t, "eval_func");
    if (ty == LUA_TNIL) {
        bool params = lua_getfield(L, t, "eval_params") != LUA_TNIL;
        lua_pop(L, 2);
        if (params) luaL_error(L, "%s: eval_params needs eval_func", fname);
        return false;
    }
    if (lua_getfield(L, t, "eval") != LUA_TNIL)
        luaL_error(L, "%s: give eval or eval_func (with eval_params), not both", fname);
    lua_pop(L, 1);
    if (ty == LUA_TTABLE && lua_getfield(L, -1, "fn") == LUA_TFUNCTION) {
        lua_remove(L, -2); /* an AI: call its function directly */
    } else if (ty == LUA_TTABLE) {
        lua_pop(L, 1);
        if (!luaL_getmetafield(L, -1, "__call"))
            luaL_error(L,
                       "%s: option 'eval_func' must be an AI or a function (game, params), "
                       "got a table that is neither",
                       fname);
        lua_pop(L, 1); /* callable: called as it is */
    } else if (ty != LUA_TFUNCTION) {
        luaL_error(L, "%s: option 'eval_func' must be an AI or a function (game, params), got %s",
                   fname, luaL_typename(L, -1));
    }
    /* the function of an ai_by_score AI: its eval, called directly (the
     * wrapper's calc_score branch is eval(game, params), negated when
     * params.minimax and 〇 is to move; lua_eval does that negation) */
    bool score_ai = false;
    int top = lua_gettop(L);
    if (lua_getfield(L, LUA_REGISTRYINDEX, LMB_PRIVATE_KEY) == LUA_TTABLE &&
        lua_getfield(L, -1, "score_evals") == LUA_TTABLE) {
        lua_pushvalue(L, top);
        score_ai = lua_rawget(L, -2) == LUA_TFUNCTION;
        if (score_ai) lua_replace(L, top);
    }
    lua_settop(L, top);
    o->fn = lua_gettop(L);
    lua_createtable(L, 0, 4);
    o->params = lua_gettop(L);
    ty = lua_getfield(L, t, "eval_params");
    if (ty == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, o->params);
        }
    } else if (ty != LUA_TNIL) {
        luaL_error(L, "%s: option 'eval_params' must be a table, got %s", fname,
                   luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
    lua_setfield(L, o->params, "calc_score");
    if (score_ai) {
        lua_getfield(L, o->params, "minimax");
        o->negate_o = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    o->lua_eval = true;
    return true;
}

/* The numeric options: maxdepth, timelimit, candidates and vcf (a
 * boolean or a number of fours). */
static void read_numbers(lua_State *L, int t, const char *fname, Options *o)
{
    int ty = lua_getfield(L, t, "maxdepth");
    if (ty != LUA_TNIL) {
        int exact;
        lua_Integer d = lua_tointegerx(L, -1, &exact);
        if (ty != LUA_TNUMBER || !exact)
            luaL_error(L, "%s: option 'maxdepth' must be an integer, got %s", fname,
                       ty == LUA_TNUMBER ? "a number with a fraction" : luaL_typename(L, -1));
        if (d < 1 || d > 1000000)
            luaL_error(L, "%s: option 'maxdepth' must be at %s, got %I", fname,
                       d < 1 ? "least 1" : "most 1000000", (LUAI_UACINT)d);
        o->maxdepth = (int)d;
    }
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "timelimit");
    if (ty != LUA_TNIL) {
        int isnum;
        lua_Number s = lua_tonumberx(L, -1, &isnum);
        if (ty != LUA_TNUMBER || !isnum || !(s >= 0))
            luaL_error(L, "%s: option 'timelimit' must be a number of seconds >= 0 or nil", fname);
        o->timelimit = s;
    }
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "candidates");
    if (ty != LUA_TNIL) {
        int exact;
        lua_Integer d = lua_tointegerx(L, -1, &exact);
        if (ty != LUA_TNUMBER || !exact || d < 1 || d > CANDIDATES_MAX_DISTANCE)
            luaL_error(L, "%s: option 'candidates' must be a distance 1..%d, got %s", fname,
                       CANDIDATES_MAX_DISTANCE, luaL_tolstring(L, -1, NULL));
        o->candidates = (int)d;
    }
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "vcf");
    if (ty == LUA_TBOOLEAN) {
        o->vcf = lua_toboolean(L, -1) ? VCF_DEFAULT_DEPTH : 0;
    } else if (ty != LUA_TNIL) {
        int isint;
        lua_Integer d = lua_tointegerx(L, -1, &isint);
        if (!isint || d < 1 || d > 60)
            luaL_error(L, "%s: option 'vcf' must be a boolean or an integer from 1 to 60 (fours)",
                       fname);
        o->vcf = (int)d;
    }
    lua_pop(L, 1);
}

/* The evaluator: eval_func (read_eval_func), a Lua function (left pushed,
 * o->fn its slot) or the name of a C evaluator. */
static void read_eval(lua_State *L, int t, const char *fname, Options *o)
{
    if (read_eval_func(L, t, fname, o)) return;
    int ty = lua_getfield(L, t, "eval");
    if (ty == LUA_TFUNCTION) {
        o->lua_eval = true; /* stays pushed */
        o->fn = lua_gettop(L);
        return;
    }
    if (ty == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1);
        o->lines = strcmp(name, "lines") == 0;
        if (!o->lines && strcmp(name, "ai14s") != 0)
            luaL_error(L,
                       "%s: unknown evaluator '%s' (the C evaluators: "
                       "\"ai14s\", \"lines\"; or pass a function (game) -> o-view score)",
                       fname, name);
    } else if (ty != LUA_TNIL) {
        luaL_error(L,
                   "%s: option 'eval' must be \"ai14s\", \"lines\" or a function (game) "
                   "-> o-view score, got %s",
                   fname, luaL_typename(L, -1));
    }
    lua_pop(L, 1);
}

/* The weights of the evaluator "lines" (option lines_weights: a table of
 * numbers by name, keys left out keeping the defaults) into o->lines_w. */
static void read_lines_weights(lua_State *L, int t, const char *fname, Options *o)
{
    static const char *const names[] = {"base",     "open_mover", "open_other",
                                        "sure_win", "sure_loss",  NULL};
    int ty = lua_getfield(L, t, "lines_weights");
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (ty != LUA_TTABLE)
        luaL_error(L, "%s: option 'lines_weights' must be a table, got %s", fname,
                   luaL_typename(L, -1));
    if (!o->lines) luaL_error(L, "%s: option 'lines_weights' needs eval = \"lines\"", fname);
    int w = lua_gettop(L);
    lua_pushfstring(L, "%s: lines_weights", fname);
    lmb_check_option_names(L, w, lua_tostring(L, -1), LMB_NAMES(names));
    lua_pop(L, 1);
    double *field[] = {&o->lines_w.base, &o->lines_w.open_mover, &o->lines_w.open_other,
                       &o->lines_w.sure_win, &o->lines_w.sure_loss};
    for (int i = 0; names[i]; i++) {
        int vt = lua_getfield(L, w, names[i]);
        if (vt != LUA_TNIL) {
            if (vt != LUA_TNUMBER)
                luaL_error(L, "%s: lines_weights.%s must be a number, got %s", fname, names[i],
                           luaL_typename(L, -1));
            *field[i] = lua_tonumber(L, -1);
        }
        lua_pop(L, 1);
    }
    const char *bad = eval_lines_check_weights(&o->lines_w);
    if (bad) {
        double lo = 0, hi = EVAL_LINES_SURE_MAX;
        if (strcmp(bad, "base") == 0) {
            lo = EVAL_LINES_BASE_MIN;
            hi = EVAL_LINES_BASE_MAX;
        } else if (strncmp(bad, "open_", 5) == 0) {
            hi = EVAL_LINES_OPEN_MAX;
        }
        char range[64];
        snprintf(range, sizeof range, "from %g to %g", lo, hi);
        lua_getfield(L, w, bad);
        luaL_error(L, "%s: lines_weights.%s must be a number %s, got %s", fname, bad, range,
                   luaL_tolstring(L, -1, NULL));
    }
    lua_pop(L, 1);
}

/* See l_search_options.h. */
Options lmb_search_options(lua_State *L, int t, const Kind *kind)
{
    const char *fname = kind->name;
    Options o = kind->dflt;
    o.hash = (size_t)TT_DEFAULT_HASH_MB << 20;
    o.lines_w = eval_lines_default_weights();
    if (lua_isnoneornil(L, t)) return o;
    luaL_checktype(L, t, LUA_TTABLE);
    /* unknown names first: a typo must not be silently ignored */
    lmb_check_option_names(L, t, fname, LMB_NAMES(kind->names));
    read_numbers(L, t, fname, &o);
    o.hash = lmb_opt_hash(L, t, fname, TT_DEFAULT_HASH_MB);
    o.use_tt = opt_bool(L, t, "use_tt", o.use_tt, fname);
    o.share_tt = opt_bool(L, t, "share_tt", o.share_tt, fname);
    o.rand = opt_bool(L, t, "rand", o.rand, fname);
    o.analyze = opt_bool(L, t, "analyze", o.analyze, fname);
    o.calc_score = opt_bool(L, t, "calc_score", o.calc_score, fname);
    o.pvs = opt_bool(L, t, "pvs", o.pvs, fname);
    o.moveordering = opt_bool(L, t, "moveordering", o.moveordering, fname);
    read_eval(L, t, fname, &o);
    read_lines_weights(L, t, fname, &o);
    return o;
}
