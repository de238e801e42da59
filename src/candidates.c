/* candidates.c: candidate moves near the marks, ordered by threat score
 * (candidates.h). */
#include "candidates.h"

#include <stdlib.h>

#include "linefeat.h"

#define TIER_SHIFT 50 /* tiers above every line potential (< 2^48) */

/* The potential of a window holding c marks of one side: 4^min(c, 20). */
static int64_t pot(int c) { return (int64_t)1 << (2 * (c < 20 ? c : 20)); }

/* Is s in the list v of n squares? */
static bool listed(const int16_t *v, int n, int s)
{
    for (int i = 0; i < n; i++)
        if (v[i] == s) return true;
    return false;
}

int64_t candidates_score(Game *g, int s)
{
    Board *b = &g->board;
    LineFeat *f = b->feat;
    const Geometry *geo = b->geom;
    Mark p = g->turn, q = mark_other(p);
    const int16_t *wp, *op, *wq, *oq;
    int nwp, nop, nwq, noq;
    linefeat_threats(f, b, p, &wp, &nwp, &op, &nop);
    linefeat_threats(f, b, q, &wq, &nwq, &oq, &noq);
    int64_t tier = listed(wp, nwp, s) ? 4 : listed(wq, nwq, s) ? 3
                 : listed(op, nop, s) ? 2 : listed(oq, noq, s) ? 1 : 0;
    int64_t sum = 0;
    int k1 = f->k1;
    for (int t = geo->thru_start[s]; t < geo->thru_start[s + 1]; t++) {
        int v = f->line[geo->thru[t]], o = v / k1, x = v % k1;
        int mine = p == MARK_O ? o : x, theirs = p == MARK_O ? x : o;
        if (mine && !theirs) sum += pot(mine);
        if (theirs && !mine) sum += pot(theirs);
    }
    return (tier << TIER_SHIFT) + sum;
}

/* Order of two candidates: score descending, then normative order. */
typedef struct Cand {
    int64_t score;
    int bit, move;
} Cand;

static int cmp_cand(const void *a, const void *b)
{
    const Cand *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return x->bit - y->bit;
}

int candidates_generate(Game *g, int d, int *out, int64_t *scores)
{
    Board *b = &g->board;
    const Geometry *geo = b->geom;
    if (g->status != STATUS_PLAYING) return 0;
    if (!b->feat && linefeat_enable(b) != 0) return -1;
    int w = geo->width, h = geo->height;
    if (d > CANDIDATES_MAX_DISTANCE) d = CANDIDATES_MAX_DISTANCE;
    if (d < 1) d = 1;
    /* Step 1. prefix sums of the marks: ps[(y+1)*(w+1) + x+1] counts the
     * marks in [0, x] x [0, y] */
    int ps[(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
    int stones = 0;
    for (int x = 0; x <= w; x++) ps[x] = 0;
    for (int y = 0; y < h; y++) {
        int row = 0;
        ps[(y + 1) * (w + 1)] = 0;
        for (int x = 0; x < w; x++) {
            row += board_get(b, geometry_xy_to_move(geo, x, y)) != MARK_EMPTY;
            ps[(y + 1) * (w + 1) + x + 1] = ps[y * (w + 1) + x + 1] + row;
        }
        stones += row;
    }
    /* Step 2. the empty board: the centre */
    if (stones == 0) {
        out[0] = geometry_xy_to_move(geo, (w - 1) / 2, (h - 1) / 2);
        if (scores) scores[0] = 0;
        return 1;
    }
    /* Step 3. empty squares with a mark in their box, scored */
    Cand c[MB_MAX_CELLS];
    int n = 0;
    for (int bit = 0; bit < geo->ncells; bit++) {
        int m = geo->move_of[bit], x = geo->x_of[m], y = geo->y_of[m];
        if (board_get(b, m) != MARK_EMPTY) continue;
        int x0 = x - d < 0 ? 0 : x - d, x1 = x + d >= w ? w - 1 : x + d;
        int y0 = y - d < 0 ? 0 : y - d, y1 = y + d >= h ? h - 1 : y + d;
        int in = ps[(y1 + 1) * (w + 1) + x1 + 1] - ps[y0 * (w + 1) + x1 + 1] -
                 ps[(y1 + 1) * (w + 1) + x0] + ps[y0 * (w + 1) + x0];
        if (in == 0) continue;
        c[n++] = (Cand){candidates_score(g, m), bit, m};
    }
    /* Step 4. best first */
    qsort(c, (size_t)n, sizeof *c, cmp_cand);
    for (int i = 0; i < n; i++) {
        out[i] = c[i].move;
        if (scores) scores[i] = c[i].score;
    }
    return n;
}
