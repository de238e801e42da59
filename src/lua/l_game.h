/* l_game.h: the game object of the Lua API (l_game.c): a userdata holding
 * the engine's Game, its fields kept in a Lua table that C brings up to
 * date, and its methods table, which other binding files extend.
 *
 * A binding file with game methods:
 *   #include "l_game.h"            (l_util.h comes with it)
 *   static int l_hash(lua_State *L)
 *   {
 *       Game *g = lmb_check_game(L, 1);   the one check of a game argument
 *       ...                               a method that changes the game
 *                                         ends with lmb_game_sync(L, 1)
 *   }
 *   static const luaL_Reg methods[] = {{"hash", l_hash}, {NULL, NULL}};
 *   void lmb_open_features(lua_State *L) { lmb_game_add_methods(L, methods); }
 * and l_module.c calls lmb_open_features after lmb_open_game. */
#ifndef MB_L_GAME_H
#define MB_L_GAME_H

#include <stdint.h>

#include "l_util.h"

/* The type name of games (__name of their metatables, error messages). */
#define LMB_GAME "marubatsu.Game"

/* Register the game type (its methods table) and put the constructor
 * mb.Marubatsu in the table on top. [-0, +0, e] */
void lmb_open_game(lua_State *L);
/* Add the functions of l (no upvalues) to the methods of every game, as
 * game:name(...). After lmb_open_game; a name already there is replaced.
 * [-0, +0, e] */
void lmb_game_add_methods(lua_State *L, const luaL_Reg *l);

/* ---- Checking games (as luaL_testudata / luaL_checkudata) ----
 * Every game has its own metatable, so a game is not checked against one
 * registered metatable but against a known set: the metatables l_game.c
 * made, which carry its tag (see test_game in l_game.c). */

/* The Game of the game userdata at arg, or NULL. */
Game *lmb_test_game(lua_State *L, int arg);
/* The Game of the game userdata at arg, or a Lua error naming the argument
 * ("Marubatsu game expected, got ..."). */
Game *lmb_check_game(lua_State *L, int arg);

/* ---- Holding a game ----
 * Native code that hands a game to Lua and then goes on from the position
 * it handed over (a search's evaluator, ai_by_score's scorer, an MCTS
 * callback, the body of a children() loop) pins the game at that position
 * for the call. A pinned game may still be moved forward and back, as an
 * evaluator that looks ahead does, but not below the pinned position:
 * unmove at it, restart, change_step below it, place_mark and remove_mark
 * raise "this game is in use by ...". So the moves up to the pin cannot
 * change under the holder, and a call that returns with the same move
 * count has left exactly the position it was given: no replayed look-alike
 * (the same count and last move on other squares) can reach the engine.
 * Pins nest (an evaluator that searches the same game): each holder keeps
 * the hold it replaced and gives it back, also when the call raises. */

/* Pin g (the Game of a game userdata) at its current position; returns the
 * hold it replaced, for lmb_game_release. */
int lmb_game_hold(Game *g);
/* Give back the hold that lmb_game_hold returned. */
void lmb_game_release(Game *g, int previous);
/* A digest of g's position (marks, side to move, move count, status), for
 * the debug builds' check that a holder got back what it handed over. */
uint64_t lmb_game_digest(const Game *g);

/* ---- The fields of a game ---- */

/* The Game of the game userdata at index (checked, as lmb_check_game), its
 * fields and records view brought up to date with whatever moved the engine
 * game since they were last written (a search, before its Lua evaluator
 * reads the game): only what differs is rewritten, and nothing when nothing
 * moved. Every method keeps them up to date itself. [-0, +0, e] */
Game *lmb_game_sync(lua_State *L, int index);
/* lmb_game_sync without the check, for a search's leaves: g must be the
 * Game that lmb_check_game or lmb_game_sync returned for the game userdata
 * at the absolute index `index`. [-0, +0, e] */
void lmb_game_refresh(lua_State *L, int index, Game *g);
/* For a loop that refreshes one game many times (a search's leaves): push
 * what lmb_game_refresh_at needs (2 values: the game's state table and the
 * table of its field names), once. [-0, +2, -] */
void lmb_game_push_view(lua_State *L, int index);
/* lmb_game_refresh with those values at view, view + 1: without the lookup
 * of its tables and without first comparing the whole record, since a
 * leaf always differs from the last. [-0, +0, e] */
void lmb_game_refresh_at(lua_State *L, int index, Game *g, int view);
/* Make the game userdata at index an exact copy of src, which may belong
 * to another Lua state (a sandbox's game): engine state, shape fields and a
 * fresh records view. [-0, +0, m] */
void lmb_game_assign(lua_State *L, int index, const Game *src);

#endif
