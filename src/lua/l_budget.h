/* l_budget.h: per-call budgets for the Lua states of sandboxed players
 * (l_budget.c; only the binding uses it).
 *
 *   instructions  a count hook; once exceeded it raises on every instruction
 *                 until the call unwinds, so the script's pcall cannot
 *                 swallow it
 *   time          seconds of wall clock, watched by a POSIX timer whose
 *                 signal handler sets a count hook of 1 once the deadline
 *                 passed (the count hook checks the clock without timers)
 *   memory        bytes held by the whole state: budget_alloc refuses to go
 *                 past the cap; Lua then collects (its emergency
 *                 collection) and asks once more, and only a second
 *                 refusal ends the call, at its next instruction. Some
 *                 requests get no second try (lauxlib's buffers), so the
 *                 state is also collected, at its next instruction, when
 *                 it passes half the room it had left after its last
 *                 collection (until one frees less than an eighth of the
 *                 cap: its data is live), so dead data rarely makes a
 *                 refusal
 *
 * Garbage collection runs inside the call, where no hook can stop it (a
 * collection's atomic phase is one C loop: a weak-keyed table holding a
 * long chain makes it quadratic). So the budgets look at the clock when
 * the call returns: a call that returns past its deadline has lost on
 * time, whatever it returned, and one that returns more than
 * BUDGET_LATE_RESET past it ran something no budget could stop, which the
 * caller does not trust to run again (l_sandbox.c reloads the script). The
 * process-level watchdog bounds such a collection from outside. */
#ifndef MB_L_BUDGET_H
#define MB_L_BUDGET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

typedef struct Budget {
    size_t used, peak;               /* bytes the child state holds, and its most */
    size_t max_memory;               /* 0: no cap */
    long long max_instructions;      /* 0: no cap */
    long long count;                 /* instructions of the current call (by ticks) */
    double time_limit;               /* seconds; 0: none */
    double deadline;                 /* of the current call; 0: none */
    double exceeded_at;              /* when a budget ran out; 0: not yet */
    int every;                       /* instructions per hook tick */
    bool armed;                      /* a script's call is running */
    volatile sig_atomic_t timed_out; /* set by the timer's signal handler */
    lua_State *child;                /* for the signal handler */
    const char *reason;              /* "instructions", "time", "memory" or NULL */
    double overrun;                  /* last call: seconds from exhaustion to return; < 0 none */
    double late;                     /* last call: seconds from its deadline to return; < 0 none */
    const void *refused;             /* the block of the last refused request (NULL: new) */
    size_t refused_size;             /* its size; 0: no refusal pending */
    size_t gc_mark;                  /* past it, collect at the next instruction */
    bool gc_soon;                    /* a collection is asked for */
    bool hooked;                     /* the call has a count hook of `every` */
} Budget;

/* Seconds past its deadline after which a call is said to have run
 * something the budgets could not stop (a collection, a long C call). */
#define BUDGET_LATE_RESET 0.1

/* What one node of a native search or solve counts against the
 * instruction budget: about what a Lua evaluator's call costs, so a script
 * gains nothing by moving its work into C. */
#define BUDGET_INSTRUCTIONS_PER_NODE 100

/* The lua_Alloc of a budgeted state: lua_newstate(budget_alloc, budget). */
void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Call the function below nargs arguments on C's stack, protected; armed,
 * under the instruction and time budgets too (the memory cap always holds).
 * Returns the lua_pcall status; a call that returned after a budget ran out
 * (or past its deadline) is LUA_ERRRUN with b->reason set, b->overrun the
 * seconds from the first budget running out (the deadline, for time) to
 * the return and b->late those from the deadline. */
int budget_pcall(Budget *b, lua_State *C, int nargs, int nresults, bool armed);

/* In a budgeted state (a lua_CFunction, for scripts/lib/sandbox_env.lua):
 * -> true when the running call's budget has run out (or its deadline
 * passed). xpcall's message handler is skipped then: the hook raises with
 * hooks off, where a handler that spins could never be stopped. */
int budget_spent(lua_State *L);

/* ---- Native calls (searches, the solver) from a sandboxed state ----
 * A native call gets the budgets that are left as its own limits, then
 * reports its work; a budget that ran out ends the call like the hook
 * does (and keeps raising until the move unwinds). */

/* Make C's budget b findable from C (budget_native). */
void budget_attach(lua_State *C, Budget *b);

typedef struct NativeLimits {
    Budget *b;                    /* NULL: a trusted state, no limits */
    double seconds;               /* left before the deadline; < 0: none */
    unsigned long long max_nodes; /* nodes the instructions left pay for; 0: none */
    size_t room;                  /* bytes left under the memory cap; SIZE_MAX: none */
} NativeLimits;

/* The limits of a native call made from L (all off outside a sandbox, or
 * when no budget is armed). */
NativeLimits budget_native(lua_State *L);
/* After the call: charge nodes to the instruction budget; raise
 * "sandbox: WHY budget exceeded" when why is given ("time", "memory",
 * "instructions") or a budget has run out. No-op outside a sandbox. */
void budget_native_done(lua_State *L, const NativeLimits *nl, unsigned long long nodes,
                        const char *why);

#endif
