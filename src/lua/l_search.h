/* l_search.h: the αβ searches of search.h from Lua (l_search.c). */
#ifndef MB_L_SEARCH_H
#define MB_L_SEARCH_H

#include "l_game.h"

/* Put mb.search_abs_dls, mb.search_pvs_dls and mb.search_iddfs in the
 * table on top. */
void lmb_open_search(lua_State *L);

#endif
