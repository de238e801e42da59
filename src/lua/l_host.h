/* l_host.h: the program's Lua host (l_host.c) seen from the binding files
 * that run on it (the REPL, the server): host.h plus its Lua state. */
#ifndef MB_L_HOST_H
#define MB_L_HOST_H

#include <lua.h>

#include "host.h"

/* The Lua state of a host. */
lua_State *host_state(Host *h);
/* What Ctrl-C does to a running computation, from a SIGINT handler
 * (async-signal-safe): the engine's interrupt flag is raised (interrupt.h:
 * a native search stops and raises "interrupted"), and L, when not NULL,
 * raises "interrupted" at its next Lua step (a debug hook, reset as it
 * fires). The REPL's handler and the commands' (host_catch_interrupts). */
void host_interrupt(lua_State *L);

#endif
