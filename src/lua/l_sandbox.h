/* l_sandbox.h: sandboxed players (l_sandbox.c): AI scripts in their own Lua states with per-move budgets (l_budget.h). */
#ifndef MB_L_SANDBOX_H
#define MB_L_SANDBOX_H

#include "l_game.h"

/* Put the sandbox's C half in the private table at index `private`, as
 * sandbox_c (scripts/lib/sandbox.lua makes mb.sandbox of it). A player's
 * state opens the module with open_module (luaopen_marubatsu, passed in so
 * that the sandbox does not depend on the module that opens it).
 * [-0, +0, m] */
void lmb_open_sandbox(lua_State *L, int private, lua_CFunction open_module);

#endif
