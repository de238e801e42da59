/* budget.h: per-call budgets for the Lua states of sandboxed players
 * (l_budget.c; only the binding uses it).
 *
 *   instructions  a count hook; once exceeded it raises on every instruction
 *                 until the call unwinds, so the script's pcall cannot
 *                 swallow it
 *   time          seconds of wall clock, watched by a POSIX timer whose
 *                 signal handler sets a count hook of 1 once the deadline
 *                 passed (the count hook checks the clock without timers)
 *   memory        bytes held by the whole state: budget_alloc refuses to go
 *                 past the cap, and the call then ends at its next
 *                 instruction */
#ifndef MB_BUDGET_H
#define MB_BUDGET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

typedef struct Budget {
    size_t used, peak;      /* bytes the child state holds, and its most */
    size_t max_memory;      /* 0: no cap */
    long long max_instructions; /* 0: no cap */
    long long count;        /* instructions of the current call (by ticks) */
    double time_limit;      /* seconds; 0: none */
    double deadline;        /* of the current call; 0: none */
    double exceeded_at;     /* when a budget ran out; 0: not yet */
    int every;              /* instructions per hook tick */
    bool armed;             /* a script's call is running */
    volatile sig_atomic_t timed_out; /* set by the timer's signal handler */
    lua_State *child;       /* for the signal handler */
    const char *reason;     /* "instructions", "time", "memory" or NULL */
    double overrun;         /* last call: seconds from exhaustion to return; < 0 none */
} Budget;

/* The lua_Alloc of a budgeted state: lua_newstate(budget_alloc, budget). */
void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Call the function below nargs arguments on C's stack, protected; armed,
 * under the instruction and time budgets too (the memory cap always holds).
 * Returns the lua_pcall status; a call that returned after a budget ran out
 * is LUA_ERRRUN with b->reason set. */
int budget_pcall(Budget *b, lua_State *C, int nargs, int nresults, bool armed);

#endif
