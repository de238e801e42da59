/* l_position.h: the methods of the game object that only read the position (l_position.c). */
#ifndef MB_L_POSITION_H
#define MB_L_POSITION_H

#include "l_game.h"

/* Add the reading methods to the games' methods (lmb_game_add_methods)
 * and put mb.markpat_index in the table on top. After lmb_open_game. */
void lmb_open_position(lua_State *L);

#endif
