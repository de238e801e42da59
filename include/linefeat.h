/* linefeat.h: line features of a board, kept up to date by every write, for
 * evaluators and move generators on boards of any size and k.
 *
 * A board's LineFeat (opt-in: NULL until linefeat_enable) keep
 *   - per line window (the Geometry's lines of k squares) its (o, x) counts,
 *     and a histogram of windows by that pair, so the number of windows
 *     holding j marks of one side and none of the other is one read;
 *   - the Zobrist key of the marks (zobrist.h);
 *   - the set of "hot" windows: those holding k-1 or k-2 marks of one side
 *     (at least one) and none of the other, from which the threat squares
 *     are read on demand without scanning the board.
 * Every write of the board (move, unmove, place_mark, remove_mark, the
 * searches' moves) updates them incrementally: O(lines through the square).
 *
 * Threat squares of a side P, both in normative order (y outer, x inner):
 *   win squares   empty squares where P's mark completes k in a row (under
 *                 the exact rule, Geometry.exact, exactly k: a square that
 *                 would make an overline in that window does not count;
 *                 for k = 1 every empty square, under both rules);
 *   open squares  empty squares where P's mark makes an open k-1: a run of
 *                 exactly k-1 of P's marks in one direction through the
 *                 square whose two end squares are empty and on the board,
 *                 so that filling either end completes k along that line
 *                 (under the exact rule exactly k: the square beyond each
 *                 end must not hold P's mark). For k = 5: the open four
 *                 .oooo. Defined for k >= 3 only (the list is empty for
 *                 k < 3).
 * The lists are computed from the hot windows at the first read after a
 * change and cached until the next write.
 *
 * Uses board.h, geometry.h and zobrist.h; knows nothing of games. */
#ifndef MB_LINEFEAT_H
#define MB_LINEFEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define LINEFEAT_HOT  1
#define LINEFEAT_FULL 2

typedef struct LineFeat {
    const Geometry *geo; /* the board's shape (the board holds the reference) */
    int k1;              /* k + 1: a window's value is o * k1 + x */
    uint64_t key;        /* Zobrist key of the marks */
    const uint64_t *zob; /* zobrist_value(m, c) at zob[2m + c - 1] */
    uint16_t *line;      /* per window: o * k1 + x */
    int32_t *hist;       /* windows per value: k1 * k1 */
    uint8_t *hot;        /* per value: its class bits, LINEFEAT_HOT when
                              the class is hot, LINEFEAT_FULL when the
                              window is full of one side's marks */
    int32_t *hot_list;   /* the hot windows (nhot of them, any order) */
    int32_t *hot_pos;    /* per window: its index in hot_list, or -1 */
    int nhot;
    int64_t *pot[3]; /* [MARK_O], [MARK_X]: per window value, its line
                              potential for that side to move
                              (candidates.h): 4^c for c >= 1 marks of one
                              side and none of the other's, else 0 */
    uint8_t *cell;   /* ncells: the mark on each square (a copy of the
                              board's, read without the back-end's dispatch) */
    /* the threat lists of both sides: the win squares valid while
     * `cached_win`, the open squares while `cached` */
    bool cached, cached_win;
    int nwin[3], nopen[3];
    int16_t *win[3], *open[3]; /* [MARK_O], [MARK_X]: ncells each */
    uint32_t *stamp;           /* ncells: scratch marks of the threat scan */
    uint32_t stamp_now;
    struct PatState *pat; /* pattern codes (pattern.h), or NULL: off */
    void *mem;            /* the one allocation holding the arrays */
} LineFeat;

/* ---- Life cycle (on a Board) ---- */

/* Switch features on for b (a no-op when on), computed from its marks.
 * MB_OK or MB_ENOMEM (b unchanged). */
int linefeat_enable(Board *b);
/* The bytes linefeat_enable allocates for a board of shape g. */
size_t linefeat_bytes(const Geometry *g);
/* Switch them off and release their memory. */
void linefeat_disable(Board *b);
/* A new LineFeat equal to src (for board_copy); NULL when out of memory. */
LineFeat *linefeat_clone(const LineFeat *src);
/* Release a LineFeat (NULL is a no-op). */
void linefeat_free(LineFeat *f);
/* Recompute f from b's marks (after a reset or a bulk change). */
void linefeat_recount(LineFeat *f, const Board *b);
/* Keep the pattern codes (pattern.h) too, on top of b's features (which
 * must be on): every write of b then updates them. MB_OK, MB_EINVAL
 * (features off) or MB_ENOMEM. */
int linefeat_enable_patterns(Board *b);

/* ---- Updates (the board's writes, through its BoardFollower; the hot path
 * is linefeat_hot.h) ---- */

/* `mark` gained (delta +1) or lost (delta -1) square m. */
void linefeat_update(LineFeat *f, int m, Mark mark, int delta);

/* ---- Reading ---- */

/* The number of windows holding j (0..k) marks of p and none of the other
 * side's (j = 0: empty windows). */
static inline int32_t linefeat_window_count(const LineFeat *f, Mark p, int j)
{
    return f->hist[p == MARK_O ? j * f->k1 : j];
}
/* p's win squares and open squares (see above), valid until the next write
 * of the board; counts in *nwin, *nopen. */
void linefeat_threats(LineFeat *f, const Board *b, Mark p, const int16_t **win, int *nwin,
                      const int16_t **open, int *nopen);
/* p's win squares only (cheaper: no open squares are looked for). */
void linefeat_wins(LineFeat *f, const Board *b, Mark p, const int16_t **win, int *nwin);
/* True when window li, full of p's marks once its empty square is filled,
 * makes a win: always under the freestyle rule; under the exact rule when
 * neither square just outside the window holds p's mark. The one place the
 * rule enters the features. */
bool linefeat_window_wins(const Board *b, int li, Mark p);
/* True if every kept feature equals a recount from b's marks (tests, and
 * game_ok in debug builds). */
bool linefeat_ok(const LineFeat *f, const Board *b);

#endif
