/* board.h: the marks on a board, behind three interchangeable back-ends.
 *
 * A Board holds the marks of one position on a shared Geometry, stored by one
 * of three back-ends chosen at run time, modelled on the series:
 *   BOARD_LIST    a 2-D array cols[x][y], a list of columns (ListBoard);
 *   BOARD_LIST1D  a flat array cells[y + x*height] (List1dBoard);
 *   BOARD_BITS    one bit plane per mark, row-major bits (NpBoolBoard's planes).
 * Each may keep line counters (the series' count_linemark): per line its
 * (o count, x count) pair, and a histogram of lines by that pair, both
 * updated on every write, so that win checks and mark patterns need no scan.
 *
 * Every back-end and counter setting gives identical results for every
 * operation; legal moves always come in the normative order (y outer, x
 * inner). The board knows nothing of turns or records: that is game.h.
 * Uses geometry.h. */
#ifndef MB_BOARD_H
#define MB_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"

typedef uint8_t Mark;
enum { MARK_EMPTY = 0, MARK_O = 1, MARK_X = 2 };

/* The back-ends, the one list everything about them is generated from (the
 * enum, the names, the dispatch in board.c and board_backends.h, game.c's
 * move variants): X(ID, prefix, "name", "separator before the name in the
 * list of names"). Back-end `prefix` is board_<prefix>.c; it defines the
 * functions of board_backends.h named <prefix>_get, _place, _lift,
 * _is_winner, _empty_squares, _scan_line_counts, _key, _storage, _attach
 * and _clear. Adding one is its file, its inline part in board_backends.h
 * and one line here (whose separator is " or " when it is the last). */
#define BOARD_BACKENDS(X)                                                                          \
    X(LIST, list, "list", "")                                                                      \
    X(LIST1D, list1d, "list1d", ", ")                                                              \
    X(BITS, bits, "bitboard", " or ")

#define BOARD_ENUM_(id, prefix, name, sep) BOARD_##id,
typedef enum BoardKind { BOARD_BACKENDS(BOARD_ENUM_) BOARD_KINDS } BoardKind;
#undef BOARD_ENUM_

/* The names for people, as one literal: "list, list1d or bitboard". */
#define BOARD_NAME_ITEM_(id, prefix, name, sep) sep name
#define BOARD_NAMES                             BOARD_BACKENDS(BOARD_NAME_ITEM_)

struct Board;
struct LineFeat;

/* What keeps data in step with a board's squares: line features
 * (linefeat.h) attach themselves this way. The board calls these on its
 * writes, copies, resets and frees and knows nothing else of them, so it
 * depends on no follower; the hot path (move and unmove, game.c) updates
 * the features inline instead. */
typedef struct BoardFollower {
    void (*changed)(struct LineFeat *f, int m, Mark mark, int delta); /* +1 placed, -1 lifted */
    void (*recount)(struct LineFeat *f, const struct Board *b);       /* after a reset */
    struct LineFeat *(*clone)(const struct LineFeat *f);              /* NULL: out of memory */
    void (*release)(struct LineFeat *f);
} BoardFollower;

typedef struct Board {
    Geometry *geom; /* shared shape (one reference held) */
    BoardKind kind;
    bool counters;               /* count_linemark */
    uint8_t **cols;              /* BOARD_LIST: cols[x][y] */
    uint8_t *cells;              /* BOARD_LIST1D: cells[y + x*height] */
    uint64_t *plane[3];          /* BOARD_BITS: plane[MARK_O], plane[MARK_X] (nwords words
                           each, one block); plane[0] is NULL */
    uint16_t *line;              /* counters: per line o*(k+1) + x, its 〇 and × counts */
    int32_t *hist;               /* counters: lines with o 〇 and x ×: hist[o*(k+1) + x] */
    void *mem;                   /* the one allocation holding all of the above */
    struct LineFeat *feat;       /* line features (linefeat.h), or NULL: off */
    const BoardFollower *follow; /* feat's functions (set with feat) */
    uint8_t setting;             /* counters + 2 * (feat != NULL): which instance of
                         move and unmove runs (game.c) */
} Board;

/* ---- Life cycle ---- */

/* Make an empty board on g (takes its own reference). MB_OK or MB_ENOMEM;
 * on failure b is left freeable. */
int board_init(Board *b, Geometry *g, BoardKind kind, bool counters);
/* Release a board's memory (a zeroed or freed board is fine). */
void board_free(Board *b);
/* Make dst an independent copy of src (dst must not be initialised). */
int board_copy(Board *dst, const Board *src);
/* Empty every square and zero the counters. */
void board_reset(Board *b);

/* ---- Squares ---- */

/* The mark on move m (m must be on the board). */
Mark board_get(const Board *b, int m);
/* Write a mark on move m, keeping the counters; writing MARK_EMPTY on an
 * empty square changes nothing. */
void board_set(Board *b, int m, Mark mark);
/* The fast writes of move and unmove: put `mark` on the empty square m, or
 * take `mark` back off m (which must hold it). */
void board_place(Board *b, int m, Mark mark);
void board_lift(Board *b, int m, Mark mark);
/* Number of squares holding each mark. */
void board_count_marks(const Board *b, int *n_o, int *n_x);

/* ---- Queries ---- */

/* True if a line through move m is all `player`'s marks (the series'
 * is_winner(player, last_move)); uses the counters when they are kept. */
bool board_is_winner(const Board *b, Mark player, int m);
/* The empty squares in normative order (y outer, x inner); returns how many. */
int board_empty_squares(const Board *b, int *out);
/* Histogram of lines by (count of `first`'s marks, count of the other
 * side's) into hist[(k+1)*(k+1)], by scanning the marks even when counters
 * are kept. first = MARK_O gives the counters' (o, x) order. */
void board_scan_line_counts(const Board *b, Mark first, int32_t *hist);
/* The board key: ncells mark characters in move order, then a NUL. */
void board_key(const Board *b, char *buf);

/* ---- Names ---- */

/* The back-end's name: "list", "list1d" or "bitboard" (BOARD_NAMES). */
const char *board_kind_name(BoardKind kind);
/* Parse a back-end name, or its prefix ("bits"); MB_OK or MB_EINVAL. */
int board_kind_parse(const char *name, BoardKind *kind);
/* The character of a mark: '.', 'o', 'x'. */
char board_mark_char(Mark mark);

#endif
