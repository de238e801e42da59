/* test_symmetry.c: checks symmetry.c against game.md §10.
 *
 * - the worked example of §10 (〇(0,0), ×(1,0), move (0,1)): the 8 keys and
 *   move images exactly as game.md §10 lists them, on every back-end;
 * - symmetry_source equals game.md §10's "new (x, y) reads old" column and the
 *   series' 12-integer rows on 3x3 and 5x5, symmetry_move equals the "move
 *   maps to" column and is the inverse of symmetry_source; non-square boards
 *   keep exactly the transforms 0, 2, 4, 5 (M = width-1 for x, height-1 for y);
 * - for 2,000 random positions on each of 3x3, 4x4 k3, 4x4 k4, 5x5 k4, 4x3 and
 *   3x5, every transform t and every legal move m:
 *   key_t(p + m) == key(apply_t(p) + move_t(m)), key(apply_t(p)) == key_t(p),
 *   and apply_t keeps turn, status, last move and the set of legal moves;
 * - canonical keys are the minimum over the transforms and agree across all
 *   images of a position;
 * - the full 3x3 game tree walked with move/unmove on every back-end and
 *   counter setting: 549,946 nodes (per depth as tree.md), 5,478 distinct
 *   keys, 765 distinct canonical keys, 958 distinct finished boards (626 〇,
 *   316 ×, 16 draws), with the standard per-ply distinct counts.
 * Random positions come from the CPython-compatible Rng, so runs repeat. */
#include <stdlib.h>

#include "testutil.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* Configuration c (t_open_game, testutil.h): back-end c % 3, counters when
 * c >= 3 (T_KINDS_FIRST). */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* ------------------------------------------------------------------------
 * The worked example of §10
 * ------------------------------------------------------------------------ */

TEST(worked_example)
{
    static const char *const keys[SYM_COUNT] = {"o..x.....", "......ox.", ".....x..o", ".xo......",
                                                "...x..o..", "..o..x...", ".......xo", "ox......."};
    static const int image[SYM_COUNT][2] = {{0, 1}, {1, 0}, {2, 1}, {1, 2},
                                            {2, 1}, {0, 1}, {1, 2}, {1, 0}};
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g, d;
        if (!t_open_game(&g, 3, 3, 0, c)) continue;
        if (!t_open_game(&d, 3, 3, 0, (c + 1) % T_NCONFIGS)) {
            game_free(&g);
            continue;
        }
        const Geometry *geo = game_geom(&g);
        game_move(&g, t_xy(&g, 0, 0));
        game_move(&g, t_xy(&g, 1, 0));
        char buf[MB_MAX_CELLS + 1];
        for (int t = 0; t < SYM_COUNT; t++) {
            symmetry_key(&g, t, buf);
            CHECK_STR(buf, keys[t]);
            int m = symmetry_move(geo, t, t_xy(&g, 0, 1)), x, y;
            geometry_move_to_xy(geo, m, &x, &y);
            CHECK_INT(x, image[t][0]);
            CHECK_INT(y, image[t][1]);
            /* the image game holds the same key, move for move */
            CHECK_INT(symmetry_apply(&g, t, &d), MB_OK);
            board_key(&d.board, buf);
            CHECK_STR(buf, keys[t]);
            CHECK_INT(d.move_count, 2);
            CHECK_INT(d.turn, MARK_O);
            CHECK_INT(d.last_move, symmetry_move(geo, t, t_xy(&g, 1, 0)));
        }
        /* the smallest of the 8 keys in byte order ('.' < 'o' < 'x') is that
         * of the anti-diagonal reflection */
        CHECK_INT(symmetry_canonical_key(&g, buf), 6);
        CHECK_STR(buf, ".......xo");

        /* §10's map example: ×(0,0), 〇(1,1) is symmetric under the transpose,
         * whose image of (2,1) is (1,2) */
        game_restart(&g);
        game_move(&g, t_xy(&g, 1, 1));
        game_move(&g, t_xy(&g, 0, 0));
        char k0[16], k7[16];
        symmetry_key(&g, 0, k0);
        symmetry_key(&g, 7, k7);
        CHECK_STR(k0, "x...o....");
        CHECK_STR(k7, "x...o....");
        CHECK_INT(symmetry_move(geo, 7, t_xy(&g, 2, 1)), t_xy(&g, 1, 2));
        game_free(&g);
        game_free(&d);
    }
}

/* ------------------------------------------------------------------------
 * The table of §10 square by square
 * ------------------------------------------------------------------------ */

/* "New (x, y) reads old" column of §10, written out row by row. */
static void spec_reads(int t, int M, int x, int y, int *a, int *b)
{
    switch (t) {
    case 0:
        *a = x;
        *b = y;
        break;
    case 1:
        *a = y;
        *b = M - x;
        break;
    case 2:
        *a = M - x;
        *b = M - y;
        break;
    case 3:
        *a = M - y;
        *b = x;
        break;
    case 4:
        *a = M - x;
        *b = y;
        break;
    case 5:
        *a = x;
        *b = M - y;
        break;
    case 6:
        *a = M - y;
        *b = M - x;
        break;
    default:
        *a = y;
        *b = x;
        break;
    }
}

/* "Move (x, y) maps to" column of §10. */
static void spec_maps(int t, int M, int x, int y, int *a, int *b)
{
    switch (t) {
    case 0:
        *a = x;
        *b = y;
        break;
    case 1:
        *a = M - y;
        *b = x;
        break;
    case 2:
        *a = M - x;
        *b = M - y;
        break;
    case 3:
        *a = y;
        *b = M - x;
        break;
    case 4:
        *a = M - x;
        *b = y;
        break;
    case 5:
        *a = x;
        *b = M - y;
        break;
    case 6:
        *a = M - y;
        *b = M - x;
        break;
    default:
        *a = y;
        *b = x;
        break;
    }
}

/* The series' 12-integer rows 1..7 (board part | move part). */
static const int series_rows[SYM_COUNT][12] = {
    {0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1}, /* identity, implied */
    {0, 0, 1, 1, -1, 0, 1, 0, -1, 0, 1, 0}, {1, -1, 0, 1, 0, -1, 1, -1, 0, 1, 0, -1},
    {1, 0, -1, 0, 1, 0, 0, 0, 1, 1, -1, 0}, {1, -1, 0, 0, 0, 1, 1, -1, 0, 0, 0, 1},
    {0, 1, 0, 1, 0, -1, 0, 1, 0, 1, 0, -1}, {1, 0, -1, 1, -1, 0, 1, 0, -1, 1, -1, 0},
    {0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0},
};

/* Check every square of an N x N board against both forms of the table. */
static void check_square_table(int n)
{
    Geometry *geo = geometry_new(n, n, 0);
    CHECK(geo != NULL);
    if (!geo) return;
    int ids[SYM_COUNT], M = n - 1;
    CHECK_INT(symmetry_list(geo, ids), 8);
    for (int t = 0; t < SYM_COUNT; t++) {
        CHECK_INT(ids[t], t);
        CHECK(symmetry_applies(geo, t));
        bool hit[MB_MAX_CELLS] = {false};
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++) {
                int sx, sy, ex, ey;
                symmetry_source(geo, t, x, y, &sx, &sy);
                spec_reads(t, M, x, y, &ex, &ey);
                CHECK_INT(sx, ex);
                CHECK_INT(sy, ey);
                const int *r = series_rows[t];
                CHECK_INT(sx, r[0] * M + r[1] * x + r[2] * y);
                CHECK_INT(sy, r[3] * M + r[4] * x + r[5] * y);

                int m = geometry_xy_to_move(geo, x, y);
                int img = symmetry_move(geo, t, m), ix, iy;
                spec_maps(t, M, x, y, &ex, &ey);
                geometry_move_to_xy(geo, img, &ix, &iy);
                CHECK_INT(ix, ex);
                CHECK_INT(iy, ey);
                CHECK_INT(ix, r[6] * M + r[7] * x + r[8] * y);
                CHECK_INT(iy, r[9] * M + r[10] * x + r[11] * y);
                /* inverse: the image square reads the original square */
                symmetry_source(geo, t, ix, iy, &sx, &sy);
                CHECK_INT(sx, x);
                CHECK_INT(sy, y);
                if (img >= 0 && img < geo->ncells) {
                    CHECK(!hit[img]);
                    hit[img] = true;
                }
            }
        CHECK_INT(symmetry_move(geo, t, MOVE_NONE), MOVE_NONE);
    }
    geometry_unref(geo);
}

TEST(source_table_3x3) { check_square_table(3); }
TEST(source_table_5x5) { check_square_table(5); }

/* Non-square boards keep 0, 2, 4, 5, with M = width-1 for x and height-1
 * for y; the move map is still the inverse of the square map. */
static void check_nonsquare(int w, int h)
{
    Geometry *geo = geometry_new(w, h, 0);
    CHECK(geo != NULL);
    if (!geo) return;
    int ids[SYM_COUNT];
    CHECK_INT(symmetry_list(geo, ids), 4);
    CHECK_INT(ids[0], 0);
    CHECK_INT(ids[1], 2);
    CHECK_INT(ids[2], 4);
    CHECK_INT(ids[3], 5);
    for (int t = 0; t < SYM_COUNT; t++)
        CHECK_INT(symmetry_applies(geo, t), t == 0 || t == 2 || t == 4 || t == 5);
    CHECK(!symmetry_applies(geo, -1));
    CHECK(!symmetry_applies(geo, SYM_COUNT));
    for (int i = 0; i < 4; i++) {
        int t = ids[i];
        for (int x = 0; x < w; x++)
            for (int y = 0; y < h; y++) {
                int sx, sy;
                symmetry_source(geo, t, x, y, &sx, &sy);
                int ex = (t == 2 || t == 4) ? w - 1 - x : x;
                int ey = (t == 2 || t == 5) ? h - 1 - y : y;
                CHECK_INT(sx, ex);
                CHECK_INT(sy, ey);
                /* these four are involutions: the move lands where it reads */
                CHECK_INT(symmetry_move(geo, t, geometry_xy_to_move(geo, x, y)),
                          geometry_xy_to_move(geo, ex, ey));
            }
    }
    geometry_unref(geo);
}

TEST(nonsquare_transforms)
{
    check_nonsquare(4, 3);
    check_nonsquare(3, 5);
    check_nonsquare(2, 7);
    Geometry *geo = geometry_new(4, 4, 3);
    int ids[SYM_COUNT];
    CHECK_INT(symmetry_list(geo, ids), 8); /* k does not matter, only the shape */
    geometry_unref(geo);
    CHECK_STR(symmetry_name(1), "rotate 90° clockwise");
}

/* ------------------------------------------------------------------------
 * Random positions: positions and moves transform together
 * ------------------------------------------------------------------------ */

static const struct Shape {
    int w, h, k;
} shapes[] = {{3, 3, 3}, {4, 4, 3}, {4, 4, 4}, {5, 5, 4}, {4, 3, 0}, {3, 5, 0}};
#define NSHAPES   (int)(sizeof shapes / sizeof shapes[0])
#define POSITIONS 2000

/* One position p: for every transform and every legal move, the image of
 * (p + m) is the image of p plus the image of m. */
static long check_commute(Game *p, Game *d)
{
    const Geometry *geo = game_geom(p);
    int ids[SYM_COUNT], nt = symmetry_list(geo, ids);
    int moves[MB_MAX_CELLS], dmoves[MB_MAX_CELLS], images[MB_MAX_CELLS];
    int n = game_legal_moves(p, moves);
    char kp[MB_MAX_CELLS + 1], kd[MB_MAX_CELLS + 1];
    long checked = 0;
    for (int i = 0; i < nt; i++) {
        int t = ids[i];
        symmetry_key(p, t, kp);
        CHECK_INT(symmetry_apply(p, t, d), MB_OK);
        board_key(&d->board, kd);
        CHECK_STR(kd, kp);
        CHECK_INT(d->move_count, p->move_count);
        CHECK_INT(d->turn, p->turn);
        CHECK_INT(d->last_turn, p->last_turn);
        CHECK_INT(d->status, p->status);
        CHECK_INT(d->last_move, symmetry_move(geo, t, p->last_move));
        /* the legal moves of the image are the images of the legal moves */
        int dn = game_legal_moves(d, dmoves);
        CHECK_INT(dn, n);
        if (dn != n) continue;
        for (int j = 0; j < n; j++) images[j] = symmetry_move(geo, t, moves[j]);
        qsort(images, (size_t)n, sizeof *images, cmp_int);
        qsort(dmoves, (size_t)n, sizeof *dmoves, cmp_int);
        CHECK(memcmp(images, dmoves, (size_t)n * sizeof *images) == 0);

        for (int j = 0; j < n; j++) {
            int m = moves[j], tm = symmetry_move(geo, t, m);
            game_move(p, m);
            symmetry_key(p, t, kp);
            Status st = p->status;
            game_unmove(p);
            CHECK(tm >= 0 && tm < geo->ncells);
            if (tm < 0 || tm >= geo->ncells) continue;
            CHECK_INT(game_get(d, tm), MARK_EMPTY);
            game_move(d, tm);
            board_key(&d->board, kd);
            CHECK_STR(kd, kp);
            CHECK_INT(d->status, st);
            game_unmove(d);
            checked++;
        }
    }
    return checked;
}

TEST(random_commute)
{
    Rng r;
    rng_seed(&r, 10);
    for (int s = 0; s < NSHAPES; s++) {
        Game games[T_NCONFIGS];
        if (!t_open_games(games, shapes[s].w, shapes[s].h, shapes[s].k)) return;
        long pairs = 0;
        int nonempty_moves = 0;
        for (int i = 0; i < POSITIONS; i++) {
            /* the position on one configuration, its images on another */
            Game *p = &games[i % T_NCONFIGS], *d = &games[(i + 1 + i / T_NCONFIGS) % T_NCONFIGS];
            if (d == p) d = &games[(i + 1) % T_NCONFIGS];
            t_random_position(p, &r);
            long n = check_commute(p, d);
            pairs += n;
            nonempty_moves += n > 0;
        }
        /* most random positions still have legal moves to test */
        CHECK(pairs > POSITIONS);
        CHECK(nonempty_moves > POSITIONS / 2);
        t_free_games(games);
    }
}

/* ------------------------------------------------------------------------
 * Canonical keys
 * ------------------------------------------------------------------------ */

TEST(canonical_agree)
{
    Rng r;
    rng_seed(&r, 765);
    for (int s = 0; s < NSHAPES; s++) {
        Game p, d;
        if (!t_open_game(&p, shapes[s].w, shapes[s].h, shapes[s].k, s % T_NCONFIGS)) return;
        if (!t_open_game(&d, shapes[s].w, shapes[s].h, shapes[s].k, (s + 4) % T_NCONFIGS)) return;
        const Geometry *geo = game_geom(&p);
        int ids[SYM_COUNT], nt = symmetry_list(geo, ids);
        int symmetric = 0;
        for (int i = 0; i < POSITIONS; i++) {
            t_random_position(&p, &r);
            char canon[MB_MAX_CELLS + 1], key[MB_MAX_CELLS + 1], best[MB_MAX_CELLS + 1];
            int bt = symmetry_canonical_key(&p, canon);
            /* the minimum over the transforms, first in table order */
            int first = -1;
            for (int j = 0; j < nt; j++) {
                symmetry_key(&p, ids[j], key);
                if (first < 0 || strcmp(key, best) < 0) {
                    strcpy(best, key);
                    first = ids[j];
                }
            }
            CHECK_STR(canon, best);
            CHECK_INT(bt, first);
            symmetry_key(&p, bt, key);
            CHECK_STR(key, canon);
            /* every image has the same canonical key */
            int same = 0;
            for (int j = 0; j < nt; j++) {
                CHECK_INT(symmetry_apply(&p, ids[j], &d), MB_OK);
                symmetry_canonical_key(&d, key);
                CHECK_STR(key, canon);
                board_key(&d.board, key);
                same += strcmp(key, canon) == 0;
            }
            CHECK(same >= 1);
            symmetric += same > 1;
        }
        /* the empty board alone is symmetric; random play reaches it often */
        CHECK(symmetric > 0);
        game_free(&p);
        game_free(&d);
    }
}

/* ------------------------------------------------------------------------
 * The full 3x3 game tree
 * ------------------------------------------------------------------------ */

#define KEYSPACE 19683 /* 3^9 */

typedef struct TreeWalk {
    long nodes[10];
    unsigned char seen[KEYSPACE];  /* board key seen */
    unsigned char cseen[KEYSPACE]; /* canonical key seen */
    int distinct[10], canonical[10], finished[10];
    int status_count[4];
    int bad_keys;
} TreeWalk;

/* A 3x3 key as a base-3 number ('.' 0, 'o' 1, 'x' 2); -1 if malformed. */
static int key_index(const char *key)
{
    int v = 0;
    for (int i = 0; i < 9; i++) {
        const char *p = strchr(".ox", key[i]);
        if (!key[i] || !p) return -1;
        v = v * 3 + (int)(p - ".ox");
    }
    return key[9] == '\0' ? v : -1;
}

static void walk(Game *g, TreeWalk *w)
{
    char key[16];
    int depth = g->move_count;
    w->nodes[depth]++;
    board_key(&g->board, key);
    int v = key_index(key);
    if (v < 0) {
        w->bad_keys++;
        return;
    }
    if (!w->seen[v]) {
        w->seen[v] = 1;
        w->distinct[depth]++;
        if (g->status != STATUS_PLAYING) {
            w->finished[depth]++;
            w->status_count[g->status]++;
        }
        char canon[16];
        symmetry_canonical_key(g, canon);
        int cv = key_index(canon);
        if (cv < 0) {
            w->bad_keys++;
        } else if (!w->cseen[cv]) {
            w->cseen[cv] = 1;
            w->canonical[depth]++;
        }
    }
    int moves[9];
    int n = game_legal_moves(g, moves);
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        walk(g, w);
        game_unmove(g);
    }
}

TEST(tree_3x3)
{
    static const long nodes[10] = {1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
    static const int distinct[10] = {1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78};
    static const int canonical[10] = {1, 3, 12, 38, 108, 174, 204, 153, 57, 15};
    static const int finished[10] = {0, 0, 0, 0, 0, 120, 148, 444, 168, 78};
    TreeWalk *w = malloc(sizeof *w);
    CHECK(w != NULL);
    if (!w) return;
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 0, c)) break;
        memset(w, 0, sizeof *w);
        walk(&g, w);
        CHECK_INT(g.move_count, 0);
        long total = 0;
        int nd = 0, nc = 0, nf = 0;
        for (int d = 0; d < 10; d++) {
            CHECK_INT(w->nodes[d], nodes[d]);
            CHECK_INT(w->distinct[d], distinct[d]);
            CHECK_INT(w->canonical[d], canonical[d]);
            CHECK_INT(w->finished[d], finished[d]);
            total += w->nodes[d];
            nd += w->distinct[d];
            nc += w->canonical[d];
            nf += w->finished[d];
        }
        CHECK_INT(total, 549946);
        CHECK_INT(nd, 5478);
        CHECK_INT(nc, 765);
        CHECK_INT(nf, 958);
        CHECK_INT(w->status_count[STATUS_O], 626);
        CHECK_INT(w->status_count[STATUS_X], 316);
        CHECK_INT(w->status_count[STATUS_DRAW], 16);
        CHECK_INT(w->bad_keys, 0);
        game_free(&g);
    }
    free(w);
}

const TestCase symmetry_tests[] = {
    {"worked_example", worked_example},
    {"source_table_3x3", source_table_3x3},
    {"source_table_5x5", source_table_5x5},
    {"nonsquare_transforms", nonsquare_transforms},
    {"random_commute", random_commute},
    {"canonical_agree", canonical_agree},
    {"tree_3x3", tree_3x3},
    {0},
};
