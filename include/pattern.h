/* pattern.h: line pattern codes for k in a row (the gomoku shapes), kept
 * incrementally per empty square, direction and side, with the per-square
 * summaries, values and sets that an evaluator, a move scorer and a
 * threat-aware search read.
 *
 * The code of an empty square s for a side P in one direction describes the
 * line through s as it would be with P's mark on s. It is read from the
 * squares up to R = k - 1 away on both sides (k under the exact rule, which
 * looks one square further), a square off the board or holding the other
 * side's mark blocking P. A window is k consecutive squares of that line
 * through s holding none of the other side's marks (under the exact rule
 * also no mark of P just outside either end: filled, it would be an
 * overline). With n the most marks of P (s included) in a window:
 *   PAT_WIN (2k - 1)      a window is full: P wins on s;
 *   open k-1 (2k - 2)     two or more distinct squares each fill a window
 *                         (.oooo. for k = 5: no single block stops it);
 *   k-1 (2k - 3)          exactly one such square (a four);
 *   open j (2j)           for j <= k - 2: some k + 1 squares through s with
 *                         both ends empty, s inside, and j marks of P and
 *                         k - 1 - j empty squares inside (so one more mark
 *                         inside makes an open j+1; under the exact rule no
 *                         mark of P just beyond either end);
 *   j (2j - 1)            n = j and no open j;
 *   0                     no window: the line is dead for P.
 * The largest code that applies is the code. For k = 5 that is the usual
 * list: 9 five, 8 open four, 7 four, 6 open three, 5 three, 4 open two,
 * 3 two, 2 open one, 1 one, 0 none.
 *
 * The class of a square for P sums up its four codes (PatClass): a win, an
 * open four (an open k-1 in one line), a double four (k-1 in two lines:
 * their completing squares differ, so either wins), four-three, four,
 * double three, three (an open k-2), none. A square's value for P is
 * sum over the directions of shape[level] (level = 2k - 1 - code: 0 for a
 * win, 1 an open k-1, ...) plus combo[class]: the weights (PatWeights).
 *
 * A PatState keeps, on a board padded with walls: the marks, the codes of
 * every empty square (read from a table of the line's 2R neighbours when
 * 2R <= 10, else computed from the squares), classes, values, the sum of
 * the values over the empty squares per side, the count of empty squares
 * per class and side, per side the set of squares of class four or better
 * (the "four set": where that side makes at least k-1), per square how many
 * marks lie within 2 squares along the four lines (the search's candidate
 * moves) and the Zobrist key (zobrist.h). Placing or lifting a mark costs
 * O(R) table reads per direction.
 *
 * A board keeps one when asked (linefeat_enable_patterns, on top of its line
 * features: every write of the board then updates it); the big-board
 * search (pvs.h) makes its own with its own weights. Uses board.h. */
#ifndef MB_PATTERN_H
#define MB_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define PAT_MAX_CODE   63 /* 2k - 1 for k = 32 */
#define PAT_SHAPES     16 /* shape weights by level; deeper levels weigh 0 */
#define PAT_TABLE_BITS 20 /* neighbour keys of up to 10 squares (2 bits each) get a table */

typedef enum PatClass {
    PAT_C_NONE,
    PAT_C_THREE,  /* an open k-2 (open three) */
    PAT_C_THREE2, /* open k-2 in two lines or more */
    PAT_C_FOUR,   /* k-1 in one line (a four) */
    PAT_C_FOUR3,  /* a four and an open three in another line */
    PAT_C_FOUR2,  /* fours in two lines */
    PAT_C_OPEN4,  /* an open k-1 (two completing squares in one line) */
    PAT_C_WIN,    /* completes k */
    PAT_CLASSES
} PatClass;

typedef struct PatWeights {
    int32_t shape[PAT_SHAPES];    /* by level: [0] win, [1] open k-1, [2] k-1, [3] open k-2, ... */
    int32_t combo[PAT_CLASSES];   /* by class, in every square's value */
    int32_t tomove[PAT_CLASSES];  /* evaluation: the side to move has a square of the class */
    int32_t waiting[PAT_CLASSES]; /* evaluation: the other side has one (subtracted) */
    int32_t tempo;                /* evaluation: for the side to move */
} PatWeights;

typedef struct PatState {
    const Geometry *geo; /* the shape (its owner holds the reference) */
    int w, h, k, reach;  /* reach R: squares read on each side */
    int pad, pw, n;      /* walls around the board, padded row width, padded squares */
    bool exact;
    int class_from;      /* the lowest code a class looks at */
    int delta[4];        /* index step of each direction */
    const uint16_t *tab; /* code of O | code of X << 8 by neighbour key, or NULL */
    uint8_t *cell;       /* n: MARK_EMPTY, MARK_O, MARK_X or 3 (a wall) */
    uint32_t *key;       /* n * 4 when tab: the 2R neighbours, 2 bits each */
    uint8_t *code;       /* n * 8: code[(i * 4 + d) * 2 + p - 1] (empty squares) */
    uint8_t *cls;        /* n * 2: class[i * 2 + p - 1] (empty squares) */
    int32_t *value;      /* n * 2: value[i * 2 + p - 1] (empty squares) */
    uint8_t *near;       /* n: marks within 2 along the four lines */
    int16_t *idx_of;     /* ncells: move -> padded index */
    int16_t *move_of;    /* n: padded index -> move, or -1 off the board */
    int16_t *set4[3];    /* [MARK_O], [MARK_X]: the four sets (padded indexes) */
    int16_t *pos4[3];    /* n each: index in set4, or -1 */
    int n4[3];
    int32_t count[3][PAT_CLASSES]; /* empty squares per side and class */
    int64_t sum[3];                /* values over the empty squares per side */
    int32_t wcode[PAT_MAX_CODE + 1];
    PatWeights weights;
    uint64_t zkey; /* Zobrist key of the marks */
    int stones;
    void *mem;
} PatState;

/* ---- Codes and names ---- */

/* The code of a win for k in a row (2k - 1), of an open j (2j), of j
 * (2j - 1). */
static inline int pat_code_win(int k) { return 2 * k - 1; }
/* "none", "1", "open 1", ..., "open k-1", "win" for the code c of k. */
const char *pat_code_name(int c, int k, char *buf, size_t len);
/* The class's name: "none", "three", "double_three", "four",
 * "four_three", "double_four", "open_four", "win". */
const char *pat_class_name(int cls);
/* The code of the side `own` for the line cells[0 .. 2R] (centre R, which
 * is empty and is filled by own): each MARK_EMPTY, MARK_O, MARK_X or 3 (off
 * the board). The direct computation (the tables are made from it). */
int pat_classify(const uint8_t *cells, int reach, int k, bool exact, Mark own);

/* ---- Weights ---- */

/* The default weights (tuned for 15x15, k = 5). */
PatWeights pat_default_weights(void);

/* ---- Life cycle ---- */

/* A state for shape g (g must outlive it) with weights w (NULL: the
 * defaults), empty board. NULL when out of memory. */
PatState *pat_new(const Geometry *g, const PatWeights *w);
void pat_free(PatState *ps);
PatState *pat_clone(const PatState *src);
/* The bytes pat_new allocates for shape g (not counting the shared
 * tables). */
size_t pat_bytes(const Geometry *g);
/* Recompute everything from b's marks (b of the same shape). */
void pat_recount(PatState *ps, const Board *b);
/* New weights: values and sums recomputed. */
void pat_set_weights(PatState *ps, const PatWeights *w);

/* ---- Updates ---- */

/* Put mark p on the empty square of move m / take it back. */
void pat_place(PatState *ps, int m, Mark p);
void pat_lift(PatState *ps, int m, Mark p);
/* The same on a padded index (the search's hot path). */
void pat_place_idx(PatState *ps, int i, Mark p);
void pat_lift_idx(PatState *ps, int i, Mark p);

/* ---- Reading ---- */

static inline int pat_idx(const PatState *ps, int m) { return ps->idx_of[m]; }
/* The code of the empty square at padded index i for p in direction d
 * (geometry.h's Direction). */
static inline int pat_code(const PatState *ps, int i, int d, Mark p)
{
    return ps->code[(i * 4 + d) * 2 + p - 1];
}
static inline int pat_class(const PatState *ps, int i, Mark p) { return ps->cls[i * 2 + p - 1]; }
static inline int32_t pat_value(const PatState *ps, int i, Mark p)
{
    return ps->value[i * 2 + p - 1];
}
/* The static evaluation for `me` to move: the sum of me's values over the
 * empty squares less the other side's, plus tempo, plus tomove[c] for each class c of
 * which me has a square, less waiting[c] for each the other side has, in
 * weight units. */
static inline int64_t pat_eval(const PatState *ps, Mark me)
{
    int64_t v = ps->sum[me] - ps->sum[3 - me] + ps->weights.tempo;
    for (int c = PAT_C_THREE; c < PAT_CLASSES; c++) {
        if (ps->count[me][c]) v += ps->weights.tomove[c];
        if (ps->count[3 - me][c]) v -= ps->weights.waiting[c];
    }
    return v;
}
/* The move score of the empty square i for `me` to move: its value for me
 * plus `defend` percent of its value for the other side (building and
 * blocking). */
static inline int32_t pat_move_score(const PatState *ps, int i, Mark me, int defend)
{
    return ps->value[i * 2 + me - 1] + ps->value[i * 2 + 2 - me] * defend / 100;
}
/* The squares (padded indexes) where p completes k, into out; how many. */
int pat_wins(const PatState *ps, Mark p, int *out, int cap);
/* The forced moves of `me` to move: when the other side has a square that
 * completes k, the square(s) (a block: reason 1); else when it has a
 * square of class open four or double four (an open three, or two fours
 * to make), every square of either side's four set (defences and
 * counter-fours: reason 2); else none (reason 0). Padded indexes into out
 * (capacity n), normative order; returns how many, *reason set. */
int pat_forced(const PatState *ps, Mark me, int *out, int *reason);
/* True when every kept value equals a recount from b's marks made without
 * the tables (tests). */
bool pat_ok(const PatState *ps, const Board *b);

#endif
