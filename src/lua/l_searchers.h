/* l_searchers.h: the full-depth searchers of searchers.h from Lua (l_searchers.c). */
#ifndef MB_L_SEARCHERS_H
#define MB_L_SEARCHERS_H

#include "l_game.h"

/* Put mb.searcher in the table on top. */
void lmb_open_searchers(lua_State *L);

#endif
