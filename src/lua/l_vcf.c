/* l_vcf.c: mb.vcf and mb.vct, the threat-space search of vcf.h.
 *
 *   mb.vcf(game [, {maxdepth =, timelimit =}]) -> moves | nil [, "time out"]
 *   mb.vct(game [, {maxdepth =, timelimit =}]) -> the same, threes allowed
 *
 * A win for the side to move comes back as a list of moves (attacker,
 * defender, attacker, ...; the last one wins), nil when there is none
 * within maxdepth attacker moves (default 10, at most 60), and nil, "time
 * out" when timelimit (seconds) ran out first; a Ctrl-C (interrupt.h)
 * raises "interrupted". The game is only read.
 * Unknown option names are errors. From a sandboxed script the player's
 * budgets bound the call as they bound mb.solve: the time left, the
 * instructions left as nodes (BUDGET_INSTRUCTIONS_PER_NODE each) and the
 * memory of the solver's table. */
#include <string.h>

#include "l_budget.h"
#include "l_game.h"
#include "l_vcf.h"
#include "vcf.h"


/* The options table at 2 into o; raises on a bad or unknown option. */
static void read_options(lua_State *L, const char *fname, VcfOptions *o)
{
    static const char *const names[] = {"maxdepth", "timelimit", NULL};
    if (lua_isnoneornil(L, 2)) return;
    lmb_check_option_names(L, 2, fname, LMB_NAMES(names));
    if (lua_getfield(L, 2, "maxdepth") != LUA_TNIL) {
        int exact;
        lua_Integer d = lua_tointegerx(L, -1, &exact);
        if (!exact || d < 1 || d > 60)
            luaL_error(L, "%s: option 'maxdepth' must be an integer from 1 to 60", fname);
        o->maxdepth = (int)d;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 2, "timelimit") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TNUMBER || !(lua_tonumber(L, -1) > 0))
            luaL_error(L, "%s: option 'timelimit' must be a positive number of seconds", fname);
        o->timelimit = lua_tonumber(L, -1);
    }
    lua_pop(L, 1);
}

static int search(lua_State *L, bool vct)
{
    const char *fname = vct ? "vct" : "vcf";
    const Game *g = lmb_check_game(L, 1);
    VcfOptions o = vcf_default_options();
    o.vct = vct;
    read_options(L, fname, &o);
    lua_createtable(L, 0, 0); /* before the search: no error may leak the solver */
    NativeLimits nl = budget_native(L);
    if (nl.b) {
        if (nl.seconds >= 0 && (o.timelimit < 0 || nl.seconds < o.timelimit))
            o.timelimit = nl.seconds > 1e-6 ? nl.seconds : 1e-6;
        if (nl.max_nodes) o.max_nodes = nl.max_nodes;
        if (nl.room != SIZE_MAX && nl.room < VCF_BYTES) budget_native_done(L, &nl, 0, "memory");
    }
    Vcf v;
    VcfResult r;
    int rc = vcf_init(&v);
    if (rc == MB_OK) rc = vcf_solve(&v, g, &o, &r);
    vcf_free(&v);
    if (rc != MB_OK) {
        budget_native_done(L, &nl, 0, rc == MB_ENOMEM ? "memory" : NULL);
        return luaL_error(L, "%s: %s", fname, mb_strerror(rc));
    }
    budget_native_done(L, &nl, r.nodes, r.status == VCF_NODES ? "instructions" : NULL);
    if (r.status == VCF_INTERRUPTED) return lmb_error_interrupted(L);
    if (r.status == VCF_WIN) {
        for (int i = 0; i < r.n; i++) {
            lua_pushinteger(L, r.moves[i]);
            lua_rawseti(L, -2, i + 1);
        }
        return 1;
    }
    lua_pushnil(L);
    if (r.status == VCF_NONE) return 1;
    lua_pushliteral(L, "time out");
    return 2;
}

/* mb.vcf(game [, opts]) -> moves | nil [, "time out"] */
static int l_vcf(lua_State *L) { return search(L, false); }

/* mb.vct(game [, opts]) -> moves | nil [, "time out"] */
static int l_vct(lua_State *L) { return search(L, true); }

static const luaL_Reg functions[] = {
    {"vcf", l_vcf},
    {"vct", l_vct},
    {NULL, NULL},
};

void lmb_open_vcf(lua_State *L) { luaL_setfuncs(L, functions, 0); }
