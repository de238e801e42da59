/* l_fulldepth.h: the full-depth searchers of fulldepth.h from Lua (l_fulldepth.c). */
#ifndef MB_L_SEARCHERS_H
#define MB_L_SEARCHERS_H

#include "l_game.h"

/* Put mb.searcher in the table on top. */
void lmb_open_fulldepth(lua_State *L);

#endif
