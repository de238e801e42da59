/* l_transfer.h: values copied between Lua states as bytes (l_transfer.c): a sandboxed player's parameters. */
#ifndef MB_L_TRANSFER_H
#define MB_L_TRANSFER_H

#include "l_util.h"

/* Pack the table at idx into bytes: returns them with their length; two
 * values pushed on the stack keep them alive (pop them after use). Raises,
 * naming the place, on a value that cannot cross states. */
const char *lmb_pack_table(lua_State *L, int idx, size_t *len);
/* Push the value packed by lmb_pack_table, in any state. */
void lmb_unpack_value(lua_State *L, const char *bytes);

#endif
