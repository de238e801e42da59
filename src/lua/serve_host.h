/* serve_host.h: the Lua side of `marubatsu serve`, without lua.h for the
 * CLI. The program's Lua state runs scripts/lib/serve.lua (loaded from the
 * embedded copy), which keeps the served games and AIs and answers the
 * /api/ requests that are not the tree's; the HTTP layer (cmd_serve.c)
 * calls it from its one server thread only. */
#ifndef MB_SERVE_HOST_H
#define MB_SERVE_HOST_H

#include <stddef.h>

#include "host.h"

typedef struct ServeConfig {
    const char *results;         /* --results DIR, or NULL */
    const char *const *ai_files; /* --ai FILE...: sandboxed script AIs */
    int n_ai_files;
    int max_games;    /* games kept at once */
    int idle_seconds; /* a game untouched this long is dropped */
    /* --time, --instructions, --memory: the per-move budgets of sandboxed
     * AIs (< 0: not given, the sandbox's default; 0: off) */
    double time, instructions, memory;
} ServeConfig;

typedef struct ServeReply {
    int status;        /* HTTP status */
    char ctype[64];    /* Content-Type */
    char filename[96]; /* for Content-Disposition: attachment, or "" */
    char *body;        /* malloc'ed, len bytes */
    size_t len;
} ServeReply;

/* Load scripts/lib/serve.lua with the configuration; 0, or 1 after
 * printing why (a missing --results directory, an --ai file that does not
 * load). */
int host_serve_open(Host *h, const ServeConfig *c);
/* Answer one API request: method, the path below /api/, the query
 * parameters (n pairs) and the body. Never fails: a Lua error becomes a 500
 * reply with a JSON error, and is printed on stderr. */
void host_serve_call(Host *h, const char *method, const char *path, const char *const *keys,
                     const char *const *values, int n, const char *body, size_t len, ServeReply *r);
/* Free the reply's body. */
void serve_reply_free(ServeReply *r);

#endif
