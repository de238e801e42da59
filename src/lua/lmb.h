/* lmb.h: what the Lua binding files share (the only files of the project
 * that include lua.h). The binding builds two ways from the same sources: into
 * the program (src/main.c opens it and sets the global `mb`) and into
 * build/marubatsu.so for stock lua5.4's `require "marubatsu"`.
 *
 *   l_game.c    the game object (userdata "marubatsu.Game"), its state
 *               table, the methods that change it, children() loops
 *   l_position.c the methods that only read the position
 *   l_random.c  CPython-compatible random streams ("marubatsu.Random")
 *   l_search.c  mb.search_abs_dls: the C αβ search with a C or Lua evaluator
 *   l_module.c  luaopen_marubatsu: the module table, script lookup, the
 *               embedded Lua library of scripts/lib/
 *   l_sandbox.c mb.sandbox (its budgets in l_budget.c, budget.h; parameters
 *               copied between states by l_transfer.c)
 *   l_tournament.c  the C pieces of tournaments (seeds, workers, journal
 *               lines, player specs, rating statistics)
 * Uses the engine headers and Lua 5.4. */
#ifndef MB_LMB_H
#define MB_LMB_H

#include <lauxlib.h>
#include <lua.h>

#include "marubatsu.h"

#define LMB_GAME "marubatsu.Game"
#define LMB_RANDOM "marubatsu.Random"

/* ---- The module (l_module.c) ---- */

/* require "marubatsu": the module table. The one symbol marubatsu.so
 * exports. [-0, +1, e] */
__attribute__((visibility("default"))) int luaopen_marubatsu(lua_State *L);
/* require "marubatsu.host": the private host library (tournaments, journals,
 * files, directories, processes, the CPU count, the command mains), which
 * is no field of mb and does not exist in a sandboxed player's state. Opens
 * marubatsu first if needed. [-0, +1, e] */
__attribute__((visibility("default"))) int luaopen_marubatsu_host(lua_State *L);

/* Push the embedded library file scripts/NAME.lua compiled, then its two
 * arguments: mb and the library's private table (how the library files
 * share what is not API). The caller adds arguments and calls it.
 * [-0, +3, e] */
void lmb_push_library(lua_State *L, const char *name);

/* ---- Game objects (l_game.c) ---- */

/* The Game inside the userdata at arg, or a Lua error naming the argument. */
Game *lmb_check_game(lua_State *L, int arg);
/* Register the Game metatable and put the constructor in the table on top:
 * mb.Marubatsu. [-0, +0, e] */
void lmb_open_game(lua_State *L);
/* The Game of the game userdata at index (checked, as lmb_check_game), its
 * fields and records view brought up to date with whatever moved the engine
 * game since they were last written (a search, before its Lua evaluator
 * reads the game): only what differs is rewritten, and nothing when nothing
 * moved. Every method keeps them up to date itself. [-0, +0, e] */
Game *lmb_game_sync(lua_State *L, int index);
/* Make the game userdata at index an exact copy of src, which may belong
 * to another Lua state (a sandbox's game): engine state, shape fields and a
 * fresh records view. [-0, +0, m] */
void lmb_game_assign(lua_State *L, int index, const Game *src);

/* ---- Reading methods of the game object (l_position.c) ---- */

/* The methods that only read a position, for the game's methods table. */
extern const luaL_Reg lmb_position_methods[];
/* Put mb.markpat_index in the table on top; set up the registry. */
void lmb_open_position(lua_State *L);

/* ---- Random streams (l_random.c) ---- */

/* The Rng inside the userdata at arg, or a Lua error. */
Rng *lmb_check_random(lua_State *L, int arg);
/* Register the Random metatable; put mb.Random and the module-level stream
 * functions (seed, choice, randbelow, random, ...) in the table on top, the
 * latter bound to one default stream per Lua state (also mb.stream). */
void lmb_open_random(lua_State *L);
/* Point this state's default stream (mb.stream and the module-level
 * functions random, choice, randbelow, ...) at r, which must outlive the
 * state: a sandbox state draws from its player's stream, kept by the host.
 * mb.seed of the mb table at mbindex becomes an error (the host seeds r).
 * [-0, +0, m] */
void lmb_bind_default_stream(lua_State *L, int mbindex, Rng *r);
/* Lua: stream_use(r | nil): the default stream (mb.stream, the module-level
 * functions and the searches' random choices) draws from the Random r's
 * state, not a copy of it, until stream_use(nil) (or the default stream
 * itself) points it back at its own. r is kept alive meanwhile. */
int lmb_stream_use(lua_State *L);
/* A registry key (light userdata &lmb_sandbox_key): set in a sandboxed
 * player's state before luaopen_marubatsu, which then runs only the part
 * of the embedded library AI scripts use (no matches, play, checks,
 * tournaments). */
extern const char lmb_sandbox_key;
/* Put the sandbox's C half in the private table at index `private`, as
 * sandbox_c (l_sandbox.c; scripts/lib/sandbox.lua makes mb.sandbox of it):
 * AI scripts in their own Lua states with per-move budgets. [-0, +0, m] */
void lmb_open_sandbox(lua_State *L, int private);
/* Pack the table at idx into bytes (l_transfer.c): returns them with their
 * length; two values pushed on the stack keep them alive (pop them after
 * use). Raises, naming the place, on a value that cannot cross states. */
const char *lmb_pack_table(lua_State *L, int idx, size_t *len);
/* Push the value packed by lmb_pack_table, in any state. */
void lmb_unpack_value(lua_State *L, const char *bytes);
/* Put mb.searcher in the table on top (the full-depth searchers of
 * searchers.h under their root wrappers; l_searchers.c). */
void lmb_open_searchers(lua_State *L);
/* Put mb.load_bestmoves, mb.bestmoves_table, mb.mblist_by_board,
 * mb.show_tree and mb.solve in the table on top (l_tree.c: the game tree's
 * best-move tables, its text view, and the m,n,k solver). */
void lmb_open_tree(lua_State *L);

/* Put tourney_seed, tourney_run, the journal and player-spec parsers,
 * cpu_count, mkdir and rating in the table on top: the host library
 * (l_tournament.c). */
void lmb_open_tournament(lua_State *L);

/* ---- Searches (l_search.c) ---- */

/* Put mb.search_abs_dls in the table on top (the αβ search of search.h). */
void lmb_open_search(lua_State *L);
/* Put gomocup and brainproc in the table on top: the host library (l_brain.c; not in
 * sandboxed states). */
void lmb_open_brain(lua_State *L);
/* Put mb.mcts in the table on top (l_mcts.c: native MCTS searchers). */
void lmb_open_mcts(lua_State *L);
/* Put mb.vcf and mb.vct in the table on top (l_vcf.c: threat search). */
void lmb_open_vcf(lua_State *L);

/* ---- The program's host (l_host.c) ---- */

typedef struct Host Host;
/* The Lua state of a host, for the REPL. */
lua_State *host_state(Host *h);
/* The message handler of the program and the tournament workers: the
 * error as text with a traceback (l_module.c). */
int lmb_traceback(lua_State *L);

/* ---- Helpers ---- */

/* "o", "x" or "." */
const char *lmb_mark_string(Mark m);
/* A mark argument, "o" or "x", or a Lua error. */
Mark lmb_check_mark(lua_State *L, int arg);
/* A move argument: an integer square of this game's board. */
int lmb_check_move(lua_State *L, int arg, const Game *g);
/* Square arguments x, y at arg and arg + 1, on this game's board. */
void lmb_check_xy(lua_State *L, int arg, const Game *g, int *x, int *y);

/* An integer argument in [lo, hi], or a Lua error "WHAT out of range". */
lua_Integer lmb_check_range(lua_State *L, int arg, lua_Integer lo, lua_Integer hi,
                            const char *what);
/* The message language of checked moves (mb.lang: "ja" default, or "en"). */
Lang lmb_lang(lua_State *L);

#endif
