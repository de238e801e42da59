/* linefeat.c: a board's line features (linefeat.h): life cycle, recount,
 * the threat squares read from the hot windows, and the checker. */
#include "linefeat.h"

#include <stdlib.h>
#include <string.h>

#include "linefeat_hot.h"
#include "mberror.h"
#include "zobrist.h"

/* ---- Life cycle ---- */

/* Sizes of the parts of one allocation (8-byte parts first). */
typedef struct FLayout {
    size_t zob, pot, hist, stamp, hot_list, hot_pos, lists, line, hot, cell, total;
} FLayout;

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

static FLayout flayout(const Geometry *g)
{
    FLayout l;
    size_t k1 = (size_t)g->k + 1, nl = (size_t)g->nlines, nc = (size_t)g->ncells;
    l.zob = round8(2 * nc * sizeof(uint64_t));
    l.pot = round8(2 * k1 * k1 * sizeof(int64_t));
    l.hist = round8(k1 * k1 * sizeof(int32_t));
    l.stamp = round8(nc * sizeof(uint32_t));
    l.hot_list = round8(nl * sizeof(int32_t));
    l.hot_pos = round8(nl * sizeof(int32_t));
    l.lists = round8(4 * nc * sizeof(int16_t));
    l.line = round8(nl * sizeof(uint16_t));
    l.hot = round8(k1 * k1);
    l.cell = round8(nc);
    l.total = l.zob + l.pot + l.hist + l.stamp + l.hot_list + l.hot_pos + l.lists + l.line + l.hot +
              l.cell;
    return l;
}

/* Point f's arrays into f->mem. */
static void fattach(LineFeat *f)
{
    FLayout l = flayout(f->geo);
    char *p = f->mem;
    size_t nc = (size_t)f->geo->ncells;
    f->zob = (const uint64_t *)(void *)p;
    p += l.zob;
    f->pot[0] = NULL;
    f->pot[MARK_O] = (int64_t *)(void *)p;
    f->pot[MARK_X] = f->pot[MARK_O] + (size_t)f->k1 * (size_t)f->k1;
    p += l.pot;
    f->hist = (int32_t *)(void *)p;
    p += l.hist;
    f->stamp = (uint32_t *)(void *)p;
    p += l.stamp;
    f->hot_list = (int32_t *)(void *)p;
    p += l.hot_list;
    f->hot_pos = (int32_t *)(void *)p;
    p += l.hot_pos;
    int16_t *lists = (int16_t *)(void *)p;
    f->win[MARK_O] = lists;
    f->win[MARK_X] = lists + nc;
    f->open[MARK_O] = lists + 2 * nc;
    f->open[MARK_X] = lists + 3 * nc;
    f->win[0] = f->open[0] = NULL;
    p += l.lists;
    f->line = (uint16_t *)(void *)p;
    p += l.line;
    f->hot = (uint8_t *)p;
    p += l.hot;
    f->cell = (uint8_t *)p;
}

/* A LineFeat of shape g with its constant tables filled (no marks yet). */
static LineFeat *fnew(const Geometry *g)
{
    LineFeat *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->geo = g;
    f->k1 = g->k + 1;
    f->mem = calloc(1, flayout(g).total);
    if (!f->mem) {
        free(f);
        return NULL;
    }
    fattach(f);
    uint64_t *zob = (uint64_t *)(void *)f->mem;
    for (int m = 0; m < g->ncells; m++)
        for (unsigned c = 1; c <= 2; c++) zob[2 * m + (int)c - 1] = zobrist_value(m, c);
    /* hot classes: k-1 or k-2 marks (at least one) of one side, none of the
     * other's */
    int k = g->k;
    for (int j = k - 2; j <= k - 1; j++)
        if (j >= 1) {
            f->hot[j * f->k1] = LINEFEAT_HOT;
            f->hot[j] = LINEFEAT_HOT;
        }
    f->hot[k * f->k1] = LINEFEAT_FULL;
    f->hot[k] = LINEFEAT_FULL;
    /* a window of c >= 1 marks of one side only: 4^min(c, 20), the same
     * for either side to move (building or blocking) */
    for (int o = 0; o <= k; o++)
        for (int x = 0; x <= k; x++) {
            int c = o && !x ? o : x && !o ? x : 0;
            int64_t v = c ? (int64_t)1 << (2 * (c < 20 ? c : 20)) : 0;
            f->pot[MARK_O][o * f->k1 + x] = f->pot[MARK_X][o * f->k1 + x] = v;
        }
    return f;
}

void linefeat_recount(LineFeat *f, const Board *b)
{
    const Geometry *g = f->geo;
    int k = g->k;
    memset(f->hist, 0, (size_t)f->k1 * (size_t)f->k1 * sizeof *f->hist);
    f->key = 0;
    for (int m = 0; m < g->ncells; m++) {
        Mark c = board_get(b, m);
        f->cell[m] = c;
        if (c) f->key ^= f->zob[2 * m + c - 1];
    }
    f->nhot = 0;
    for (int li = 0; li < g->nlines; li++) {
        int c[3] = {0, 0, 0};
        for (int j = 0; j < k; j++) c[board_get(b, g->line_cells[li * k + j])]++;
        int v = c[MARK_O] * f->k1 + c[MARK_X];
        f->line[li] = (uint16_t)v;
        f->hist[v]++;
        f->hot_pos[li] = -1;
        if (f->hot[v] & LINEFEAT_HOT) linefeat_hot_flip(f, li, true);
    }
    f->cached = f->cached_win = false;
    if (f->pat) pat_recount(f->pat, b);
}

size_t linefeat_bytes(const Geometry *g) { return sizeof(LineFeat) + flayout(g).total; }

/* How the board keeps its features in step (board.h). */
static const BoardFollower follower = {linefeat_update, linefeat_recount, linefeat_clone,
                                       linefeat_free};

int linefeat_enable(Board *b)
{
    if (b->feat) return MB_OK;
    LineFeat *f = fnew(b->geom);
    if (!f) return MB_ENOMEM;
    linefeat_recount(f, b);
    b->feat = f;
    b->follow = &follower;
    b->setting = (uint8_t)(b->counters + 2);
    return MB_OK;
}

void linefeat_free(LineFeat *f)
{
    if (!f) return;
    pat_free(f->pat);
    free(f->mem);
    free(f);
}

void linefeat_disable(Board *b)
{
    linefeat_free(b->feat);
    b->feat = NULL;
    b->follow = NULL;
    b->setting = b->counters;
}

LineFeat *linefeat_clone(const LineFeat *src)
{
    LineFeat *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    *f = *src;
    size_t total = flayout(src->geo).total;
    f->mem = malloc(total);
    if (!f->mem) {
        free(f);
        return NULL;
    }
    memcpy(f->mem, src->mem, total);
    fattach(f);
    if (src->pat && !(f->pat = pat_clone(src->pat))) {
        free(f->mem);
        free(f);
        return NULL;
    }
    return f;
}

void linefeat_update(LineFeat *f, int m, Mark mark, int delta)
{
    linefeat_update_inline(f, m, mark, delta);
}

int linefeat_enable_patterns(Board *b)
{
    LineFeat *f = b->feat;
    if (!f) return MB_EINVAL;
    if (f->pat) return MB_OK;
    PatState *ps = pat_new(b->geom, NULL);
    if (!ps) return MB_ENOMEM;
    pat_recount(ps, b);
    f->pat = ps;
    return MB_OK;
}

/* ---- Threat squares ---- */

/* The mark on (x, y) from the features' copy, or 3 off the board. */
static inline Mark at_xy(const LineFeat *f, int x, int y)
{
    const Geometry *g = f->geo;
    return geometry_on_board(g, x, y) ? f->cell[geometry_xy_to_move(g, x, y)] : 3;
}

/* The window test of linefeat_window_wins on f's copy of the marks. */
static bool window_wins(const LineFeat *f, int li, Mark p)
{
    const Geometry *g = f->geo;
    if (!g->exact) return true;
    const Line *ln = &g->lines[li];
    if (at_xy(f, ln->x - ln->dx, ln->y - ln->dy) == p) return false;
    return at_xy(f, ln->x + g->k * ln->dx, ln->y + g->k * ln->dy) != p;
}

bool linefeat_window_wins(const Board *b, int li, Mark p)
{
    const Geometry *g = b->geom;
    if (!g->exact) return true;
    const Line *ln = &g->lines[li];
    int x0 = ln->x - ln->dx, y0 = ln->y - ln->dy;
    int x1 = ln->x + g->k * ln->dx, y1 = ln->y + g->k * ln->dy;
    if (geometry_on_board(g, x0, y0) && board_get(b, geometry_xy_to_move(g, x0, y0)) == p)
        return false;
    return !(geometry_on_board(g, x1, y1) && board_get(b, geometry_xy_to_move(g, x1, y1)) == p);
}

/* The four directions of lines (dx, dy). */
static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

/* Marks of p in a row from (x, y) on, stepping (dx, dy). */
static int run_of(const LineFeat *f, int x, int y, int dx, int dy, Mark p)
{
    int n = 0;
    while (at_xy(f, x, y) == p) {
        n++;
        x += dx;
        y += dy;
    }
    return n;
}

/* Would p's mark on the empty square s make an open k-1 (linefeat.h)? */
static bool makes_open(const LineFeat *f, int s, Mark p)
{
    const Geometry *g = f->geo;
    int sx = g->x_of[s], sy = g->y_of[s], k = g->k;
    for (int d = 0; d < 4; d++) {
        int dx = dirs[d][0], dy = dirs[d][1];
        int a = run_of(f, sx + dx, sy + dy, dx, dy, p);
        int c = run_of(f, sx - dx, sy - dy, -dx, -dy, p);
        if (1 + a + c != k - 1) continue;
        int e1x = sx + (a + 1) * dx, e1y = sy + (a + 1) * dy;
        int e2x = sx - (c + 1) * dx, e2y = sy - (c + 1) * dy;
        if (at_xy(f, e1x, e1y) != MARK_EMPTY || at_xy(f, e2x, e2y) != MARK_EMPTY) continue;
        if (g->exact && (at_xy(f, e1x + dx, e1y + dy) == p || at_xy(f, e2x - dx, e2y - dy) == p))
            continue;
        return true;
    }
    return false;
}

/* Sort squares by their bit index (normative order): the lists are short. */
static void sort_normative(const Geometry *g, int16_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        int16_t m = v[i];
        int key = g->bit_of[m], j = i;
        while (j > 0 && g->bit_of[v[j - 1]] > key) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = m;
    }
}

/* A fresh stamp value for the scratch marks (clearing them on wrap). */
static uint32_t next_stamp(LineFeat *f)
{
    if (++f->stamp_now == 0) {
        memset(f->stamp, 0, (size_t)f->geo->ncells * sizeof *f->stamp);
        f->stamp_now = 1;
    }
    return f->stamp_now;
}

/* Is window value v one of p's with exactly `mine` marks (and none of the
 * other side's)? */
static inline bool holds(const LineFeat *f, int v, Mark p, int mine)
{
    return v == (p == MARK_O ? mine * f->k1 : mine);
}

/* Both sides' win squares into the cache. Each list takes its own stamp,
 * so a square appears once per list. */
static void compute_wins(LineFeat *f)
{
    const Geometry *g = f->geo;
    int k = g->k;
    for (Mark p = MARK_O; p <= MARK_X; p++) {
        f->nwin[p] = 0;
        if (k == 1) { /* every empty square completes a line */
            for (int bit = 0; bit < g->ncells; bit++) {
                int m = g->move_of[bit];
                if (f->cell[m] == MARK_EMPTY) f->win[p][f->nwin[p]++] = (int16_t)m;
            }
            continue;
        }
        uint32_t sw = next_stamp(f);
        for (int h = 0; h < f->nhot; h++) {
            int li = f->hot_list[h];
            if (!holds(f, f->line[li], p, k - 1)) continue;
            const int16_t *cells = g->line_cells + li * k;
            int j = 0;
            while (f->cell[cells[j]] != MARK_EMPTY) j++;
            int s = cells[j];
            if (f->stamp[s] != sw && window_wins(f, li, p)) {
                f->stamp[s] = sw;
                f->win[p][f->nwin[p]++] = (int16_t)s;
            }
        }
        sort_normative(g, f->win[p], f->nwin[p]);
    }
    f->cached_win = true;
}

/* Both sides' open squares into the cache. */
static void compute_opens(LineFeat *f)
{
    const Geometry *g = f->geo;
    int k = g->k;
    for (Mark p = MARK_O; p <= MARK_X; p++) {
        f->nopen[p] = 0;
        if (k < 3) continue;
        uint32_t so = next_stamp(f);
        for (int h = 0; h < f->nhot; h++) {
            int li = f->hot_list[h];
            if (!holds(f, f->line[li], p, k - 2)) continue;
            for (int j = 0; j < k; j++) {
                int s = g->line_cells[li * k + j];
                if (f->stamp[s] == so || f->cell[s] != MARK_EMPTY) continue;
                f->stamp[s] = so;
                if (makes_open(f, s, p)) f->open[p][f->nopen[p]++] = (int16_t)s;
            }
        }
        sort_normative(g, f->open[p], f->nopen[p]);
    }
    f->cached = true;
}

void linefeat_wins(LineFeat *f, const Board *b, Mark p, const int16_t **win, int *nwin)
{
    (void)b; /* the features keep their own copy of the marks */
    if (!f->cached_win) compute_wins(f);
    *win = f->win[p];
    *nwin = f->nwin[p];
}

void linefeat_threats(LineFeat *f, const Board *b, Mark p, const int16_t **win, int *nwin,
                      const int16_t **open, int *nopen)
{
    linefeat_wins(f, b, p, win, nwin);
    if (!f->cached) compute_opens(f);
    *open = f->open[p];
    *nopen = f->nopen[p];
}

/* ---- The checker ---- */

bool linefeat_ok(const LineFeat *f, const Board *b)
{
    LineFeat *r = fnew(f->geo);
    if (!r) return true; /* cannot check without memory */
    linefeat_recount(r, b);
    const Geometry *g = f->geo;
    bool ok = r->key == f->key && r->nhot == f->nhot &&
              memcmp(r->cell, f->cell, (size_t)g->ncells) == 0 &&
              memcmp(r->hist, f->hist, (size_t)f->k1 * (size_t)f->k1 * sizeof *f->hist) == 0 &&
              memcmp(r->line, f->line, (size_t)g->nlines * sizeof *f->line) == 0;
    for (int li = 0; ok && li < g->nlines; li++) {
        bool in = f->hot_pos[li] >= 0;
        ok = in == (r->hot_pos[li] >= 0) && (!in || f->hot_list[f->hot_pos[li]] == li);
    }
    linefeat_free(r);
    return ok;
}
