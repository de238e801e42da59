/* board.c: back-end dispatch and board life cycle (board.h).
 *
 * The counters are kept the same way for every back-end (board_backends.h):
 * line[i] = o*(k+1) + x for the o 〇 and x × on line i, and hist[] counts the
 * lines at each such value. A write moves every line through the square one
 * cell along the histogram, so win checks compare one number per line and
 * count_markpats copies the histogram instead of scanning. */
#include "board.h"

#include <stdlib.h>
#include <string.h>

#include "board_backends.h"
#include "mberror.h"

/* Sizes of the parts of a board's single allocation: the back-end's
 * storage, then the counters (8-byte parts first). */
typedef struct Layout {
    size_t storage, hist, line, total;
} Layout;

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

static size_t storage_of(const Geometry *g, BoardKind kind)
{
    switch (kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: return p##_storage(g);
        BOARD_BACKENDS(X)
#undef X
    default: return 0;
    }
}

static Layout layout_of(const Geometry *g, BoardKind kind, bool counters)
{
    Layout l = {0};
    l.storage = storage_of(g, kind);
    if (counters) {
        l.hist = round8((size_t)(g->k + 1) * (size_t)(g->k + 1) * sizeof(int32_t));
        l.line = round8((size_t)g->nlines * sizeof(uint16_t));
    }
    l.total = l.storage + l.hist + l.line;
    return l;
}

/* Point the board's arrays into b->mem. */
static void attach(Board *b, const Layout *l)
{
    char *p = b->mem;
    switch (b->kind) {
#define X(id, pre, name, sep)                                                                      \
    case BOARD_##id: pre##_attach(b, p); break;
        BOARD_BACKENDS(X)
#undef X
    default: break;
    }
    p += l->storage;
    b->hist = l->hist ? (int32_t *)(void *)p : NULL;
    p += l->hist;
    b->line = l->line ? (uint16_t *)(void *)p : NULL;
}

int board_init(Board *b, Geometry *g, BoardKind kind, bool counters)
{
    memset(b, 0, sizeof *b);
    if ((unsigned)kind >= BOARD_KINDS) return MB_EINVAL;
    Layout l = layout_of(g, kind, counters);
    b->mem = calloc(1, l.total ? l.total : 1);
    if (!b->mem) return MB_ENOMEM;
    b->geom = geometry_ref(g);
    b->kind = kind;
    b->counters = counters;
    b->setting = counters;
    attach(b, &l);
    board_reset(b);
    return MB_OK;
}

void board_free(Board *b)
{
    if (b->feat) b->follow->release(b->feat);
    free(b->mem);
    geometry_unref(b->geom);
    memset(b, 0, sizeof *b);
}

int board_copy(Board *dst, const Board *src)
{
    int err = board_init(dst, src->geom, src->kind, src->counters);
    if (err) return err;
    Layout l = layout_of(src->geom, src->kind, src->counters);
    /* the column pointers differ; everything else is plain data */
    memcpy(dst->mem, src->mem, l.total);
    attach(dst, &l);
    if (src->feat) {
        dst->follow = src->follow;
        if (!(dst->feat = src->follow->clone(src->feat))) {
            board_free(dst);
            return MB_ENOMEM;
        }
    }
    dst->setting = src->setting;
    return MB_OK;
}

void board_reset(Board *b)
{
    const Geometry *g = b->geom;
    switch (b->kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: p##_clear(b); break;
        BOARD_BACKENDS(X)
#undef X
    default: break;
    }
    if (b->counters) {
        Layout l = layout_of(g, b->kind, b->counters);
        memset(b->line, 0, l.line);
        memset(b->hist, 0, l.hist);
        b->hist[0] = g->nlines;
    }
    if (b->feat) b->follow->recount(b->feat, b);
}

Mark board_get(const Board *b, int m) { return board_get_inline(b, m); }

void board_set(Board *b, int m, Mark mark)
{
    Mark old = board_get(b, m);
    if (old == mark) return;
    if (old != MARK_EMPTY) board_lift(b, m, old);
    if (mark != MARK_EMPTY) board_place(b, m, mark);
}

void board_place(Board *b, int m, Mark mark)
{
    board_place_inline(b, m, mark);
    if (b->feat) b->follow->changed(b->feat, m, mark, +1);
}

void board_lift(Board *b, int m, Mark mark)
{
    board_lift_inline(b, m, mark);
    if (b->feat) b->follow->changed(b->feat, m, mark, -1);
}

void board_count_marks(const Board *b, int *n_o, int *n_x)
{
    int c[3] = {0, 0, 0};
    for (int m = 0; m < b->geom->ncells; m++) c[board_get(b, m)]++;
    *n_o = c[MARK_O];
    *n_x = c[MARK_X];
}

bool board_is_winner(const Board *b, Mark player, int m)
{
    return board_is_winner_inline(b, player, m);
}

/* The four directions of a run: along a row, a column and both diagonals. */
static const int8_t run_step[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

/* Is there a run of exactly k of player's marks through m (which holds
 * one) in some direction? Walks both ways from m, stopping past k. */
bool board_exact_run(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    int x0 = g->x_of[m], y0 = g->y_of[m], k = g->k;
    for (int d = 0; d < 4; d++) {
        int dx = run_step[d][0], dy = run_step[d][1], run = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int x = x0 + s * dx, y = y0 + s * dy;
                 run <= k && geometry_on_board(g, x, y) &&
                 board_get(b, geometry_xy_to_move(g, x, y)) == player;
                 x += s * dx, y += s * dy)
                run++;
        if (run == k) return true;
    }
    return false;
}

int board_empty_squares(const Board *b, int *out) { return board_empty_squares_inline(b, out); }

void board_scan_line_counts(const Board *b, Mark first, int32_t *hist)
{
    int k1 = b->geom->k + 1;
    memset(hist, 0, (size_t)k1 * (size_t)k1 * sizeof *hist);
    switch (b->kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: p##_scan_line_counts(b, first, hist); break;
        BOARD_BACKENDS(X)
#undef X
    default: break;
    }
}

char board_mark_char(Mark mark) { return mark == MARK_O ? 'o' : mark == MARK_X ? 'x' : '.'; }

void board_key(const Board *b, char *buf)
{
    switch (b->kind) {
#define X(id, p, name, sep)                                                                        \
    case BOARD_##id: p##_key(b, buf); break;
        BOARD_BACKENDS(X)
#undef X
    default: break;
    }
    buf[b->geom->ncells] = '\0';
}

/* The names and prefixes, in enum order. */
#define X(id, p, name, sep) name,
static const char *const kind_names[BOARD_KINDS] = {BOARD_BACKENDS(X)};
#undef X
#define X(id, p, name, sep) #p,
static const char *const kind_prefixes[BOARD_KINDS] = {BOARD_BACKENDS(X)};
#undef X

const char *board_kind_name(BoardKind kind)
{
    return (unsigned)kind < BOARD_KINDS ? kind_names[kind] : "?";
}

int board_kind_parse(const char *name, BoardKind *kind)
{
    for (int i = 0; i < BOARD_KINDS; i++)
        if (strcmp(name, kind_names[i]) == 0 || strcmp(name, kind_prefixes[i]) == 0) {
            *kind = (BoardKind)i;
            return MB_OK;
        }
    return MB_EINVAL;
}
