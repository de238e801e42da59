/* l_tournament.h: the C pieces of tournaments (l_tournament.c), part of the host library. */
#ifndef MB_L_TOURNAMENT_H
#define MB_L_TOURNAMENT_H

#include "l_util.h"

/* Put tourney_seed, tourney_run, the journal and player-spec parsers,
 * cpu_count, mkdir, rating and the files of l_files.h in the table on
 * top: the host library. */
void lmb_open_tournament(lua_State *L);

#endif
