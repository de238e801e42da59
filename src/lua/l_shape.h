/* l_shape.h: the options table of mb.Marubatsu{...} and the shapes that
 * games of one Lua state share (l_shape.c). */
#ifndef MB_L_SHAPE_H
#define MB_L_SHAPE_H

#include "l_util.h"

/* The options table at argument 1 (nil: the defaults) as GameOptions:
 * width, height, k, rule, board, count_linemark. Unknown keys and bad
 * values raise, naming the option. */
GameOptions lmb_read_game_options(lua_State *L);
/* The shape (width, height, k, rule) of o, built once per Lua state and
 * kept in the registry table "marubatsu.geometries" (which must exist):
 * building one (its lines and win tables) costs more than the rest of a
 * new game. Raises with the engine's message on a bad shape. */
Geometry *lmb_shared_geometry(lua_State *L, const GameOptions *o);

#endif
