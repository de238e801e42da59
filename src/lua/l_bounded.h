/* l_bounded.h: long C loops under a sandboxed player's budgets
 * (l_bounded.c).
 *
 * The budgets act between Lua instructions, so a C function that loops
 * without running any (string.rep of an empty string, table.move over a
 * huge range, table.insert under a __len of 2^50, ...) would escape them.
 * Such a loop carries a Ticker: every `per_look` steps it charges them to
 * the instruction budget and raises the budget's error once any budget ran
 * out (time, instructions, memory), as a native search does. A call that
 * stays under one look's steps costs one subtraction per step and charges
 * nothing, so ordinary calls behave as before; outside a sandbox a look
 * finds no budget and does nothing more. */
#ifndef MB_L_BOUNDED_H
#define MB_L_BOUNDED_H

#include <stdbool.h>

#include <lua.h>

#include "l_budget.h"

typedef struct Ticker {
    lua_State *L;
    long long left;     /* steps before the next look */
    long long per_look; /* steps between two looks */
    int steps_per_node; /* steps one BUDGET_INSTRUCTIONS_PER_NODE stands for */
    bool started;       /* nl looked up (at the first look) */
    NativeLimits nl;
} Ticker;

/* Step kinds: how many steps make one node (100 instructions) and how
 * many a look comes after (a look after well under a millisecond of work). */
#define TICK_ELEMENTS 25, 10000    /* a table element moved: 4 instructions */
#define TICK_SHUFFLE  10, 2000     /* a shuffle step (a draw, two swaps): 10 */
#define TICK_BYTES    6400, 640000 /* a byte copied or compared: 1/64 */

/* ticker_init(&t, L, TICK_ELEMENTS) */
void ticker_init(Ticker *t, lua_State *L, int steps_per_node, long long per_look);
/* The look itself: charge the steps done since the last one; raise
 * "sandbox: WHY budget exceeded" if a budget ran out. */
void ticker_look(Ticker *t);

/* Count n more steps; look when a look is due. */
static inline void ticker_step(Ticker *t, long long n)
{
    t->left -= n;
    if (t->left <= 0) ticker_look(t);
}

/* Push a table of the sandbox's own versions of library functions, with
 * the same results as Lua's but their long loops under the budgets:
 * {rep = string.rep, find_plain = string.find(s, p, init, true),
 * insert = table.insert, remove = table.remove, move = table.move}
 * (scripts/lib/sandbox_env.lua installs them). [-0, +1, m] */
void lmb_push_bounded(lua_State *L);

#endif
