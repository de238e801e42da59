/* l_features.h: the game methods that read the line features, the Zobrist
 * key and the candidate moves (l_features.c). */
#ifndef MB_L_FEATURES_H
#define MB_L_FEATURES_H

#include "l_game.h"

/* Add window_counts, window_count, threats, threat_counts, hash and
 * candidates to the games' methods (lmb_game_add_methods). After
 * lmb_open_game. */
void lmb_open_features(lua_State *L);

#endif
