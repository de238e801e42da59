/* l_timed.c: trusted calls under a deadline, the host's half of the time
 * controls of tournaments and matches (scripts/lib/timecontrol.lua). In
 * the host library:
 *
 *   host.timed_call(seconds, f, ...) -> true, f's results...
 *                                     | false, error, timed_out
 *
 * runs f(...) protected, with a count hook that reads the clock
 * (search_now) every TIMED_EVERY VM instructions. Once the deadline has
 * passed, the hook raises "time: the move's time ran out" at every
 * instruction until the call unwinds, so a pcall inside f cannot swallow
 * it (as the sandbox's budgets do, l_budget.c). Coroutines that f creates
 * inherit the hook. Work done inside one C call (a native search) is not
 * stopped by the hook: the caller also measures the whole call. The hook
 * that was set before (the REPL's Ctrl-C hook, an outer timed call's) is
 * put back afterwards. */
#include <stdbool.h>

#include "l_timed.h"
#include "search.h"

#define TIMED_EVERY 1000 /* instructions between two looks at the clock */

/* The running timed call (a timed call inside a timed call saves and
 * restores these). */
static double td_deadline;
static bool td_expired;

static void timed_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (!td_expired) {
        if (search_now() < td_deadline) return;
        td_expired = true;
        lua_sethook(L, timed_hook, LUA_MASKCOUNT, 1); /* raise until it unwinds */
    }
    luaL_error(L, "time: the move's time ran out");
}

static int l_timed_call(lua_State *L)
{
    double seconds = luaL_checknumber(L, 1);
    luaL_argcheck(L, seconds >= 0 && seconds <= 1e9, 1, "seconds in [0, 1e9] expected");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    int nargs = lua_gettop(L) - 2;
    lua_Hook old_hook = lua_gethook(L);
    int old_mask = lua_gethookmask(L), old_count = lua_gethookcount(L);
    double saved_deadline = td_deadline;
    bool saved_expired = td_expired;
    double deadline = search_now() + seconds;
    /* an outer timed call's earlier deadline still holds */
    if (old_hook == timed_hook && saved_deadline < deadline) deadline = saved_deadline;
    td_deadline = deadline;
    td_expired = false;
    lua_sethook(L, timed_hook, LUA_MASKCOUNT, TIMED_EVERY);
    int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
    bool expired = td_expired;
    lua_sethook(L, old_hook, old_mask, old_count);
    td_deadline = saved_deadline;
    td_expired = saved_expired;
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 1);
    if (status == LUA_OK) return lua_gettop(L);
    lua_pushboolean(L, expired);
    return 3;
}

void lmb_open_timed(lua_State *L)
{
    lua_pushcfunction(L, l_timed_call);
    lua_setfield(L, -2, "timed_call");
}
