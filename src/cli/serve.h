/* serve.h: what the parts of `marubatsu serve` share: a growable text
 * buffer for JSON replies (cmd_serve.c), the 3x3 tree explorer's answers
 * (serve_tree.c) and the pool of AI worker processes (serve_pool.c). The
 * HTTP layer, the origin checks and the embedded pages are in cmd_serve.c;
 * games, AIs and tournament results are answered in Lua (src/lua/l_serve.c,
 * scripts/lib/serve.lua). Uses tree.h. */
#ifndef MB_SERVE_H
#define MB_SERVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "tree.h"

/* ---- Text buffers (a failed allocation sets oom and drops the rest) ---- */

typedef struct Buf {
    char *p;
    size_t len, cap;
    bool oom;
} Buf;

/* Append n bytes. */
void buf_add(Buf *b, const char *s, size_t n);
/* Append formatted text. */
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s as a JSON string, quoted; '<', '>' and '&' escaped too. */
void buf_json_string(Buf *b, const char *s);
/* Release the text. */
void buf_free(Buf *b);

/* ---- The tree explorer (3x3) ---- */

/* The full tree in each scoring, built on first use (a few ms each); the
 * lock lets the main thread build the default one while the server thread
 * answers. */
typedef struct ServeTrees {
    pthread_mutex_t lock;
    Tree tree[3]; /* by Scoring */
    bool built[3];
} ServeTrees;

/* Initialise (no tree built yet). */
void serve_trees_init(ServeTrees *st);
/* Build the tree of one scoring now, if not built (from any thread). */
void serve_trees_prebuild(ServeTrees *st, Scoring s);

/* Answer GET /api/tree?moves=B2,A1&scoring=old|sv|sv_rd: the node reached
 * by the moves, its children with their scores, best moves and subtree
 * sizes, the node counts per depth. Writes JSON to out and returns the HTTP
 * status: 200, 400 (a bad move list or scoring: out holds {"error": ...}),
 * 500 (out of memory). */
int serve_tree_answer(ServeTrees *st, const char *moves, const char *scoring, Buf *out);
/* Free the trees. */
void serve_trees_free(ServeTrees *st);

/* ---- AI workers (serve_pool.c) ---- */

/* Seconds a worker may outlive a job's limit before it is killed: the AI's
 * own budget (the sandbox's, host.timed_call's) stops Lua code at the
 * limit, the kill stops whatever a call does inside C. */
#define SERVE_SLACK 0.5

typedef enum { JOB_OK, JOB_TIME, JOB_CRASH, JOB_STOPPING } JobOutcome;

/* One AI call. The caller fills spec, len, limit and owner; the pool sets
 * the outcome (and answer or why) and then calls done, after which it no
 * longer touches the job. */
typedef struct ServeJob {
    char *spec; /* the message for the worker (scripts/lib/serve.lua) */
    size_t len;
    double limit; /* seconds the AI may take; killed past limit + SERVE_SLACK */
    void *owner;  /* the caller's */
    JobOutcome outcome;
    char *answer; /* JOB_OK: the worker's answer, malloc'ed */
    size_t answer_len;
    char why[160]; /* JOB_CRASH: what happened */
    struct ServeJob *next;
} ServeJob;

typedef struct ServePool ServePool;

/* Start n pool threads (at most 16), each to run a worker:
 * /proc/self/exe with argv (kept, not copied), its descriptors 3 and 4 the
 * job and answer pipes; the workers start with serve_pool_warm or the
 * first job, and again at once after one is killed. done(job, cls) is called from a pool thread (or
 * from serve_pool_submit/serve_pool_stop) when a job ends. NULL if no
 * thread could start. */
ServePool *serve_pool_start(int n, char **argv, void (*done)(ServeJob *, void *), void *cls);
/* The number of workers. */
int serve_pool_size(const ServePool *p);
/* Start the workers now (once a game is made: not while the first page
 * loads, whose requests need no AI). */
void serve_pool_warm(ServePool *p);
/* Queue a job: the workers take jobs in order. */
void serve_pool_submit(ServePool *p, ServeJob *j);
/* End every queued and running job with JOB_STOPPING (their done called),
 * kill the workers, join the threads, free the pool. */
void serve_pool_stop(ServePool *p);

#endif
