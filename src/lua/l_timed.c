/* l_timed.c: trusted calls under a deadline, the host's half of the time
 * controls of tournaments and matches (scripts/lib/timecontrol.lua). In
 * the host library:
 *
 *   host.timed_call(seconds, f, ...) -> true, f's results...
 *                                     | false, error, timed_out
 *
 * runs f(...) protected. When the deadline passes, a count hook of 1 is set
 * on the calling thread; it raises "time: the move's time ran out" at every
 * instruction until the call unwinds, so a pcall inside f cannot swallow it
 * (as the sandbox's budgets do, l_budget.c). Coroutines that f creates
 * after that inherit the hook. Work done inside one C call (a native
 * search) is not stopped by the hook: the caller also measures the whole
 * call.
 *
 * No hook runs before the deadline: a count hook, even a sparse one, puts
 * the Lua VM in its tracing mode, which makes every instruction slower (a
 * plain Lua loop runs 2.4 times slower under a count hook of 1000). So, as
 * the sandbox's time budget, a POSIX timer (one per process, made again
 * after a fork, signal SIGRTMIN + 1) fires at the deadline and its handler
 * sets the hook (lua_sethook may be called from a signal handler: lua.c
 * stops scripts on Ctrl-C that way). Without POSIX timers a count hook
 * reads the clock every TIMED_EVERY instructions instead. The hook that was
 * set before (the REPL's, an outer timed call's) is put back afterwards. */
#define _POSIX_C_SOURCE 200809L /* timer_create, sigaction */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "l_alarm.h"
#include "l_timed.h"
#include "clock.h"

#define TIMED_EVERY 1000 /* instructions between two looks at the clock (no timer) */

/* The running timed call (a timed call inside a timed call saves and
 * restores these). */
static double td_deadline;
static bool td_expired;
static lua_State *volatile td_L;       /* the thread to stop; NULL: none */
static volatile sig_atomic_t td_armed; /* a timed call is running */

static timer_t td_timer;
static bool td_timer_ok;
static pid_t td_timer_pid; /* the process that made td_timer */

static void timed_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (!td_expired) {
        if (clock_now() < td_deadline) return;
        td_expired = true;
        lua_sethook(L, timed_hook, LUA_MASKCOUNT, 1); /* raise until it unwinds */
    }
    luaL_error(L, "time: the move's time ran out");
}

static void td_on_timer(int sig)
{
    (void)sig;
    int saved = errno;
    lua_State *L = td_L;
    if (td_armed && L) lua_sethook(L, timed_hook, LUA_MASKCOUNT, 1);
    errno = saved;
}

/* This process's timer, made on first use (again after a fork: timers do
 * not survive one). */
static bool td_timer_ready(void)
{
    static bool handler_set = false;
    pid_t pid = getpid();
    if (td_timer_ok && td_timer_pid == pid) return true;
    td_timer_ok = false;
    if (!handler_set) {
        if (!alarm_handler(SIGRTMIN + 1, td_on_timer)) return false;
        handler_set = true;
    }
    if (!alarm_timer(SIGRTMIN + 1, &td_timer)) return false;
    td_timer_ok = true;
    td_timer_pid = pid;
    return true;
}

/* Fire the timer `seconds` from now (0: disarm). */
static void td_set(double seconds) { alarm_set(td_timer, seconds); }

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
    lua_State *saved_L = td_L;
    bool outer = td_armed;
    double deadline = clock_now() + seconds;
    if (outer && saved_deadline < deadline) deadline = saved_deadline; /* the outer limit holds */
    bool timer = td_timer_ready();
    td_armed = 0;
    td_deadline = deadline;
    td_expired = false;
    td_L = L;
    td_armed = 1;
    if (timer)
        td_set(deadline - clock_now() > 0 ? deadline - clock_now() : 1e-6);
    else
        lua_sethook(L, timed_hook, LUA_MASKCOUNT, TIMED_EVERY);
    int status = lua_pcall(L, nargs, LUA_MULTRET, 0);
    td_armed = 0;
    if (timer) td_set(0);
    bool expired = td_expired;
    lua_sethook(L, old_hook, old_mask, old_count);
    td_deadline = saved_deadline;
    td_expired = saved_expired;
    td_L = saved_L;
    if (outer) {
        /* the outer call's deadline again */
        td_armed = 1;
        double left = saved_deadline - clock_now();
        if (timer && left > 0)
            td_set(left);
        else
            lua_sethook(saved_L, timed_hook, LUA_MASKCOUNT, timer ? 1 : TIMED_EVERY);
    }
    lua_pushboolean(L, status == LUA_OK);
    lua_replace(L, 1);
    if (status == LUA_OK) return lua_gettop(L);
    lua_pushboolean(L, expired);
    return 3;
}

static const luaL_Reg functions[] = {
    {"timed_call", l_timed_call},
    {NULL, NULL},
};

void lmb_open_timed(lua_State *L) { luaL_setfuncs(L, functions, 0); }
