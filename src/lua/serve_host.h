/* serve_host.h: the Lua side of `marubatsu serve`, without lua.h for the
 * CLI. The program's Lua state runs scripts/lib/serve.lua (loaded from the
 * embedded copy), which keeps the served games and AIs and answers the
 * /api/ requests that are not the tree's; the HTTP layer (cmd_serve.c)
 * calls it from its one server thread only. An answer that needs an AI is
 * a job instead: the HTTP layer has a worker process run it (serve_pool.c),
 * where the same script, opened as a worker, computes it, and then hands
 * the worker's answer back to finish the reply. */
#ifndef MB_SERVE_HOST_H
#define MB_SERVE_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "host.h"

typedef struct ServeConfig {
    const char *results;         /* --results DIR, or NULL */
    const char *tune;            /* --tune DIR (a tune run's --out), or NULL */
    const char *const *ai_files; /* --ai FILE...: sandboxed script AIs */
    int n_ai_files;
    int max_games;    /* games kept at once */
    int idle_seconds; /* a game untouched this long is dropped */
    /* --time, --instructions, --memory: the per-move budgets of sandboxed
     * AIs (< 0: not given, the sandbox's default; 0: off) */
    double time, instructions, memory;
    double builtin_time; /* --builtin-time: the limit of a built-in AI's call (seconds) */
    bool worker;         /* this process is an AI worker (serve --worker) */
} ServeConfig;

typedef struct ServeReply {
    int status;        /* HTTP status */
    char ctype[64];    /* Content-Type */
    char filename[96]; /* for Content-Disposition: attachment, or "" */
    char *body;        /* malloc'ed, len bytes; NULL for a job */
    size_t len;
    /* a job for an AI worker instead of a reply (job != NULL): its message,
     * the AI's limit in seconds, and the reference of what finishes it
     * (host_serve_finish, exactly once) */
    char *job;
    size_t job_len;
    double job_limit;
    int job_ref;
} ServeReply;

/* Load scripts/lib/serve.lua with the configuration; 0, or 1 after
 * printing why (a missing --results directory, a --tune directory with no
 * tune.tsv, an --ai file that does not load). */
int host_serve_open(Host *h, const ServeConfig *c);
/* Answer one API request: method, the path below /api/, the query
 * parameters (n pairs) and the body. Never fails: a Lua error becomes a 500
 * reply with a JSON error, and is printed on stderr. The reply may be a
 * job (r->job). */
void host_serve_call(Host *h, const char *method, const char *path, const char *const *keys,
                     const char *const *values, int n, const char *body, size_t len, ServeReply *r);
/* The reply of a job (r's own job fields are left empty): outcome "ok"
 * with the worker's answer in text, or "time", "crash", "busy" or
 * "stopping" with what happened. */
void host_serve_finish(Host *h, int ref, const char *outcome, const char *text, size_t len,
                       ServeReply *r);
/* Free the reply's body (and job message). */
void serve_reply_free(ServeReply *r);
/* In a worker (c->worker when opened): say "ready" on out_fd, then answer
 * every job read on in_fd until it closes; 0 then, 1 on a broken message. */
int host_serve_worker(Host *h, int in_fd, int out_fd);

#endif
