/* l_host.h: the program's Lua host (l_host.c) seen from the binding files
 * that run on it (the REPL, the server): host.h plus its Lua state. */
#ifndef MB_L_HOST_H
#define MB_L_HOST_H

#include <lua.h>

#include "host.h"

/* The Lua state of a host. */
lua_State *host_state(Host *h);

#endif
