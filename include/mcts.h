/* mcts.h: Monte Carlo tree search (UCT) on any board, with an optional
 * solver that propagates proven wins, draws and losses (MCTS-Solver).
 *
 * One Mcts owns its tree (an arena of nodes in one allocation), its random
 * generator (xoshiro256** seeded from the options: the same seed, options
 * and calls give the same tree and moves) and its settings. A search runs
 * playouts from the game's position until a playout count or a time limit
 * is reached, moving and unmoving on the caller's game (left as it was).
 * The tree is kept between searches: when the next position follows from
 * the last root by moves the tree holds, the search starts from that
 * subtree ("reused"); otherwise it starts afresh. When the arena is full,
 * leaves stop growing and playouts go on.
 *
 * Children of a node are the empty squares within `radius` (Chebyshev
 * distance) of a stone, all squares when radius is 0 or the board is empty
 * (then the centre first), in order of their prior (an optional callback,
 * highest first; the normative order on ties). Selection maximises
 *   score/visits + c * sqrt(ln(parent visits) / visits) + w * prior / (visits + 1)
 * with unvisited children first. A playout plays uniformly random empty
 * squares to the end (or an optional callback's choices). Results count 1
 * for a win, 0.5 for a draw, for the side that moved into the node.
 *
 * The solver marks a node whose move ends the game as proven; a node with
 * a child proven won for the side to move is proven lost for the side that
 * moved into it; a node whose children are all proven takes the best of
 * them. Proven-lost children are never selected; a proven win at the root
 * is played at once.
 * Uses game.h. */
#ifndef MB_MCTS_H
#define MB_MCTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* A prior for move m of the side to move in g (higher first); a status
 * other than MB_OK stops the search with that status. */
typedef int (*MctsPriorFn)(const Game *g, int m, double *prior, void *ud);
/* Choose the next playout move of the side to move in g (playing), one of
 * the empty squares; a status other than MB_OK stops the search. */
typedef int (*MctsPlayoutFn)(Game *g, int *m, void *ud);
/* Polled every 32 playouts: true stops the search (as its time limit does). */
typedef bool (*MctsStopFn)(void *ud);

typedef struct MctsOptions {
    uint64_t seed;
    double c;          /* exploration constant (default 0.7) */
    bool solver;       /* propagate proven results */
    int radius;        /* candidate radius (default 2; 0: every square) */
    long expand_after; /* visits of a leaf before it grows children (default 1) */
    size_t max_nodes;  /* arena size in nodes (default 1 << 20) */
    MctsPriorFn prior; /* NULL: no priors */
    void *prior_ud;
    double prior_weight;   /* w above (default 1) */
    MctsPlayoutFn playout; /* NULL: uniform random */
    void *playout_ud;
    MctsStopFn stop; /* NULL: only the limits stop a search */
    void *stop_ud;
} MctsOptions;

/* What one search did. value is the root's expected score for the side to
 * move (0..1); proven is +1 (the side to move wins with best play), 0 (a
 * proven draw), -1 (it loses) or MCTS_UNPROVEN. */
#define MCTS_UNPROVEN 2
typedef struct MctsResult {
    int move;         /* the chosen move (MOVE_NONE when the game is over) */
    long playouts;    /* playouts of this search */
    long root_visits; /* visits of the root after it (reused ones included) */
    size_t nodes;     /* nodes in the arena */
    bool full;        /* the arena was full: some leaves could not grow
                         (the search went on with playouts from them) */
    double value;
    int proven;
    bool reused; /* the search started from a kept subtree */
    double seconds;
} MctsResult;

/* One child of the root, for analysis. */
typedef struct MctsChild {
    int move;
    long visits;
    double score; /* mean result for the side to move at the root */
    double prior;
    int proven; /* as in MctsResult, for the side to move at the root */
} MctsChild;

typedef struct Mcts Mcts;

/* ---- Life cycle ---- */

/* Defaults as documented above (seed 0). */
MctsOptions mcts_default_options(void);
/* A new searcher (NULL when out of memory or options out of range: c < 0,
 * radius < 0, expand_after < 1, max_nodes < 2). */
Mcts *mcts_new(const MctsOptions *o);
/* The same with the arena in the caller's memory (bytes long, aligned
 * for a pointer; max_nodes is ignored: the arena holds bytes /
 * mcts_node_size() nodes). mcts_free leaves that memory alone. */
Mcts *mcts_new_in(const MctsOptions *o, void *arena, size_t bytes);
/* Bytes of one node of the arena. */
size_t mcts_node_size(void);
/* Release the searcher (NULL is fine). */
void mcts_free(Mcts *m);
/* Forget the tree (the random stream goes on). */
void mcts_reset(Mcts *m);
/* Restart the random generator from a seed (the tree is kept). */
void mcts_reseed(Mcts *m, uint64_t seed);
/* Set the ud argument of both callbacks (for bindings that make it per
 * search). */
void mcts_set_callback_data(Mcts *m, void *ud);
/* Bytes the searcher holds. */
size_t mcts_memory(const Mcts *m);

/* ---- Searching ---- */

/* Search from g's position for up to max_playouts playouts (0: no count
 * limit) and up to seconds (0: no time limit; one of the two must be set),
 * then fill *r. g is restored. MB_OK; MB_EINVAL without a limit; the
 * status of a callback that failed (the game restored first); MB_EINTR
 * when the interrupt flag (interrupt.h, read with the clock every 32
 * playouts) stopped it, *r then as far as it got. A game that is over
 * gives MB_OK with r->move = MOVE_NONE. */
int mcts_search(Mcts *m, Game *g, long max_playouts, double seconds, MctsResult *r);
/* The root's children after a search, most visited first, into out (cap
 * entries); returns how many there are. */
int mcts_root_children(const Mcts *m, MctsChild *out, int cap);

#endif
