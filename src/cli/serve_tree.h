/* serve_tree.h: the 3x3 tree explorer of `marubatsu serve`
 * (serve_tree.c): the full game tree in each scoring, built once, and the
 * JSON answer of GET /api/tree. Uses tree.h and textbuf.h. */
#ifndef MB_SERVE_TREE_H
#define MB_SERVE_TREE_H

#include <pthread.h>
#include <stdbool.h>

#include "textbuf.h"
#include "tree.h"

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
