/* l_pattern.h: the pattern codes and the big-board search from Lua
 * (l_pattern.c). */
#ifndef MB_L_PATTERN_H
#define MB_L_PATTERN_H

#include "l_game.h"

/* Add pattern, pattern_square, pattern_eval, forced_moves, pattern_moves
 * and pattern_weights to the games' methods, and put mb.pattern_name,
 * mb.pattern_weights and mb.pattern_searcher in the table on top. After
 * lmb_open_game. */
void lmb_open_pattern(lua_State *L);

#endif
