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

#include <stddef.h>
#include <string.h>

#include "board.h"

/* The hot path must inline whatever the compiler thinks of its size. */
#define HOT static inline __attribute__((always_inline))

/* The other side (game.h's mark_other, which the board cannot include). */
static inline Mark mark_other_(Mark m) { return (Mark)(MARK_O + MARK_X - m); }

/* Every back-end `p` of BOARD_BACKENDS (board.h) provides, inline here when
 * the move/unmove/judge path uses it, else in board_<p>.c:
 *   Mark p_get(const Board *, int m)            the mark on m
 *   void p_place(Board *, int m, Mark)          put a mark on an empty square
 *   void p_lift(Board *, int m, Mark)           take that mark back off
 *   bool p_is_winner(const Board *, Mark, int m) a full line through m?
 *   int  p_empty_squares(const Board *, int *)  empty squares, normative order
 *   void p_scan_line_counts(const Board *, Mark first, int32_t *hist)
 *   void p_key(const Board *, char *buf)        the board key (board_key)
 *   size_t p_storage(const Geometry *)          bytes of its storage, a
 *                                               multiple of 8
 *   void p_attach(Board *, void *mem)           point its fields into mem
 *   void p_clear(Board *)                       every square empty */
/* The declarations of the out-of-line part every back-end has. */
#define BOARD_BACKEND_DECLS_(id, p, name, sep)                                                     \
    void p##_scan_line_counts(const Board *b, Mark first, int32_t *hist);                          \
    void p##_key(const Board *b, char *buf);                                                       \
    size_t p##_storage(const Geometry *g);                                                         \
    void p##_attach(Board *b, void *mem);                                                          \
    void p##_clear(Board *b);

/* ---- BOARD_LIST: cols[x][y] ---- */

static inline Mark list_get(const Board *b, int m)
{
    return b->cols[b->geom->x_of[m]][b->geom->y_of[m]];
}
HOT void list_place(Board *b, int m, Mark mark)
{
    b->cols[b->geom->x_of[m]][b->geom->y_of[m]] = mark;
}
HOT void list_lift(Board *b, int m, Mark mark)
{
    (void)mark;
    b->cols[b->geom->x_of[m]][b->geom->y_of[m]] = MARK_EMPTY;
}
bool list_is_winner(const Board *b, Mark player, int m);
int list_empty_squares(const Board *b, int *out);

/* ---- BOARD_LIST1D: cells[y + x*height] ---- */

static inline Mark list1d_get(const Board *b, int m) { return b->cells[m]; }
HOT void list1d_place(Board *b, int m, Mark mark) { b->cells[m] = mark; }
HOT void list1d_lift(Board *b, int m, Mark mark)
{
    (void)mark;
    b->cells[m] = MARK_EMPTY;
}
bool list1d_is_winner(const Board *b, Mark player, int m);
int list1d_empty_squares(const Board *b, int *out);

/* ---- BOARD_BITS: planes of row-major bits ---- */

static inline Mark bits_get(const Board *b, int m)
{
    int bit = b->geom->bit_of[m], w = bit >> 6;
    uint64_t one = 1ULL << (bit & 63);
    if (b->plane[MARK_O][w] & one) return MARK_O;
    if (b->plane[MARK_X][w] & one) return MARK_X;
    return MARK_EMPTY;
}
/* One word a plane is a branch, not an index computed from m: the word's
 * load then waits for nothing but the last write (a chain of moves runs
 * through it). */
HOT void bits_place(Board *b, int m, Mark mark)
{
    int bit = b->geom->bit_of[m];
    if (b->geom->nwords == 1)
        b->plane[mark][0] |= 1ULL << bit;
    else
        b->plane[mark][bit >> 6] |= 1ULL << (bit & 63);
}
HOT void bits_lift(Board *b, int m, Mark mark)
{
    int bit = b->geom->bit_of[m];
    if (b->geom->nwords == 1)
        b->plane[mark][0] &= ~(1ULL << bit);
    else
        b->plane[mark][bit >> 6] &= ~(1ULL << (bit & 63));
}
/* Does a line through m hold only player's marks? Small boards look the
 * plane up in the win table (inline, no branch); others test one mask per
 * line through m, out of line so the table path needs no saved registers.
 * bits_word_wins is the same test on a one-word plane held by the caller
 * (nwords == 1), for walks that keep the planes outside a Board. */
bool bits_wins_scan(const Board *b, Mark player, int m);
bool bits_word_wins_scan(const Geometry *g, uint64_t plane, int m);
HOT bool bits_table_wins(const Geometry *g, uint64_t p, int m)
{
    return (g->win_table[(size_t)m * (size_t)g->win_words + (p >> 6)] >> (p & 63)) & 1;
}
/* Under the exact rule a full window is only the first test (exactly k
 * in a row implies one): board_exact_run and geometry_exact_run decide, out
 * of line, only when it passed, so freestyle's paths keep their code and
 * the exact rule costs nothing until someone completes a line. The win
 * table of a small board holds the exact rule's answer itself. */
bool board_exact_run(const Board *b, Mark player, int m);
HOT bool bits_word_wins(const Geometry *g, uint64_t plane, int m)
{
    if (g->win_table) return bits_table_wins(g, plane, m);
    return bits_word_wins_scan(g, plane, m) && (!g->exact || geometry_exact_run(g, plane, m));
}
/* board_is_winner of a bitboard without counters whose shape has no win
 * table (the table holds the exact rule's answer, so callers that read it
 * themselves call this only without one). */
bool bits_wins_call(const Board *b, Mark player, int m);
HOT bool bits_is_winner(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    if (g->win_table) return bits_table_wins(g, b->plane[player][0], m);
    return bits_wins_scan(b, player, m);
}
/* bits_empty_squares of a board of more than one word per plane. */
int bits_empty_squares_wide(const Board *b, int *out);
/* The empty squares, in bit order = normative order, by walking the set
 * bits of the empty mask. */
HOT int bits_empty_scan(const Board *b, int *out)
{
    const Geometry *g = b->geom;
    const uint64_t *o = b->plane[MARK_O], *x = b->plane[MARK_X];
    int n = 0;
    if (g->nwords > 1) return bits_empty_squares_wide(b, out); /* no saved registers here */
    const int16_t *move_of = g->move_of;                       /* up to 64 squares: one word */
    for (uint64_t empty = g->full_mask[0] & ~(o[0] | x[0]); empty; empty &= empty - 1)
        out[n++] = move_of[__builtin_ctzll(empty)];
    return n;
}
/* The empty squares of a board with the geometry's table of lists (the
 * smallest boards), copied from it: a 3x3 board's whole row in one
 * fixed-size copy (out holds ncells = 9 moves), a smaller one's moves
 * alone. (A search, whose table traffic would evict these rows from the
 * cache, scans instead: game_hot.h.) */
HOT int bits_table_copy(const Board *b, int *out)
{
    const Geometry *g = b->geom;
    uint64_t empty = g->full_mask[0] & ~(b->plane[MARK_O][0] | b->plane[MARK_X][0]);
    const int32_t *row = g->legal_table + empty * GEOM_LEGAL_CELLS;
    int n = __builtin_popcountll(empty);
    if (g->ncells == GEOM_LEGAL_CELLS)
        memcpy(out, row, GEOM_LEGAL_CELLS * sizeof *out);
    else
        for (int i = 0; i < n; i++) out[i] = row[i];
    return n;
}
/* The empty squares, in bit order = normative order. */
HOT int bits_empty_squares(const Board *b, int *out)
{
    return b->geom->legal_table ? bits_table_copy(b, out) : bits_empty_scan(b, out);
}
BOARD_BACKENDS(BOARD_BACKEND_DECLS_)

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
 * copy holds only its own back-end's code. The switches are generated from
 * BOARD_BACKENDS. */
HOT void board_place_k(Board *b, int m, Mark mark, BoardKind kind, bool counters)
{
    switch (kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: p##_place(b, m, mark); break;
        BOARD_BACKENDS(X)
#undef X
    default: break;
    }
    if (counters) counters_add(b, m, mark, +1);
}

HOT void board_lift_k(Board *b, int m, Mark mark, BoardKind kind, bool counters)
{
    switch (kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: p##_lift(b, m, mark); break;
        BOARD_BACKENDS(X)
#undef X
    default: break;
    }
    if (counters) counters_add(b, m, mark, -1);
}

HOT bool board_is_winner_k(const Board *b, Mark player, int m, BoardKind kind, bool counters)
{
    bool full;
    if (counters) {
        full = counters_win(b, player, m);
    } else {
        switch (kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: full = p##_is_winner(b, player, m); break;
            BOARD_BACKENDS(X)
#undef X
        default: full = false; break;
        }
    }
    return full && (!b->geom->exact || board_exact_run(b, player, m));
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

HOT int board_empty_squares_k(const Board *b, int *out, BoardKind kind)
{
    switch (kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: return p##_empty_squares(b, out);
        BOARD_BACKENDS(X)
#undef X
    default: return 0;
    }
}

HOT int board_empty_squares_inline(const Board *b, int *out)
{
    return board_empty_squares_k(b, out, b->kind);
}

HOT Mark board_get_inline(const Board *b, int m)
{
    switch (b->kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: return p##_get(b, m);
        BOARD_BACKENDS(X)
#undef X
    default: return MARK_EMPTY;
    }
}

#endif
