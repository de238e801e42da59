/* lmb.h: what a binding file outside the layers below needs, in one
 * include: the helpers (l_util.h), games and their methods (l_game.h) and
 * random streams (l_random.h). l_util.c, l_game.c and l_random.c include
 * their own headers instead (tests/source/include_cycles.lua).
 *
 * The binding's files (the only ones of the project that include lua.h),
 * each with its own header:
 *   l_util.c      helpers: checks, language, tracebacks, streams, move lists
 *   l_game.c      the game object, its state table and changing methods
 *   l_position.c  the methods that only read the position
 *   l_random.c    CPython-compatible random streams ("marubatsu.Random")
 *   l_search.c, l_fulldepth.c, l_tree.c, l_mcts.c   searches and solvers
 *   l_sandbox.c   sandboxed players (budgets: l_budget.c; values copied
 *                 between states: l_transfer.c)
 *   l_tournament.c, l_brain.c   the host library's C pieces
 *   l_module.c    luaopen_marubatsu: the module table, script lookup, the
 *                 embedded Lua library of scripts/lib/
 *   l_host.c, l_repl.c, l_serve.c   the program's host (not in the .so) */
#ifndef MB_LMB_H
#define MB_LMB_H

#include "l_game.h"
#include "l_random.h"
#include "l_util.h"

#endif
