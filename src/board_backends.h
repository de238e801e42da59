/* board_backends.h: the three storage back-ends behind board.h (private).
 *
 * Each back-end owns only its storage of marks: reading and writing a square,
 * the lines-through-a-square win scan, the empty squares in normative order,
 * and a scan of line counts. board.c dispatches on Board.kind and keeps the
 * line counters, which are the same for all back-ends. The hot functions are
 * static inline so the dispatch compiles to a jump into straight-line code. */
#ifndef MB_BOARD_BACKENDS_H
#define MB_BOARD_BACKENDS_H

#include "board.h"

/* ---- BOARD_LIST: cols[x][y] ---- */

static inline Mark list_get(const Board *b, int m)
{
    int h = b->geom->height;
    return b->cols[m / h][m % h];
}
static inline void list_put(Board *b, int m, Mark mark)
{
    int h = b->geom->height;
    b->cols[m / h][m % h] = mark;
}
bool list_is_winner(const Board *b, Mark player, int m);
int list_empty_squares(const Board *b, int *out);
void list_scan_line_counts(const Board *b, int32_t *hist);

/* ---- BOARD_LIST1D: cells[y + x*height] ---- */

static inline Mark list1d_get(const Board *b, int m) { return b->cells[m]; }
static inline void list1d_put(Board *b, int m, Mark mark) { b->cells[m] = mark; }
bool list1d_is_winner(const Board *b, Mark player, int m);
int list1d_empty_squares(const Board *b, int *out);
void list1d_scan_line_counts(const Board *b, int32_t *hist);

/* ---- BOARD_BITS: planes of row-major bits ---- */

static inline Mark bits_get(const Board *b, int m)
{
    const Geometry *g = b->geom;
    int bit = g->bit_of[m], w = bit >> 6;
    uint64_t one = 1ULL << (bit & 63);
    if (b->planes[w] & one) return MARK_O;
    if (b->planes[g->nwords + w] & one) return MARK_X;
    return MARK_EMPTY;
}
static inline void bits_put(Board *b, int m, Mark mark)
{
    const Geometry *g = b->geom;
    int bit = g->bit_of[m], w = bit >> 6;
    uint64_t one = 1ULL << (bit & 63);
    b->planes[w] &= ~one;
    b->planes[g->nwords + w] &= ~one;
    if (mark != MARK_EMPTY) b->planes[(mark - 1) * g->nwords + w] |= one;
}
bool bits_is_winner(const Board *b, Mark player, int m);
int bits_empty_squares(const Board *b, int *out);
void bits_scan_line_counts(const Board *b, int32_t *hist);

#endif
