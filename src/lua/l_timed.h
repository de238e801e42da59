/* l_timed.h: trusted calls under a deadline (l_timed.c), part of the host library. */
#ifndef MB_L_TIMED_H
#define MB_L_TIMED_H

#include "l_util.h"

/* Put timed_call in the table on top (the host library: trusted calls
 * under a deadline, for the time controls). */
void lmb_open_timed(lua_State *L);

#endif
