/* l_module.h: the module's entry points (l_module.c), the only symbols
 * marubatsu.so exports. The binding builds two ways from the same sources:
 * into the program (src/main.c opens it and sets the global `mb`) and into
 * build/marubatsu.so for stock lua5.4's `require "marubatsu"`. */
#ifndef MB_L_MODULE_H
#define MB_L_MODULE_H

#include <lua.h>

/* require "marubatsu": the module table. [-0, +1, e] */
__attribute__((visibility("default"))) int luaopen_marubatsu(lua_State *L);
/* require "marubatsu.host": the private host library (tournaments, journals,
 * files, directories, processes, the CPU count, the command mains), which
 * is no field of mb and does not exist in a sandboxed player's state. Opens
 * marubatsu first if needed. [-0, +1, e] */
__attribute__((visibility("default"))) int luaopen_marubatsu_host(lua_State *L);

#endif
