/* candidates.c: candidate moves near the marks, ordered by threat score
 * (candidates.h). */
#include "candidates.h"

#include <string.h>

#include "linefeat.h"

#define TIER_SHIFT                                                                                 \
    50 /* tiers above every line potential (< 2^48); a score
                         * * 1024 stays below 2^63 */


/* The tier of every square (candidates.h) into tier[], from the threat
 * lists of the side to move p and the other side q (lower tiers first, so
 * the higher ones overwrite). */
static void fill_tiers(Game *g, uint8_t *tier)
{
    Board *b = &g->board;
    Mark p = g->turn, q = mark_other(p);
    const int16_t *wp, *op, *wq, *oq;
    int nwp, nop, nwq, noq;
    linefeat_threats(b->feat, b, p, &wp, &nwp, &op, &nop);
    linefeat_threats(b->feat, b, q, &wq, &nwq, &oq, &noq);
    for (int i = 0; i < noq; i++) tier[oq[i]] = 1;
    for (int i = 0; i < nop; i++) tier[op[i]] = 2;
    for (int i = 0; i < nwq; i++) tier[wq[i]] = 3;
    for (int i = 0; i < nwp; i++) tier[wp[i]] = 4;
}

/* The line potential of s for the side to move p (the features' table
 * of each window's value). */
static inline int64_t potential(const LineFeat *f, const Geometry *geo, Mark p, int s)
{
    int64_t sum = 0;
    const int64_t *pot = f->pot[p];
    for (int t = geo->thru_start[s], end = geo->thru_start[s + 1]; t < end; t++)
        sum += pot[f->line[geo->thru[t]]];
    return sum;
}

/* Sort keys descending (Shell sort, Ciura's gaps): a candidate's key is
 * its score * 1024 + (1023 - its bit), so ties come in normative order. */
static void sort_desc(int64_t *v, int n)
{
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t gi = 0; gi < sizeof gaps / sizeof *gaps; gi++) {
        int gap = gaps[gi];
        for (int i = gap; i < n; i++) {
            int64_t x = v[i];
            int j = i;
            for (; j >= gap && v[j - gap] < x; j -= gap) v[j] = v[j - gap];
            v[j] = x;
        }
    }
}

int candidates_generate(Game *g, int d, int *out, int64_t *scores)
{
    Board *b = &g->board;
    const Geometry *geo = b->geom;
    if (g->status != STATUS_PLAYING) return 0;
    if (!b->feat && linefeat_enable(b) != 0) return -1;
    const LineFeat *f = b->feat;
    int w = geo->width, h = geo->height;
    if (d > CANDIDATES_MAX_DISTANCE) d = CANDIDATES_MAX_DISTANCE;
    if (d < 1) d = 1;
    /* Step 1. prefix sums of the marks: ps[(y+1)*(w+1) + x+1] counts the
     * marks in [0, x] x [0, y] */
    int ps[(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
    for (int x = 0; x <= w; x++) ps[x] = 0;
    for (int y = 0; y < h; y++) {
        int row = 0;
        ps[(y + 1) * (w + 1)] = 0;
        for (int x = 0; x < w; x++) {
            row += f->cell[y + x * h] != MARK_EMPTY;
            ps[(y + 1) * (w + 1) + x + 1] = ps[y * (w + 1) + x + 1] + row;
        }
    }
    /* Step 2. the empty board: the centre */
    if (ps[h * (w + 1) + w] == 0) {
        out[0] = geometry_xy_to_move(geo, (w - 1) / 2, (h - 1) / 2);
        if (scores) scores[0] = 0;
        return 1;
    }
    /* Step 3. empty squares with a mark in their box, scored */
    uint8_t tier[MB_MAX_CELLS];
    memset(tier, 0, (size_t)geo->ncells);
    fill_tiers(g, tier);
    int64_t key[MB_MAX_CELLS];
    int n = 0;
    for (int bit = 0; bit < geo->ncells; bit++) {
        int m = geo->move_of[bit];
        if (f->cell[m] != MARK_EMPTY) continue;
        int x = geo->x_of[m], y = geo->y_of[m];
        int x0 = x - d < 0 ? 0 : x - d, x1 = x + d >= w ? w - 1 : x + d;
        int y0 = y - d < 0 ? 0 : y - d, y1 = y + d >= h ? h - 1 : y + d;
        int in = ps[(y1 + 1) * (w + 1) + x1 + 1] - ps[y0 * (w + 1) + x1 + 1] -
                 ps[(y1 + 1) * (w + 1) + x0] + ps[y0 * (w + 1) + x0];
        if (in == 0) continue;
        int64_t sc = ((int64_t)tier[m] << TIER_SHIFT) + potential(f, geo, g->turn, m);
        key[n++] = sc * 1024 + (1023 - bit);
    }
    /* Step 4. best first, ties in normative order */
    sort_desc(key, n);
    for (int i = 0; i < n; i++) {
        out[i] = geo->move_of[1023 - (key[i] & 1023)];
        if (scores) scores[i] = key[i] >> 10;
    }
    return n;
}
