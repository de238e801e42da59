/* wincheck.c: the win checks of part 34 (see wincheck.h). Each is written
 * the way the series presents it, translated to C; they differ in how the
 * lines are written down, not in what they compute. */
#include "wincheck.h"

#include <string.h>

#include "mberror.h"

static const char *const names[WINCHECK_ALGOS] = {"original", "concat",    "table",
                                                  "coords",   "generated", "step"};

const char *wincheck_name(int algo)
{
    return algo >= 0 && algo < WINCHECK_ALGOS ? names[algo] : "?";
}

bool wincheck_applies(const Geometry *g, int algo)
{
    if (algo < 0 || algo >= WINCHECK_ALGOS) return false;
    if (algo >= 4) return true;
    return g->width == 3 && g->height == 3 && g->k == 3;
}

/* The mark at (x, y), the way the algorithms read the board. */
static inline Mark at(const Board *b, int x, int y)
{
    return board_get(b, y + x * b->geom->height);
}

/* 0: every line spelt out, comparing squares pairwise with the player. */
static bool original(const Board *b, Mark p)
{
    return (at(b, 0, 0) == p && at(b, 1, 0) == p && at(b, 2, 0) == p) ||
           (at(b, 0, 1) == p && at(b, 1, 1) == p && at(b, 2, 1) == p) ||
           (at(b, 0, 2) == p && at(b, 1, 2) == p && at(b, 2, 2) == p) ||
           (at(b, 0, 0) == p && at(b, 0, 1) == p && at(b, 0, 2) == p) ||
           (at(b, 1, 0) == p && at(b, 1, 1) == p && at(b, 1, 2) == p) ||
           (at(b, 2, 0) == p && at(b, 2, 1) == p && at(b, 2, 2) == p) ||
           (at(b, 0, 0) == p && at(b, 1, 1) == p && at(b, 2, 2) == p) ||
           (at(b, 2, 0) == p && at(b, 1, 1) == p && at(b, 0, 2) == p);
}

/* 1: join the three marks of a line and compare with the player's mark three
 * times, built once per call. */
static bool concat(const Board *b, Mark p)
{
    char want[4], c = board_mark_char(p);
    memset(want, c, 3);
    want[3] = '\0';
#define LINE(x1, y1, x2, y2, x3, y3)                                                               \
    do {                                                                                           \
        char s[4] = {board_mark_char(at(b, x1, y1)), board_mark_char(at(b, x2, y2)),               \
                     board_mark_char(at(b, x3, y3)), '\0'};                                        \
        if (strcmp(s, want) == 0) return true;                                                     \
    } while (0)
    LINE(0, 0, 1, 0, 2, 0);
    LINE(0, 1, 1, 1, 2, 1);
    LINE(0, 2, 1, 2, 2, 2);
    LINE(0, 0, 0, 1, 0, 2);
    LINE(1, 0, 1, 1, 1, 2);
    LINE(2, 0, 2, 1, 2, 2);
    LINE(0, 0, 1, 1, 2, 2);
    LINE(2, 0, 1, 1, 0, 2);
#undef LINE
    return false;
}

/* 2: the lines as data, x1 y1 x2 y2 x3 y3, in canonical order. */
static const int line_table[8][6] = {
    {0, 0, 1, 0, 2, 0}, {0, 1, 1, 1, 2, 1}, {0, 2, 1, 2, 2, 2}, {0, 0, 0, 1, 0, 2},
    {1, 0, 1, 1, 1, 2}, {2, 0, 2, 1, 2, 2}, {0, 0, 1, 1, 2, 2}, {2, 0, 1, 1, 0, 2},
};

static bool table(const Board *b, Mark p)
{
    for (int i = 0; i < 8; i++) {
        const int *l = line_table[i];
        if (at(b, l[0], l[1]) == p && at(b, l[2], l[3]) == p && at(b, l[4], l[5]) == p)
            return true; /* return early only on a full line */
    }
    return false;
}

/* 3: the lines as Excel coordinate lists, with is_same stopping at the first
 * square that is not the player's. */
static const char *const line_coords[8] = {"A1,B1,C1", "A2,B2,C2", "A3,B3,C3", "A1,A2,A3",
                                           "B1,B2,B3", "C1,C2,C3", "A1,B2,C3", "C1,B2,A3"};

static bool is_same_coords(const Board *b, const char *coords, Mark p)
{
    for (const char *s = coords;; s += 3) {
        if (at(b, s[0] - 'A', s[1] - '1') != p) return false;
        if (s[2] != ',') return true;
    }
}

static bool coords(const Board *b, Mark p)
{
    for (int i = 0; i < 8; i++)
        if (is_same_coords(b, line_coords[i], p)) return true;
    return false;
}

/* 4: the coordinate lists generated from the shape (the geometry's windows). */
static bool generated(const Board *b, Mark p)
{
    const Geometry *g = b->geom;
    for (int i = 0; i < g->nlines; i++) {
        const int16_t *sq = &g->line_cells[i * g->k];
        int j = 0;
        while (j < g->k && board_get(b, sq[j]) == p) j++;
        if (j == g->k) return true;
    }
    return false;
}

/* 5: each line as its first square plus a step, walking exactly k squares. */
static bool is_same_step(const Board *b, Mark p, int x, int y, int dx, int dy)
{
    for (int j = 0; j < b->geom->k; j++, x += dx, y += dy)
        if (at(b, x, y) != p) return false;
    return true;
}

static bool step(const Board *b, Mark p)
{
    const Geometry *g = b->geom;
    for (int i = 0; i < g->nlines; i++) {
        const Line *l = &g->lines[i];
        if (is_same_step(b, p, l->x, l->y, l->dx, l->dy)) return true;
    }
    return false;
}

static bool (*const algos[WINCHECK_ALGOS])(const Board *, Mark) = {original, concat,    table,
                                                                   coords,   generated, step};

bool wincheck_is_winner(const Board *b, int algo, Mark player, int *err)
{
    if (!wincheck_applies(b->geom, algo)) {
        *err = MB_EALGO;
        return false;
    }
    *err = MB_OK;
    return algos[algo](b, player);
}

Status wincheck_judge(const Board *b, int algo, int *err)
{
    if (wincheck_is_winner(b, algo, MARK_O, err)) return STATUS_O;
    if (*err) return STATUS_PLAYING;
    if (wincheck_is_winner(b, algo, MARK_X, err)) return STATUS_X;
    for (int m = 0; m < b->geom->ncells; m++)
        if (board_get(b, m) == MARK_EMPTY) return STATUS_PLAYING;
    return STATUS_DRAW;
}
