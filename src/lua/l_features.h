/* l_features.h: the game methods that read the line features, the Zobrist
 * key and the candidate moves (l_features.c). */
#ifndef MB_L_FEATURES_H
#define MB_L_FEATURES_H

#include "l_game.h"

/* Add window_counts, window_count, threats, threat_counts, hash and
 * candidates to the games' methods (lmb_game_add_methods). After
 * lmb_open_game. */
void lmb_open_features(lua_State *L);
/* The game at 1 with its line features on, and its pattern codes when
 * `patterns` (pattern.h), switched on when off; in a sandbox their memory
 * counts against the memory budget. [-0, +0, e] */
Game *lmb_check_features(lua_State *L, bool patterns);

#endif
