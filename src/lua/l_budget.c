/* l_budget.c: the budgets of sandboxed calls (l_budget.h): a capped
 * allocator for a whole Lua state, the count hook of the instruction
 * budget, and the timer of the time budget. l_sandbox.c runs each player's
 * calls through budget_pcall. */
#define _POSIX_C_SOURCE 200809L /* timer_create, sigaction */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>

#include "l_alarm.h"
#include "l_budget.h"
#include "l_util.h"
#include "clock.h"

#define HOOK_EVERY 1000 /* instructions per tick of the count hook */


/* ---- The allocator and the hook ---- */

static void budget_hook(lua_State *L, lua_Debug *ar);
static void budget_collect(lua_State *L, Budget *b);

/* A budget ran out (why: "instructions", "time" or "memory"): the first
 * one counts. Past the deadline it is "time" whatever noticed it (a refusal
 * after an emergency collection that outlived the move), and it ran out at
 * the deadline. Arms a hook of 1 to end the call at its next instruction
 * (with only a time budget no count hook is set); lua_sethook only stores
 * fields, as it may even be called from a signal handler. */
static void budget_out(Budget *b, const char *why)
{
    if (b->reason) return;
    double t = clock_now();
    if (b->deadline > 0 && (b->timed_out || t > b->deadline)) {
        why = "time";
        t = b->deadline;
    }
    b->reason = why;
    b->exceeded_at = t;
    if (b->armed && b->child) lua_sethook(b->child, budget_hook, LUA_MASKCOUNT, 1);
}

void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Budget *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        b->used -= old;
        return NULL;
    }
    if (nsize > old && b->max_memory && b->used + (nsize - old) > b->max_memory) {
        /* Lua answers a refusal with an emergency collection and asks
         * again for the same block and size: the first refusal of a request
         * only lets that collection free the dead data, the second ends the
         * call. A request refused and never asked again (lauxlib's buffers
         * call the allocator directly and raise at once) is refused for
         * good when another one is refused, or when the call returns. */
        if (b->refused_size == nsize && b->refused == ptr) {
            b->refused_size = 0;
            budget_out(b, "memory");
        } else {
            if (b->refused_size) budget_out(b, "memory");
            b->refused = ptr;
            b->refused_size = nsize;
        }
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p) {
        b->used = b->used - old + nsize;
        if (b->used > b->peak) b->peak = b->used;
        if (b->refused_size == nsize && b->refused == ptr) b->refused_size = 0; /* the retry */
        if (b->used > b->gc_mark && !b->gc_soon && b->armed && b->child) {
            b->gc_soon = true; /* budget_collect, at the next instruction */
            lua_sethook(b->child, budget_hook, LUA_MASKCOUNT, 1);
        }
    }
    return p;
}

/* Collect when the state passes half the room it has left now. */
static void budget_set_mark(Budget *b)
{
    b->gc_mark = b->max_memory && b->used < b->max_memory ? b->used + (b->max_memory - b->used) / 2
                                                          : SIZE_MAX;
}

/* The budgets' error messages, kept alive in the state's registry (by
 * budget_attach), so that raising one allocates nothing: at the memory cap
 * an allocation would be refused after an emergency collection, one for
 * every pcall or __close the error unwinds through. */
static const char *const budget_messages[] = {
    "sandbox: instructions budget exceeded",
    "sandbox: time budget exceeded",
    "sandbox: memory budget exceeded",
};

/* End the call: from now on every instruction raises, until it unwinds. A
 * runtime error, without position: an xpcall's message handler runs for it
 * with hooks off when the hook raises, so the sandbox's xpcall skips the
 * script's handler once the budget ran out (budget_spent). */
static void budget_raise(lua_State *L, Budget *b)
{
    if (b->every != 1) {
        b->every = 1;
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
    }
    const char *msg = budget_messages[2];
    if (strcmp(b->reason, "instructions") == 0) msg = budget_messages[0];
    if (strcmp(b->reason, "time") == 0) msg = budget_messages[1];
    lua_pushstring(L, msg);
    lua_error(L);
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    void *ud;
    lua_getallocf(L, &ud);
    Budget *b = ud;
    if (!b->armed) return;
    b->count += b->every;
    if (!b->reason) {
        if (b->timed_out) budget_out(b, "time");
        if (b->max_instructions && b->count >= b->max_instructions) budget_out(b, "instructions");
        if (b->deadline > 0 && clock_now() > b->deadline) budget_out(b, "time");
    }
    if (b->reason) budget_raise(L, b);
    if (b->gc_soon) budget_collect(L, b);
}

/* The collection the allocator asked for: now, inside the call and its
 * time; then the call's own hook again. */
static void budget_collect(lua_State *L, Budget *b)
{
    b->gc_soon = false;
    size_t before = b->used;
    lua_gc(L, LUA_GCCOLLECT);
    /* one that freed less than an eighth of the cap found live data: the
     * next would find the same, so none until the next call */
    if (b->used + b->max_memory / 8 > before)
        b->gc_mark = SIZE_MAX;
    else
        budget_set_mark(b);
    if (b->hooked)
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, b->every);
    else
        lua_sethook(L, NULL, 0, 0);
    /* the timer may have fired meanwhile: its hook of 1 again */
    if (b->timed_out) lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
}

/* ---- The time budget: a timer, not a per-instruction check ----
 *
 * A count hook makes Lua stop at every VM instruction, which costs about
 * as much as the instruction itself; the instruction budget needs it, the
 * time budget does not. One POSIX timer per process sends SIGRTMIN when the
 * running call's deadline may have passed; the handler then sets a count
 * hook of 1 on that call's state (lua_sethook may be called from a signal
 * handler: lua.c stops scripts on Ctrl-C that way), and the hook raises
 * "time". The timer is not disarmed after each call: it stays set for the
 * first deadline, and the handler re-arms it for the call running when it
 * fires, so a stream of short moves costs no system call. Timers do not
 * survive fork, so a forked worker makes its own. Without POSIX timers the
 * count hook checks the clock instead. */

static timer_t sb_timer;
static volatile sig_atomic_t sb_timer_ok; /* this process has its timer */
static volatile sig_atomic_t sb_pending;  /* the timer is set */
static Budget *volatile sb_active;        /* the call under a time budget */
static double sb_fires_at;                /* when the pending timer fires */

static void sb_arm(double seconds)
{
    if (seconds < 1e-6) seconds = 1e-6; /* at once, not disarmed */
    if (alarm_set(sb_timer, seconds)) {
        sb_pending = 1;
        sb_fires_at = clock_now() + seconds;
    }
}

static void sb_on_timer(int sig)
{
    (void)sig;
    int saved = errno;
    sb_pending = 0;
    Budget *b = sb_active;
    if (b && b->armed && b->deadline > 0) {
        double t = clock_now();
        if (t >= b->deadline) {
            b->timed_out = 1;
            lua_sethook(b->child, budget_hook, LUA_MASKCOUNT, 1);
        } else {
            sb_arm(b->deadline - t);
        }
    }
    errno = saved;
}

static void sb_after_fork(void)
{
    sb_timer_ok = 0;
    sb_pending = 0;
    sb_active = NULL;
}

/* When the code unloads (marubatsu.so closed by lua_close at exit): a
 * timer still set would fire into unmapped code, so it goes, and so does
 * the handler. */
__attribute__((destructor)) static void sb_unload(void)
{
    if (sb_timer_ok) timer_delete(sb_timer);
    sb_timer_ok = 0;
    sb_pending = 0;
    sb_active = NULL;
    signal(SIGRTMIN, SIG_IGN);
}

/* The process's timer, made on first use (again after a fork). */
static bool sb_timer_ready(void)
{
    static bool handler_set = false;
    if (sb_timer_ok) return true;
    if (!handler_set) {
        if (!alarm_handler(SIGRTMIN, sb_on_timer)) return false;
        pthread_atfork(NULL, NULL, sb_after_fork);
        handler_set = true;
    }
    if (!alarm_timer(SIGRTMIN, &sb_timer)) return false;
    sb_timer_ok = 1;
    return true;
}

/* ---- Native calls ---- */


void budget_attach(lua_State *C, Budget *b)
{
    lua_pushlightuserdata(C, b);
    lua_setfield(C, LUA_REGISTRYINDEX, LMB_BUDGET_KEY);
    int n = (int)(sizeof budget_messages / sizeof *budget_messages);
    lua_createtable(C, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushstring(C, budget_messages[i]);
        lua_rawseti(C, -2, i + 1);
    }
    lua_rawsetp(C, LUA_REGISTRYINDEX, budget_messages);
}

static Budget *budget_of(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_BUDGET_KEY);
    Budget *b = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return b;
}

int budget_spent(lua_State *L)
{
    Budget *b = budget_of(L);
    lua_pushboolean(
        L, b && b->armed &&
               (b->reason || b->timed_out || (b->deadline > 0 && clock_now() > b->deadline)));
    return 1;
}

NativeLimits budget_native(lua_State *L)
{
    NativeLimits nl = {NULL, -1, 0, SIZE_MAX};
    Budget *b = budget_of(L);
    if (!b || !b->armed) return nl;
    nl.b = b;
    if (b->deadline > 0) {
        nl.seconds = b->deadline - clock_now();
        if (nl.seconds < 0) nl.seconds = 0;
    }
    if (b->max_instructions) {
        long long left = b->max_instructions - b->count;
        nl.max_nodes = left > BUDGET_INSTRUCTIONS_PER_NODE
                           ? (unsigned long long)left / BUDGET_INSTRUCTIONS_PER_NODE
                           : 1;
    }
    if (b->max_memory) nl.room = b->used < b->max_memory ? b->max_memory - b->used : 0;
    return nl;
}

void budget_native_done(lua_State *L, const NativeLimits *nl, unsigned long long nodes,
                        const char *why)
{
    Budget *b = nl->b;
    if (!b) return;
    b->count += (long long)(nodes > 1000000000000ULL ? 1000000000000ULL : nodes) *
                BUDGET_INSTRUCTIONS_PER_NODE;
    if (!why && b->max_instructions && b->count >= b->max_instructions) why = "instructions";
    if (!why && (b->timed_out || (b->deadline > 0 && clock_now() > b->deadline))) why = "time";
    if (!why && b->reason) why = b->reason;
    if (!why) return;
    budget_out(b, why);
    budget_raise(L, b); /* as the hook: every instruction raises until the call unwinds */
}

/* The call itself. A call that returns after a budget ran out (a refused
 * allocation caught by the script) counts as failed: LUA_ERRRUN with
 * b->reason set; so does one that returns past its deadline (a collection
 * that ran past it, where no hook could stop it). */
int budget_pcall(Budget *b, lua_State *C, int nargs, int nresults, bool armed)
{
    b->reason = NULL;
    b->count = 0;
    b->exceeded_at = 0;
    b->deadline = 0;
    b->refused_size = 0;
    b->gc_mark = SIZE_MAX;
    bool timer = false;
    if (armed) {
        b->every = HOOK_EVERY;
        if (b->max_instructions && b->max_instructions < b->every)
            b->every = (int)b->max_instructions;
        b->deadline = b->time_limit > 0 ? clock_now() + b->time_limit : 0;
        b->timed_out = 0;
        b->child = C;
        b->armed = true;
        if (b->deadline > 0 && sb_timer_ready()) {
            timer = true;
            sb_active = b;
            if (!sb_pending || sb_fires_at > b->deadline) sb_arm(b->time_limit);
        }
        /* the count hook: for the instruction budget, or for the clock when
         * there is no timer */
        b->hooked = b->max_instructions || (b->deadline > 0 && !timer);
        if (b->hooked) lua_sethook(C, budget_hook, LUA_MASKCOUNT, b->every);
        b->gc_soon = false;
        budget_set_mark(b);
    }
    int status = lua_pcall(C, nargs, nresults, 0);
    double end = clock_now();
    b->late = -1;
    if (b->refused_size) budget_out(b, "memory"); /* refused, and never granted */
    if (armed) {
        if (timer) sb_active = NULL;
        if (b->deadline > 0 && end > b->deadline) {
            b->late = end - b->deadline;
            budget_out(b, "time"); /* the first budget out still counts */
        }
        b->armed = false;
        b->gc_mark = SIZE_MAX;
        lua_sethook(C, NULL, 0, 0);
    }
    b->overrun = b->exceeded_at > 0 ? end - b->exceeded_at : -1;
    if (status == LUA_OK && b->reason) {
        lua_settop(C, 0);
        status = LUA_ERRRUN;
    }
    return status;
}
