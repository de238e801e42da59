/* geometry.h: the shape of a board, built once and shared.
 *
 * A Geometry is width x height squares with k in a row to win, plus every
 * line: a window of k consecutive squares in one of the four directions
 * (horizontal, vertical, main diagonal, anti-diagonal). For k = N on an N x N
 * board these are exactly the series' 2N+2 full lines, in its canonical order
 * (rows, then columns, then the main and the anti-diagonal). With k = 1 the
 * four directions coincide, so each square is a single (horizontal) line.
 *
 * Moves are plain integers: the 1-D index m = y + x*height (column-major, as
 * the series' List1dBoard). The bitboard back-end numbers squares row-major
 * (bit b = x + y*width) so that its bit order is the normative legal-move
 * order; bit_of[] and move_of[] convert.
 *
 * A Geometry is immutable after geometry_new() and reference counted, so
 * boards copied from one another share it, also across threads. Uses nothing
 * but the C library. */
#ifndef MB_GEOMETRY_H
#define MB_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MB_MAX_SIDE      32 /* largest width or height */
#define MB_MAX_CELLS     (MB_MAX_SIDE * MB_MAX_SIDE)
#define MB_MAX_WORDS     ((MB_MAX_CELLS + 63) / 64) /* bitboard words per mark */
#define MOVE_NONE        (-1)                       /* the records[0] sentinel */
#define GEOM_TABLE_CELLS 12 /* boards this small get a per-square win table */
#define GEOM_LEGAL_CELLS 9  /* and this small a table of legal-move lists */

typedef enum Direction { DIR_ROW, DIR_COLUMN, DIR_DIAG, DIR_ANTI } Direction;

/* One line window: its first square and the step (dx, dy) to the next. */
typedef struct Line {
    int8_t x, y, dx, dy;
    uint8_t dir; /* Direction */
} Line;

typedef struct Geometry {
    int width, height, k;
    int ncells; /* width * height */
    int nlines;
    int nwords;           /* 64-bit words in one bitboard plane */
    Line *lines;          /* nlines windows, canonical order */
    int16_t *line_cells;  /* nlines * k moves: squares of each line in order */
    int32_t *thru_start;  /* ncells + 1 offsets into thru[] */
    int16_t *thru;        /* lines through move m: thru[thru_start[m] .. thru_start[m+1]) */
    int16_t *bit_of;      /* move -> bit index (row-major) */
    int16_t *move_of;     /* bit index -> move */
    uint64_t *line_mask;  /* nlines * nwords: each line as a bit mask */
    uint64_t *full_mask;  /* nwords: every square of the board */
    uint64_t *thru_mask;  /* nwords == 1 only: masks of the lines through each
                                   square, indexed like thru[] (else NULL) */
    uint64_t *win_table;  /* boards of <= GEOM_TABLE_CELLS squares (else
                                   NULL): bit p of row m is set when the bit plane p
                                   holds a full line through move m (under the
                                   exact rule: a run of exactly k through m) */
    int win_words;        /* 64-bit words per row of win_table */
    int32_t *legal_table; /* boards of <= GEOM_LEGAL_CELLS squares (else
                                   NULL): row e (GEOM_LEGAL_CELLS entries from
                                   e * GEOM_LEGAL_CELLS) lists the moves of the
                                   set bits of the bit mask e in bit order,
                                   then -1s: the legal moves of a bitboard
                                   whose empty squares are e, in one copy */
    int8_t *x_of, *y_of;  /* move -> x, y without a division */
    bool exact;           /* the rule: true when only exactly k in a row
                                   wins (an overline does not: standard
                                   gomoku); false when k or more wins
                                   (freestyle, the series' rule and the
                                   default) */
    int win_from;         /* min(2k - 1, ncells): the first move count
                                   at which a game can end (a win, or a full
                                   board when it is too small to hold one) */
    int refs;             /* reference count (atomic updates) */
} Geometry;

/* ---- Construction ---- */

/* MB_OK if (width, height, k) is a supported shape, else MB_ESIZE with a
 * message in err (when err is not NULL). k = 0 means the default k. */
int geometry_check(int width, int height, int k, char *err, size_t errlen);
/* The k a game gets when none is given: min(width, height). */
int geometry_default_k(int width, int height);
/* Build a shape (k = 0: default) under the freestyle rule; NULL on a bad
 * shape or out of memory. */
Geometry *geometry_new(int width, int height, int k);
/* The same under a rule: exact true for "exactly k wins" (see `exact`). */
Geometry *geometry_new_rule(int width, int height, int k, bool exact);
/* Take one more reference; returns g. */
Geometry *geometry_ref(Geometry *g);
/* Drop a reference; frees the shape when it was the last. NULL is a no-op. */
void geometry_unref(Geometry *g);

/* ---- The rule ---- */

/* The rules' names for people, as one literal. */
#define GEOMETRY_RULE_NAMES "freestyle or exact"
/* The rule's name: "freestyle" (k or more wins) or "exact" (exactly k). */
const char *geometry_rule_name(bool exact);
/* Parse a rule's name into *exact: MB_OK, or MB_EINVAL with a message in
 * err naming the known rules ("renju" gets its own: its forbidden moves
 * are not supported). */
int geometry_rule_parse(const char *name, bool *exact, char *err, size_t errlen);

/* Under the exact rule's reading: does the one-word plane (bit x + y*width
 * set for each mark, nwords == 1), which holds m, have a run of exactly k
 * through m in some direction? */
bool geometry_exact_run(const Geometry *g, uint64_t plane, int m);

/* ---- Coordinates ---- */

/* True if (x, y) is a square of the board. */
static inline bool geometry_on_board(const Geometry *g, int x, int y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height;
}
/* The move of square (x, y): y + x*height. */
static inline int geometry_xy_to_move(const Geometry *g, int x, int y) { return y + x * g->height; }
/* The square of a move; MOVE_NONE (and anything off the board) gives (-1, -1). */
static inline void geometry_move_to_xy(const Geometry *g, int m, int *x, int *y)
{
    if (m < 0 || m >= g->ncells) {
        *x = -1;
        *y = -1;
        return;
    }
    *x = m / g->height;
    *y = m % g->height;
}

#endif
