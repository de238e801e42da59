/* l_brain.h: the Gomocup brain protocol and brain processes (l_brain.c), part of the host library. */
#ifndef MB_L_BRAIN_H
#define MB_L_BRAIN_H

#include "l_util.h"

/* Put gomocup and brainproc in the table on top (the host library; not
 * in sandboxed states). */
void lmb_open_brain(lua_State *L);

#endif
