/* l_mcts.h: native MCTS searchers from Lua (l_mcts.c). */
#ifndef MB_L_MCTS_H
#define MB_L_MCTS_H

#include "l_game.h"

/* Put mb.mcts in the table on top. */
void lmb_open_mcts(lua_State *L);

#endif
