/* board_backends.h: the storage back-ends behind board.h (private to the
 * engine's .c files).
 *
 * Each back-end owns only its storage of marks: reading and writing a square,
 * the lines-through-a-square win scan, the empty squares in normative order,
 * and a scan of line counts. The line counters are the same for every
 * back-end and live here too. The functions on the move/unmove/judge path are
 * static inline so that game.c compiles them into straight-line code with one
 * switch on the back-end; the rest are in board_*.c. */
#ifndef MB_BOARD_BACKENDS_H
#define MB_BOARD_BACKENDS_H

#include "board.h"

/* The hot path must inline whatever the compiler thinks of its size. */
#define HOT static inline __attribute__((always_inline))

/* The other side (game.h's mark_other, which the board cannot include). */
static inline Mark mark_other_(Mark m) { return (Mark)(MARK_O + MARK_X - m); }

/* ---- BOARD_LIST: cols[x][y] ---- */

static inline Mark list_get(const Board *b, int m)
{
    return b->cols[b->geom->x_of[m]][b->geom->y_of[m]];
}
static inline void list_put(Board *b, int m, Mark mark)
{
    b->cols[b->geom->x_of[m]][b->geom->y_of[m]] = mark;
}
bool list_is_winner(const Board *b, Mark player, int m);
int list_empty_squares(const Board *b, int *out);
void list_scan_line_counts(const Board *b, Mark first, int32_t *hist);

/* ---- BOARD_LIST1D: cells[y + x*height] ---- */

static inline Mark list1d_get(const Board *b, int m) { return b->cells[m]; }
static inline void list1d_put(Board *b, int m, Mark mark) { b->cells[m] = mark; }
bool list1d_is_winner(const Board *b, Mark player, int m);
int list1d_empty_squares(const Board *b, int *out);
void list1d_scan_line_counts(const Board *b, Mark first, int32_t *hist);

/* ---- BOARD_BITS: planes of row-major bits ---- */

static inline Mark bits_get(const Board *b, int m)
{
    int bit = b->geom->bit_of[m], w = bit >> 6;
    uint64_t one = 1ULL << (bit & 63);
    if (b->plane[MARK_O][w] & one) return MARK_O;
    if (b->plane[MARK_X][w] & one) return MARK_X;
    return MARK_EMPTY;
}
/* Set (on) or clear the bit of m in mark's plane. */
HOT void bits_flip(Board *b, int m, Mark mark, bool on)
{
    int bit = b->geom->bit_of[m];
    uint64_t *word = &b->plane[mark][bit >> 6];
    uint64_t one = 1ULL << (bit & 63);
    *word = on ? *word | one : *word & ~one;
}
/* Does a line through m hold only player's marks? Small boards look the
 * plane up in the win table (inline, no branch); others test one mask per
 * line through m, out of line so the table path needs no saved registers. */
bool bits_wins_scan(const Board *b, Mark player, int m);
HOT bool bits_wins(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    if (g->win_table) {
        uint64_t p = b->plane[player][0];
        return (g->win_table[(size_t)m * (size_t)g->win_words + (p >> 6)] >> (p & 63)) & 1;
    }
    return bits_wins_scan(b, player, m);
}
/* The empty squares, in bit order = normative order. */
HOT int bits_empty_squares(const Board *b, int *out)
{
    const Geometry *g = b->geom;
    const uint64_t *o = b->plane[MARK_O], *x = b->plane[MARK_X];
    int n = 0;
    for (int w = 0; w < g->nwords; w++) {
        uint64_t empty = g->full_mask[w] & ~(o[w] | x[w]);
        const int16_t *move_of = g->move_of + w * 64;
        while (empty) {
            out[n++] = move_of[__builtin_ctzll(empty)];
            empty &= empty - 1;
        }
    }
    return n;
}
void bits_scan_line_counts(const Board *b, Mark first, int32_t *hist);

/* ---- Line counters (count_linemark), for every back-end ---- */

/* `mark` gains (delta +1) or loses (delta -1) square m: every line through m
 * moves to the next cell of the (o, x) histogram. */
HOT void counters_add(Board *b, int m, Mark mark, int delta)
{
    const Geometry *g = b->geom;
    int step = (mark == MARK_O ? g->k + 1 : 1) * delta;
    for (int t = g->thru_start[m], end = g->thru_start[m + 1]; t < end; t++) {
        uint16_t *l = &b->line[g->thru[t]];
        b->hist[*l]--;
        *l = (uint16_t)(*l + step);
        b->hist[*l]++;
    }
}
/* Is a line through m full of player's marks, by the counters? */
HOT bool counters_win(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    int full = player == MARK_O ? g->k * (g->k + 1) : g->k;
    for (int t = g->thru_start[m], end = g->thru_start[m + 1]; t < end; t++)
        if (b->line[g->thru[t]] == full) return true;
    return false;
}

/* ---- The hot path of move, unmove and judge ---- */

/* The writes and the win check for a back-end and counter setting known at
 * the call: game.c instantiates move and unmove once per setting, so each
 * copy holds only its own back-end's code. */
HOT void board_place_k(Board *b, int m, Mark mark, BoardKind kind, bool counters)
{
    switch (kind) {
    case BOARD_LIST: list_put(b, m, mark); break;
    case BOARD_LIST1D: list1d_put(b, m, mark); break;
    default: bits_flip(b, m, mark, true); break;
    }
    if (counters) counters_add(b, m, mark, +1);
}

HOT void board_lift_k(Board *b, int m, Mark mark, BoardKind kind, bool counters)
{
    switch (kind) {
    case BOARD_LIST: list_put(b, m, MARK_EMPTY); break;
    case BOARD_LIST1D: list1d_put(b, m, MARK_EMPTY); break;
    default: bits_flip(b, m, mark, false); break;
    }
    if (counters) counters_add(b, m, mark, -1);
}

HOT bool board_is_winner_k(const Board *b, Mark player, int m, BoardKind kind, bool counters)
{
    if (counters) return counters_win(b, player, m);
    switch (kind) {
    case BOARD_LIST: return list_is_winner(b, player, m);
    case BOARD_LIST1D: return list1d_is_winner(b, player, m);
    default: return bits_wins(b, player, m);
    }
}

/* The same, reading the setting from the board. */
HOT void board_place_inline(Board *b, int m, Mark mark)
{
    board_place_k(b, m, mark, b->kind, b->counters);
}
HOT void board_lift_inline(Board *b, int m, Mark mark)
{
    board_lift_k(b, m, mark, b->kind, b->counters);
}
HOT bool board_is_winner_inline(const Board *b, Mark player, int m)
{
    return board_is_winner_k(b, player, m, b->kind, b->counters);
}

HOT int board_empty_squares_inline(const Board *b, int *out)
{
    switch (b->kind) {
    case BOARD_LIST: return list_empty_squares(b, out);
    case BOARD_LIST1D: return list1d_empty_squares(b, out);
    default: return bits_empty_squares(b, out);
    }
}

#endif
