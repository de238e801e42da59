/* solve.h: the exact value of a position (first-player win, draw or
 * second-player win) and the number of plies to the end with best play.
 *
 * Negamax αβ from the side to move over scores that rank wins by the move
 * count at which they end (the winner hurries, the loser delays), so the
 * value and the distance come from one search. (A first pass over the bare
 * values {-1, 0, +1} made (6,5,4) cost 3.1 M more nodes: without distances
 * nothing bounds the length of a win, so the defender's long lines are all
 * searched.) The search uses:
 * - a table keyed by the canonical position (the smallest (o, x) pair of
 *   bitboards over the board's symmetries) storing bounds and a best move;
 * - threat pruning: a side that can complete a line wins at once (under
 *   the exact rule only a line whose two outside neighbours are not its
 *   own: else it would make an overline); a side
 *   facing two different winning squares of the opponent loses; a side
 *   facing one must block it; a position where neither side has a line left
 *   without the other's marks is a draw;
 * - the table is limited (solve_set_hash, 64 MB by default): once full, a
 *   new position replaces the one of more marks of the two at its home
 *   (the solve stays exact; it only searches more);
 * - dead squares: of the empty squares on no open line, one is searched
 *   (they are all worth the same);
 * - move ordering: the table's move, then the squares on the most promising
 *   lines (weighted by how many marks they already hold, the mover's own
 *   lines counting three times).
 * A draw with best play lasts until the board is full. Boards of at most 64
 * squares. The Solve struct holds everything (no globals); the game is only
 * read. Uses game.h. */
#ifndef MB_SOLVE_H
#define MB_SOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define SOLVE_MAX_CELLS       64
#define SOLVE_STOPPED         100 /* solve_position's status when the time limit hit */
#define SOLVE_DEFAULT_HASH_MB 64  /* the table's default limit (solve_set_hash) */

/* Called about once a second during a solve: nodes so far, table size,
 * root moves done and their total. */
typedef void (*SolveProgress)(void *ud, uint64_t nodes, size_t table, int done, int total);

typedef struct SolveEntry SolveEntry; /* the table's slots (solve.c) */

typedef struct Solve {
    /* settings (solve_init sets the defaults) */
    double time_limit;      /* seconds; <= 0: none */
    size_t max_table;       /* most table slots (a power of two; solve_set_hash) */
    SolveProgress progress; /* may be NULL */
    void *ud;
    /* counters of the last solve */
    uint64_t nodes;
    double seconds;
    bool aborted;     /* the time limit or an interrupt stopped it */
    bool interrupted; /* the interrupt flag (interrupt.h) stopped it */
    bool full;        /* the table reached its limit (replace or drop) */
    /* the table (kept between solves of one shape; cleared per solve) */
    SolveEntry *table;
    size_t cap, count;
    /* the rest is private working state */
    int ncells, k, nsym, nlines, mc0;
    uint64_t *lines;
    uint64_t *flank;          /* per line: the squares just outside it (exact
                                 rule; all 0 under freestyle) */
    bool exact;               /* the rule the tables were built for */
    uint64_t (*perm)[8][256]; /* perm[t][byte][v]: image of byte v of a mask */
    int8_t (*move_to)[SOLVE_MAX_CELLS], (*move_from)[SOLVE_MAX_CELLS];
    int order[SOLVE_MAX_CELLS]; /* squares centre first */
    int width, height;          /* the shape the tables were built for */
    double t0, next_report;
    int root_done, root_total;
} Solve;

typedef struct SolveResult {
    int value;    /* +1 first player (o) wins, 0 draw, -1 second player wins */
    int best;     /* a best move for the side to move; MOVE_NONE if over */
    int distance; /* plies to the end with best play */
    uint64_t nodes;
    size_t table; /* positions in the table at the end */
    bool full;    /* the table reached its limit: positions were replaced
                     (the result is as exact; only more nodes searched) */
    double seconds;
} SolveResult;

/* Default settings (a table of at most SOLVE_DEFAULT_HASH_MB), an empty
 * table. */
void solve_init(Solve *s);
/* Limit the table to `bytes`: the largest power of two of slots that fits
 * (at least 4,096). Once the table is full, a new position takes the slot
 * of the one of more marks of the two at its home: the solve stays exact
 * and searches more nodes. The last doubling holds the old half too, 1.5 times the
 * table for a moment. */
void solve_set_hash(Solve *s, size_t bytes);
/* Release the table and tables of the shape. */
void solve_free(Solve *s);
/* Solve the current position of g (not changed). MB_OK, MB_ESIZE (more
 * than 64 squares), MB_ENOMEM, SOLVE_STOPPED when the time limit stopped
 * it or MB_EINTR when the interrupt flag did (interrupt.h, read with the
 * clock, about every 2,048 nodes); out then holds the counters only. */
int solve_position(Solve *s, const Game *g, SolveResult *out);
/* "first player wins", "draw" or "second player wins". */
const char *solve_value_name(int value);

#endif
