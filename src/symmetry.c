/* symmetry.c: board symmetries and canonical keys (see symmetry.h).
 *
 * Each transform is the series' row of coefficients: new (x, y) reads old
 * (a*M + b*x + c*y, d*M + e*x + f*y) with M = width-1 for x and height-1 for
 * y. Moves are mapped by inverting that square map, never by a second
 * hand-written table. */
#include "symmetry.h"

#include <string.h>

#include "mberror.h"

/* a b c d e f for each transform (the series' board half of the table) */
static const int coef[SYM_COUNT][6] = {
    {0, 1, 0, 0, 0, 1},   /* 0 identity */
    {0, 0, 1, 1, -1, 0},  /* 1 rotate 90° clockwise: (y, M-x) */
    {1, -1, 0, 1, 0, -1}, /* 2 rotate 180°: (M-x, M-y) */
    {1, 0, -1, 0, 1, 0},  /* 3 rotate 90° counter-clockwise: (M-y, x) */
    {1, -1, 0, 0, 0, 1},  /* 4 mirror left-right: (M-x, y) */
    {0, 1, 0, 1, 0, -1},  /* 5 flip top-bottom: (x, M-y) */
    {1, 0, -1, 1, -1, 0}, /* 6 anti-diagonal: (M-y, M-x) */
    {0, 0, 1, 0, 1, 0},   /* 7 transpose: (y, x) */
};

static const char *const names[SYM_COUNT] = {"identity",
                                             "rotate 90° clockwise",
                                             "rotate 180°",
                                             "rotate 90° counter-clockwise",
                                             "mirror left-right",
                                             "flip top-bottom",
                                             "reflect in the anti-diagonal",
                                             "reflect in the main diagonal"};

bool symmetry_applies(const Geometry *g, int t)
{
    if (t < 0 || t >= SYM_COUNT) return false;
    return g->width == g->height || coef[t][2] == 0; /* no swap of x and y */
}

int symmetry_list(const Geometry *g, int ids[SYM_COUNT])
{
    int n = 0;
    for (int t = 0; t < SYM_COUNT; t++)
        if (symmetry_applies(g, t)) ids[n++] = t;
    return n;
}

const char *symmetry_name(int t) { return t >= 0 && t < SYM_COUNT ? names[t] : "?"; }

void symmetry_source(const Geometry *g, int t, int x, int y, int *sx, int *sy)
{
    const int *c = coef[t];
    *sx = c[0] * (g->width - 1) + c[1] * x + c[2] * y;
    *sy = c[3] * (g->height - 1) + c[4] * x + c[5] * y;
}

int symmetry_move(const Geometry *g, int t, int m)
{
    if (m == MOVE_NONE) return MOVE_NONE;
    int mx, my;
    geometry_move_to_xy(g, m, &mx, &my);
    /* find the new square whose source is (mx, my): S_t is a bijection */
    for (int x = 0; x < g->width; x++)
        for (int y = 0; y < g->height; y++) {
            int sx, sy;
            symmetry_source(g, t, x, y, &sx, &sy);
            if (sx == mx && sy == my) return geometry_xy_to_move(g, x, y);
        }
    return MOVE_NONE; /* not reached for a transform that applies */
}

void symmetry_key(const Game *g, int t, char *buf)
{
    const Geometry *geo = game_geom(g);
    for (int x = 0; x < geo->width; x++)
        for (int y = 0; y < geo->height; y++) {
            int sx, sy;
            symmetry_source(geo, t, x, y, &sx, &sy);
            buf[geometry_xy_to_move(geo, x, y)] =
                board_mark_char(game_get(g, geometry_xy_to_move(geo, sx, sy)));
        }
    buf[geo->ncells] = '\0';
}

int symmetry_canonical_key(const Game *g, char *buf)
{
    const Geometry *geo = game_geom(g);
    char cand[MB_MAX_CELLS + 1];
    int ids[SYM_COUNT], n = symmetry_list(geo, ids), best = 0;
    symmetry_key(g, 0, buf);
    for (int i = 1; i < n; i++) {
        symmetry_key(g, ids[i], cand);
        if (strcmp(cand, buf) < 0) {
            memcpy(buf, cand, (size_t)geo->ncells + 1);
            best = ids[i];
        }
    }
    return best;
}

int symmetry_apply(const Game *src, int t, Game *dst)
{
    const Geometry *geo = game_geom(src);
    const Geometry *dgeo = game_geom(dst);
    if (!symmetry_applies(geo, t) || dgeo->width != geo->width || dgeo->height != geo->height ||
        dgeo->k != geo->k)
        return MB_EINVAL;
    game_restart(dst);
    for (int i = 1; i <= src->move_count; i++)
        game_move(dst, symmetry_move(geo, t, src->records[i]));
    return MB_OK;
}
