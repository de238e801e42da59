/* l_tree.h: the game tree's best-move tables, its text view and the m,n,k solver from Lua (l_tree.c). */
#ifndef MB_L_TREE_H
#define MB_L_TREE_H

#include "l_game.h"

/* Put mb.load_bestmoves, mb.bestmoves_table, mb.mblist_by_board,
 * mb.show_tree and mb.solve in the table on top. */
void lmb_open_tree(lua_State *L);

#endif
