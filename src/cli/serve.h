/* serve.h: what the parts of `marubatsu serve` share: a growable text
 * buffer for JSON replies (cmd_serve.c) and the 3x3 tree explorer's answers
 * (serve_tree.c). The HTTP layer, the origin checks and the embedded pages
 * are in cmd_serve.c; games, AIs and tournament results are answered in Lua
 * (src/lua/l_serve.c, scripts/lib/serve.lua). Uses tree.h. */
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

#endif
