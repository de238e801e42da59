/* l_game_core.h: what a game userdata is, for l_game.c only (l_game.h is
 * the game object's interface for the other binding files): the userdata's
 * layout, the upvalues its methods share, the check of a game argument and
 * the keeping of its state table in step with the engine game
 * (l_game_core.c). See l_game.c's header for the design. */
#ifndef MB_L_GAME_CORE_H
#define MB_L_GAME_CORE_H

#include "l_util.h"

/* What the state table holds, as last written by sync(): a field is
 * rewritten only when the engine's value differs from it. */
typedef struct Synced {
    int status, turn, last_turn, move_count, last_move;
    int view_n;                 /* records[1..view_n] of the Lua view hold moves */
    int view[MB_MAX_CELLS + 1]; /* and these are the moves they hold */
} Synced;

/* The userdata: the engine's game, what its state table shows, and its
 * hold: 0 while no native code holds the game, else 1 + the move count it
 * is pinned at (l_game.h, "Holding a game"). */
typedef struct LGame {
    Game g;
    int hold;
    Synced shown;
} LGame;

/* No engine value: a field holding it is written by the next sync(). */
#define NOT_SHOWN (-99)

/* Upvalues shared by every method: the field names and values C writes. */
enum {
    UV_STATUS = 1,
    UV_TURN,
    UV_LAST_TURN,
    UV_MOVE_COUNT,
    UV_LAST_MOVE,
    UV_RECORDS,
    UV_O,
    UV_X,
    UV_PLAYING,
    UV_DRAW,
    UV_STATE_MT,
    UV_CHILDREN_MT,
    UV_BASE = UV_CHILDREN_MT, /* what the iterator of children() has */
    UV_STEP,                  /* methods also have that iterator */
    UV_COUNT = UV_STEP,
    UV_SCORE_LOOP = UV_BASE + 1 /* score_children's reused loop state */
};

/* Marks every game's own metatable (at [1]): the address of this object,
 * a light userdata that no Lua code can make. */
extern const char lgame_tag;

/* ---- Checking a game argument ----
 * As luaL_testudata, against a known set: luaL_testudata compares a
 * userdata's metatable with the one registered under the type's name, but
 * every game has its own metatable (its __index is its own state table), so
 * the check is that the metatable is one of the games' own: it carries
 * lgame_tag at [1]. An array read and a pointer comparison, where a lookup
 * of the registered name costs the ai14s VS ai2 match 3% more (every
 * method call checks its game); inline for that reason. */

/* The LGame at arg, or NULL. [-0, +0, -] */
static inline LGame *lgame_test(lua_State *L, int arg)
{
    LGame *lg = lua_touserdata(L, arg);
    if (lg && lua_getmetatable(L, arg)) {
        lua_rawgeti(L, -1, 1);
        if (lua_touserdata(L, -1) != &lgame_tag) lg = NULL;
        lua_pop(L, 2);
        return lg;
    }
    return NULL;
}

/* The LGame at arg, or a Lua error naming the argument. [-0, +0, v] */
static inline LGame *lgame_check(lua_State *L, int arg)
{
    LGame *lg = lgame_test(L, arg);
    if (!lg) luaL_typeerror(L, arg, "Marubatsu game");
    return lg;
}

/* ---- Keeping the state table in step ---- */

/* Bring the state table of the game at ud up to date with its engine game,
 * whatever changed it: only the fields and records that differ from what
 * was last written are rewritten. state: the index of the game's state
 * table, or 0 to fetch it; keys: the index of the table of shared values,
 * or 0 inside a method, which has them as upvalues. [-0, +0, m] */
void lgame_sync_keys(lua_State *L, int ud, LGame *lg, int state, int keys);
/* lgame_sync_keys from a method (the shared values are its upvalues). */
static inline void lgame_sync(lua_State *L, int ud, LGame *lg) { lgame_sync_keys(L, ud, lg, 0, 0); }
/* Is the state table of lg up to date with its engine game? */
bool lgame_shown(const LGame *lg);
/* Forget what the state table shows: the next sync writes every field. */
void lgame_unshow(LGame *lg);
/* Give the game at ud a new, empty records view, as the series' restart
 * makes a new list (a table taken from game.records before keeps its
 * moves); filled by the next sync. From a method only. [-0, +0, m] */
void lgame_new_records_view(lua_State *L, int ud, LGame *lg);

#endif
