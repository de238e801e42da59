/* embedded.h: the Lua scripts carried inside the binary (generated into
 * build/gen/embedded.c by src/lua/embed.sh from scripts/). */
#ifndef MB_EMBEDDED_H
#define MB_EMBEDDED_H

#include <stddef.h>

typedef struct EmbeddedScript {
    const char *name; /* path below scripts/ without ".lua": "lib/wrappers", "ai14s" */
    const char *text;
    size_t len;
} EmbeddedScript;

/* Every script, ended by an entry whose name is NULL. */
extern const EmbeddedScript embedded_scripts[];

#endif
