/* l_random.h: CPython-compatible random streams in Lua (l_random.c): the
 * Random type, the module-level stream functions and the default stream
 * (the Random userdata itself and mb.stream's state are in l_util.h). */
#ifndef MB_L_RANDOM_H
#define MB_L_RANDOM_H

#include "l_util.h"

/* Register the Random metatable; put mb.Random and the module-level stream
 * functions (seed, choice, randbelow, random, ...) in the table on top, the
 * latter bound to one default stream per Lua state (also mb.stream). */
void lmb_open_random(lua_State *L);
/* Point this state's default stream (mb.stream and the module-level
 * functions random, choice, randbelow, ...) at r, which must outlive the
 * state: a sandbox state draws from its player's stream, kept by the host.
 * mb.seed of the mb table at mbindex becomes an error (the host seeds r).
 * [-0, +0, m] */
void lmb_bind_default_stream(lua_State *L, int mbindex, Rng *r);
/* Lua: stream_use(r | nil): the default stream (mb.stream, the module-level
 * functions and the searches' random choices) draws from the Random r's
 * state, not a copy of it, until stream_use(nil) (or the default stream
 * itself) points it back at its own. r is kept alive meanwhile. */
int lmb_stream_use(lua_State *L);

#endif
