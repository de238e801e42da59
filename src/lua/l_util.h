/* l_util.h: what every Lua binding file may use, from l_util.c, which
 * depends on no other binding file (only the engine headers, Lua and the
 * generated table of embedded scripts): the registry names the files
 * share, argument checks, the message language, the traceback message
 * handler, random streams (the Random userdata and this state's default
 * stream), move lists, whether the state is a sandboxed player's, and the
 * embedded Lua library.
 *
 * The binding's files form layers, and a file includes the headers of the
 * layers below it only (tests/source/include_cycles.lua fails on a circle):
 *   l_util            this file
 *   l_shape           mb.Marubatsu's options and the shared shapes
 *   l_game, l_random  the game and Random userdata (l_game.h, l_random.h)
 *   the rest          one header each, with the function that opens it;
 *                     l_module.c (luaopen_marubatsu) opens them all */
#ifndef MB_L_UTIL_H
#define MB_L_UTIL_H

#include <stdbool.h>

#include <lauxlib.h>
#include <lua.h>

#include "embedded.h"
#include "marubatsu.h"

/* ---- Registry names ---- */

#define LMB_RANDOM           "marubatsu.Random" /* the metatable of Random objects */
/* Registry keys: every one the binding uses, here and nowhere else. */
#define LMB_MODULE_KEY       "marubatsu.module"       /* the module table mb */
#define LMB_PRIVATE_KEY      "marubatsu.private"      /* the library files' shared table */
#define LMB_HOST_KEY         "marubatsu.host"         /* the host library (never a field of mb) */
#define LMB_GEOMETRIES_KEY   "marubatsu.geometries"   /* shapes shared by games (l_shape.c) */
#define LMB_GAME_METHODS_KEY "marubatsu.game.methods" /* the game's method table (l_game.c) */
#define LMB_GAME_KEYS_KEY    "marubatsu.game.keys" /* the game's field names, interned (l_game.c) */
#define LMB_GAME_ASSIGN_KEY  "marubatsu.game.assign" /* the game's field setter (l_game.c) */
#define LMB_MARKPAT_KEYS_KEY                                                                       \
    "marubatsu.markpat_keys" /* mark patterns' key strings (l_position.c) */
#define LMB_FEATURE_BYTES_KEY  "marubatsu.feature_bytes" /* line features charged to a budget */
#define LMB_PATTERN_BYTES_KEY  "marubatsu.pattern_bytes" /* pattern codes charged to a budget */
#define LMB_KEPT_TT_KEY        "marubatsu.kept_tt" /* the table kept between searches (l_search.c) */
#define LMB_TREE_OLD_KEY       "marubatsu.tree.old" /* the scored game tree, SCORING_OLD (l_tree.c) */
#define LMB_TREE_SV_KEY        "marubatsu.tree.sv"        /* ... SCORING_SV */
#define LMB_TREE_SV_RD_KEY     "marubatsu.tree.sv_rd"     /* ... SCORING_SV_RD */
#define LMB_DEFAULT_RANDOM_KEY "marubatsu.random.default" /* the default stream (l_random.c) */
#define LMB_BUDGET_KEY         "marubatsu.budget" /* a child state's Budget, light userdata (l_budget.c) */
#define LMB_SANDBOX_CTL_KEY    "marubatsu.sandbox.ctl" /* a child state's controls (l_sandbox.c) */
#define LMB_SANDBOXED_KEY      "marubatsu.sandboxed" /* set in a sandbox's child state (lmb_sandboxed) */
#define LMB_REPL_KEY           "marubatsu.repl"      /* the REPL's table (l_repl.c) */
#define LMB_SERVE_HANDLER_KEY  "marubatsu.serve.handler" /* serve's request handler (l_serve.c) */

/* ---- Arguments ---- */

/* The keys of the options table at t must be among `names`, a list ended
 * by NULL whose entries are `stride` bytes apart (so a table of structs
 * whose first member is the name serves as well as an array of strings:
 * pass LMB_NAMES(array)); any other key is the Lua error "WHAT: unknown
 * option 'k' (known: a, b, c)", its list made from the same names. Nil or
 * none at t is fine; another non-table is an argument error. */
void lmb_check_option_names(lua_State *L, int t, const char *what, const void *names,
                            size_t stride);
#define LMB_NAMES(a) (const void *)&(a)[0], sizeof(a)[0]

/* An integer argument in [lo, hi], or a Lua error "WHAT out of range". */
lua_Integer lmb_check_range(lua_State *L, int arg, lua_Integer lo, lua_Integer hi,
                            const char *what);
/* "o", "x" or "." */
const char *lmb_mark_string(Mark m);
/* A mark argument, "o" or "x", or a Lua error. */
Mark lmb_check_mark(lua_State *L, int arg);
/* A move argument: an integer square of this game's board. */
int lmb_check_move(lua_State *L, int arg, const Game *g);
/* Square arguments x, y at arg and arg + 1, on this game's board. */
void lmb_check_xy(lua_State *L, int arg, const Game *g, int *x, int *y);

/* The `hash` option of the table at t (every search that keeps a table
 * or a tree: the megabytes it may hold, a whole number from 1 to
 * LMB_HASH_MAX_MB), in bytes: dflt_mb megabytes when absent (t may be
 * none); a Lua error naming fname otherwise. */
#define LMB_HASH_MAX_MB 1048576
size_t lmb_opt_hash(lua_State *L, int t, const char *fname, size_t dflt_mb);

/* ---- Messages ---- */

/* The message language of checked moves (mb.lang: "ja" default, or "en"). */
Lang lmb_lang(lua_State *L);
/* The message handler of the program and the tournament workers: the
 * error as text with a traceback. */
int lmb_traceback(lua_State *L);
/* Raise the error "interrupted" (no position: the message a Ctrl-C gives,
 * interrupt.h), for a native call the interrupt flag stopped. */
int lmb_error_interrupted(lua_State *L);

/* ---- Random streams ---- */

/* A Random object's userdata (metatable LMB_RANDOM; l_random.c makes them):
 * the state it draws from, which is its own except for a state's default
 * stream, which its host may point at another stream's state. */
typedef struct LmbStream {
    Rng *cur;
    Rng own;
} LmbStream;

/* The state the Random object at arg draws from, or a Lua error. */
Rng *lmb_check_random(lua_State *L, int arg);
/* The state the default stream mb.stream draws from (mb.choice's, and the
 * searches' random choices), or an error naming fname. */
Rng *lmb_default_stream(lua_State *L, const char *fname);

/* ---- Move lists ---- */

/* Push a new list {moves[0], ..., moves[n-1]}. [-0, +1, m] */
void lmb_push_moves(lua_State *L, const int *moves, int n);
/* Push the table at arg (or a new one when arg is none or nil) filled with
 * the n moves, clearing what a longer earlier fill left. [-0, +1, e] */
void lmb_fill_moves(lua_State *L, int arg, const int *moves, int n);

/* ---- Sandboxed states ---- */

/* Is L a sandboxed player's state? (LMB_SANDBOXED_KEY is set in its
 * registry before luaopen_marubatsu, which then opens only what AI scripts
 * use: no host library, no matches, play, checks, tournaments.) */
bool lmb_sandboxed(lua_State *L);

/* ---- The embedded Lua library ---- */

/* The script scripts/NAME.lua carried in the binary, or NULL. */
const EmbeddedScript *lmb_embedded(const char *name);
/* Push the embedded library file scripts/NAME.lua compiled, then its two
 * arguments: mb and the library's private table (how the library files
 * share what is not API). The caller adds arguments and calls it.
 * [-0, +3, e] */
void lmb_push_library(lua_State *L, const char *name);

#endif
