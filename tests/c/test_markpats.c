/* test_markpats.c: checks mark patterns (markpats.c) and the line windows
 * they count (geometry.c) against game.md §6, §7, §9 and §11.
 *
 * - the worked example of §7.3 on every back-end x count_linemark: the exact
 *   histogram (every other entry 0), its transpose for the other orientation,
 *   the per-line patterns and slices, and markpats_format's exact text;
 * - line enumeration: the 8 lines of 3x3 in the canonical order of §7.2 (the
 *   line data of §11 algorithm 2), the lines through each square, the 5x5
 *   anti-diagonal (4,0) .. (0,4), hand-computed line counts for many
 *   (w, h, k) including k = 1 and k longer than a side, and a structural check
 *   of every window list;
 * - counter mode == scan mode == an independent recount in the test, in both
 *   orientations and on every back-end, over more than 100,000 positions of
 *   3x3, 4x4 k3, 5x5 k4, 6x5 k4, 7x7 k5, 9x9 k5, 15x15 k5 and 3x2 k2 reached
 *   by random legal play and by taking moves back; every histogram sums to
 *   the number of lines;
 * - at move 0 (last_turn none) every line is (0, 0, k). */
#include <stdlib.h>

#include "testutil.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

#define HIST_MAX ((MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1))

/* Configuration c (t_open_game, testutil.h): back-end c % 3, counters when
 * c >= 3 (T_KINDS_FIRST). */

/* The (o count, x count) histogram recounted from the marks, with line
 * windows enumerated here from (w, h, k) rather than taken from Geometry. */
static void recount(const Game *g, int32_t *ox)
{
    const Geometry *geo = game_geom(g);
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    int k = geo->k, k1 = k + 1, ndirs = k == 1 ? 1 : 4;
    memset(ox, 0, (size_t)k1 * (size_t)k1 * sizeof *ox);
    for (int d = 0; d < ndirs; d++)
        for (int x0 = 0; x0 < geo->width; x0++)
            for (int y0 = 0; y0 < geo->height; y0++) {
                int xe = x0 + (k - 1) * dirs[d][0], ye = y0 + (k - 1) * dirs[d][1];
                if (!geometry_on_board(geo, xe, ye)) continue;
                int c[3] = {0, 0, 0};
                for (int j = 0; j < k; j++)
                    c[game_get(
                        g, geometry_xy_to_move(geo, x0 + j * dirs[d][0], y0 + j * dirs[d][1]))]++;
                ox[c[MARK_O] * k1 + c[MARK_X]]++;
            }
}

/* The (last, turn) view of an (o, x) histogram. */
static void orient(int k, const int32_t *ox, Mark last, int32_t *out)
{
    int k1 = k + 1;
    for (int o = 0; o < k1; o++)
        for (int x = 0; x < k1; x++) out[last == MARK_O ? o * k1 + x : x * k1 + o] = ox[o * k1 + x];
}

static bool same_hist(const int32_t *a, const int32_t *b, int n)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/* ------------------------------------------------------------------------
 * The worked example of §7.3
 * ------------------------------------------------------------------------ */

TEST(worked_example)
{
    static const int moves[7][2] = {{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 2}, {1, 1}, {0, 2}};
    /* lines in canonical order: rows 0..2, columns 0..2, main, anti */
    static const int pattern[8][3] = {{1, 2, 0}, {1, 1, 1}, {2, 0, 1}, {3, 0, 0},
                                      {1, 2, 0}, {0, 1, 2}, {1, 1, 1}, {1, 2, 0}};
    static const char text[] = "(0, 1, 2): 1\n"
                               "(1, 1, 1): 2\n"
                               "(1, 2, 0): 3\n"
                               "(2, 0, 1): 1\n"
                               "(3, 0, 0): 1\n";
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 0, c)) continue;
        const Geometry *geo = game_geom(&g);
        for (int i = 0; i < 7; i++) game_move(&g, t_xy(&g, moves[i][0], moves[i][1]));
        CHECK_INT(g.status, STATUS_O);
        CHECK_INT(g.last_turn, MARK_O);
        CHECK_INT(g.turn, MARK_X);
        char key[16];
        board_key(&g.board, key);
        CHECK_STR(key, "oooxxox..");

        /* the histogram keyed (〇, ×, empty): (0,1,2) 1, (1,1,1) 2, (1,2,0) 3,
         * (2,0,1) 1, (3,0,0) 1, all else 0 */
        int32_t want[16] = {0}, hist[16], scan[16];
        want[0 * 4 + 1] = 1;
        want[1 * 4 + 1] = 2;
        want[1 * 4 + 2] = 3;
        want[2 * 4 + 0] = 1;
        want[3 * 4 + 0] = 1;
        CHECK_INT(markpats_size(geo), 16);
        markpats_of_game(&g, hist);
        markpats_count_scan(&g.board, g.turn, g.last_turn, scan);
        for (int i = 0; i < 16; i++) {
            CHECK_INT(hist[i], want[i]);
            CHECK_INT(scan[i], want[i]);
        }
        char buf[256];
        CHECK_INT(markpats_format(geo, hist, buf, sizeof buf), (int)strlen(text));
        CHECK_STR(buf, text);
        CHECK_INT(markpats_format(geo, hist, buf, 10), -1); /* does not fit */

        /* the other orientation (× moved last) is the transpose */
        markpats_count(&g.board, MARK_O, MARK_X, hist);
        markpats_count_scan(&g.board, MARK_O, MARK_X, scan);
        for (int l = 0; l < 4; l++)
            for (int t = 0; t < 4; t++) {
                CHECK_INT(hist[l * 4 + t], want[t * 4 + l]);
                CHECK_INT(scan[l * 4 + t], want[t * 4 + l]);
            }
        CHECK_INT(markpats_format(geo, hist, buf, sizeof buf), (int)strlen(text));
        CHECK_STR(buf, "(0, 2, 1): 1\n"
                       "(0, 3, 0): 1\n"
                       "(1, 0, 2): 1\n"
                       "(1, 1, 1): 2\n"
                       "(2, 1, 0): 3\n");

        /* each line's own pattern, read through line_cells */
        CHECK_INT(geo->nlines, 8);
        for (int i = 0; i < 8 && i < geo->nlines; i++) {
            int n[3] = {0, 0, 0};
            for (int j = 0; j < 3; j++) n[game_get(&g, geo->line_cells[i * 3 + j])]++;
            CHECK_INT(n[MARK_O], pattern[i][0]);
            CHECK_INT(n[MARK_X], pattern[i][1]);
            CHECK_INT(n[MARK_EMPTY], pattern[i][2]);
        }
        /* the slices of §7.3: column 0 〇 1 1 1; row 0 〇 1 0 0 / × 0 1 1;
         * main 〇 1 0 0 / × 0 1 0; the anti-diagonal, listed (2,0) (1,1)
         * (0,2), is 〇 0 0 1 / × 1 1 0 (game.md §7.3 reads it backwards) */
        static const struct {
            int line;
            const char *marks;
        } slices[] = {{3, "ooo"}, {0, "oxx"}, {6, "ox."}, {7, "xxo"}};
        for (int i = 0; i < 4; i++) {
            char s[4] = "";
            for (int j = 0; j < 3; j++)
                s[j] = board_mark_char(game_get(&g, geo->line_cells[slices[i].line * 3 + j]));
            CHECK_STR(s, slices[i].marks);
        }
        game_free(&g);
    }
}

/* ------------------------------------------------------------------------
 * Line enumeration
 * ------------------------------------------------------------------------ */

TEST(lines_3x3)
{
    /* §11 algorithm 2's data: x1 y1 x2 y2 x3 y3 in canonical order */
    static const int data[8][6] = {{0, 0, 1, 0, 2, 0}, {0, 1, 1, 1, 2, 1}, {0, 2, 1, 2, 2, 2},
                                   {0, 0, 0, 1, 0, 2}, {1, 0, 1, 1, 1, 2}, {2, 0, 2, 1, 2, 2},
                                   {0, 0, 1, 1, 2, 2}, {2, 0, 1, 1, 0, 2}};
    static const int step[8][3] = {{1, 0, DIR_ROW},    {1, 0, DIR_ROW},    {1, 0, DIR_ROW},
                                   {0, 1, DIR_COLUMN}, {0, 1, DIR_COLUMN}, {0, 1, DIR_COLUMN},
                                   {1, 1, DIR_DIAG},   {-1, 1, DIR_ANTI}};
    Geometry *g = geometry_new(3, 3, 0);
    CHECK(g != NULL);
    if (!g) return;
    CHECK_INT(g->k, 3);
    CHECK_INT(g->ncells, 9);
    CHECK_INT(g->nlines, 8);
    for (int i = 0; i < 8 && i < g->nlines; i++) {
        const Line *l = &g->lines[i];
        CHECK_INT(l->x, data[i][0]);
        CHECK_INT(l->y, data[i][1]);
        CHECK_INT(l->dx, step[i][0]);
        CHECK_INT(l->dy, step[i][1]);
        CHECK_INT(l->dir, step[i][2]);
        for (int j = 0; j < 3; j++)
            CHECK_INT(g->line_cells[i * 3 + j], data[i][2 * j + 1] + 3 * data[i][2 * j]);
    }
    /* lines through each square, by move y + 3x, in canonical order */
    static const int thru[9][5] = {{3, 0, 3, 6}, {2, 1, 3},       {3, 2, 3, 7},
                                   {2, 0, 4},    {4, 1, 4, 6, 7}, {2, 2, 4},
                                   {3, 0, 5, 7}, {2, 1, 5},       {3, 2, 5, 6}};
    for (int m = 0; m < 9; m++) {
        int n = g->thru_start[m + 1] - g->thru_start[m];
        CHECK_INT(n, thru[m][0]);
        for (int i = 0; i < n && i < thru[m][0]; i++)
            CHECK_INT(g->thru[g->thru_start[m] + i], thru[m][1 + i]);
    }
    geometry_unref(g);
}

TEST(lines_5x5_anti)
{
    Geometry *g = geometry_new(5, 5, 0);
    CHECK(g != NULL);
    if (!g) return;
    CHECK_INT(g->k, 5);
    CHECK_INT(g->nlines, 12); /* 2N + 2 */
    static const int anti[5][2] = {{4, 0}, {3, 1}, {2, 2}, {1, 3}, {0, 4}};
    const int16_t *cells = &g->line_cells[11 * 5];
    for (int j = 0; j < 5; j++) {
        int x, y;
        geometry_move_to_xy(g, cells[j], &x, &y);
        CHECK_INT(x, anti[j][0]);
        CHECK_INT(y, anti[j][1]);
    }
    CHECK_INT(g->lines[11].dir, DIR_ANTI);
    CHECK_INT(g->lines[10].dir, DIR_DIAG);
    for (int j = 0; j < 5; j++) CHECK_INT(g->line_cells[10 * 5 + j], j + 5 * j);
    /* row 2 is line 2 and reads (0,2) .. (4,2); column 3 is line 8 */
    for (int j = 0; j < 5; j++) {
        CHECK_INT(g->line_cells[2 * 5 + j], 2 + 5 * j);
        CHECK_INT(g->line_cells[8 * 5 + j], j + 5 * 3);
    }
    geometry_unref(g);
}

/* Every window of a shape: on the board, one square apart by its step, a
 * step of its direction, in canonical order (direction; rows and diagonals by
 * first square y then x, columns x then y), and thru[] lists exactly the
 * lines through each square in increasing order. */
static void check_structure(const Geometry *g)
{
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    int k = g->k;
    int *through = calloc((size_t)g->ncells, sizeof *through);
    CHECK(through != NULL);
    if (!through) return;
    for (int i = 0; i < g->nlines; i++) {
        const Line *l = &g->lines[i];
        CHECK(l->dir < 4);
        if (l->dir >= 4) continue;
        CHECK_INT(l->dx, dirs[l->dir][0]);
        CHECK_INT(l->dy, dirs[l->dir][1]);
        if (k == 1) CHECK_INT(l->dir, DIR_ROW);
        for (int j = 0; j < k; j++) {
            int x = l->x + j * l->dx, y = l->y + j * l->dy;
            CHECK(geometry_on_board(g, x, y));
            CHECK_INT(g->line_cells[i * k + j], geometry_xy_to_move(g, x, y));
        }
        if (i > 0) {
            const Line *p = &g->lines[i - 1];
            long a = l->dir == DIR_COLUMN ? l->x * 64 + l->y : l->y * 64 + l->x;
            long b = p->dir == DIR_COLUMN ? p->x * 64 + p->y : p->y * 64 + p->x;
            CHECK(p->dir < l->dir || (p->dir == l->dir && b < a));
        }
    }
    for (int m = 0; m < g->ncells; m++) {
        int prev = -1;
        for (int t = g->thru_start[m]; t < g->thru_start[m + 1]; t++) {
            int i = g->thru[t], hit = 0;
            CHECK(i > prev);
            prev = i;
            for (int j = 0; j < k; j++) hit += g->line_cells[i * k + j] == m;
            CHECK_INT(hit, 1);
            through[m]++;
        }
    }
    /* each window puts k squares into thru[] */
    long total = 0;
    for (int m = 0; m < g->ncells; m++) total += through[m];
    CHECK_INT(total, (long)g->nlines * k);
    CHECK_INT(g->thru_start[g->ncells], (long)g->nlines * k);
    free(through);
}

TEST(line_counts)
{
    /* rows h(w-k+1) + columns w(h-k+1) + 2 diagonals (w-k+1)(h-k+1) each;
     * k = 1: one line per square; 0 = default k = min(w, h) */
    static const int table[][4] = {
        {3, 3, 3, 8},      {3, 3, 0, 8},   {4, 4, 4, 10}, {5, 5, 5, 12},  {4, 4, 3, 24},
        {5, 5, 4, 28},     {6, 5, 4, 39},  {7, 7, 5, 60}, {9, 9, 5, 140}, {15, 15, 5, 572},
        {3, 2, 2, 11},     {3, 3, 2, 20},  {5, 3, 0, 20}, {3, 3, 1, 9},   {4, 3, 1, 12},
        {1, 1, 1, 1},      {4, 3, 4, 3},   {3, 4, 4, 3},  {1, 5, 3, 3},   {32, 32, 5, 3360},
        {19, 19, 5, 1020}, {32, 1, 32, 1}, {6, 7, 0, 23},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        Geometry *g = geometry_new(table[i][0], table[i][1], table[i][2]);
        CHECK(g != NULL);
        if (!g) continue;
        if (g->nlines != table[i][3])
            t_fail(__FILE__, __LINE__, "%dx%d k%d: %d lines, expected %d", table[i][0], table[i][1],
                   table[i][2], g->nlines, table[i][3]);
        check_structure(g);
        geometry_unref(g);
    }
}

/* ------------------------------------------------------------------------
 * Counter mode == scan mode == recount
 * ------------------------------------------------------------------------ */

/* Compare every way of counting on games[] (all in the same position). */
static void check_all(Game *games, int32_t *ref_ox, long *checked)
{
    const Geometry *geo = game_geom(&games[0]);
    int k = geo->k, n = markpats_size(geo);
    int32_t want[HIST_MAX], got[HIST_MAX];
    recount(&games[0], ref_ox);
    for (int c = 0; c < T_NCONFIGS; c++) {
        const Board *b = &games[c].board;
        Mark turn = games[c].turn, last = games[c].last_turn;
        Mark view[2][2] = {{turn, last}, {mark_other(turn), turn}}; /* (turn, last) */
        for (int v = 0; v < 2; v++) {
            Mark t = view[v][0], l = view[v][1];
            orient(k, ref_ox, l == MARK_EMPTY ? mark_other(t) : l, want);
            markpats_count(b, t, l, got);
            if (!same_hist(got, want, n))
                t_fail(__FILE__, __LINE__, "%dx%d k%d config %d view %d: markpats_count differs",
                       geo->width, geo->height, k, c, v);
            markpats_count_scan(b, t, l, got);
            if (!same_hist(got, want, n))
                t_fail(__FILE__, __LINE__, "%dx%d k%d config %d view %d: scan differs", geo->width,
                       geo->height, k, c, v);
            /* last_turn none reads as the side not to move */
            if (v) continue;
            markpats_count(b, t, MARK_EMPTY, got);
            orient(k, ref_ox, mark_other(t), want);
            if (!same_hist(got, want, n))
                t_fail(__FILE__, __LINE__, "%dx%d k%d config %d: last_turn none differs",
                       geo->width, geo->height, k, c);
        }
        markpats_of_game(&games[c], got);
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += got[i];
            if (got[i] && i / (k + 1) + i % (k + 1) > k)
                t_fail(__FILE__, __LINE__, "impossible pattern %d has %d lines", i, got[i]);
        }
        CHECK_INT(sum, geo->nlines);
    }
    (*checked)++;
}

/* All configurations play m; their legal moves must agree before. */
static void play_all(Game *games, int m)
{
    for (int c = 0; c < T_NCONFIGS; c++) game_move(&games[c], m);
}

static void unmove_all(Game *games)
{
    for (int c = 0; c < T_NCONFIGS; c++) game_unmove(&games[c]);
}

TEST(counters_vs_scan)
{
    static const struct {
        int w, h, k;
        long positions;
    } shapes[] = {
        {3, 3, 3, 20000}, {4, 4, 3, 18000}, {5, 5, 4, 16000},  {6, 5, 4, 14000},
        {7, 7, 5, 10000}, {9, 9, 5, 6000},  {15, 15, 5, 3000}, {3, 2, 2, 16000},
    };
    Rng r;
    rng_seed(&r, 206);
    long total = 0;
    int32_t *ox = malloc(HIST_MAX * sizeof *ox);
    CHECK(ox != NULL);
    if (!ox) return;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        Game games[T_NCONFIGS];
        if (!t_open_games(games, shapes[s].w, shapes[s].h, shapes[s].k)) break;
        long checked = 0;
        int moves[MB_MAX_CELLS], other[MB_MAX_CELLS];
        while (checked < shapes[s].positions) {
            /* a random game from the start to a random ply, checked at each
             * ply, then taken back to a random ply, checked at each step */
            for (int c = 0; c < T_NCONFIGS; c++) game_restart(&games[c]);
            int stop = (int)rng_randbelow(&r, (uint64_t)game_geom(&games[0])->ncells + 1);
            check_all(games, ox, &checked);
            while (games[0].move_count < stop) {
                int n = game_legal_moves(&games[0], moves);
                if (n == 0) break;
                for (int c = 1; c < T_NCONFIGS; c++) {
                    CHECK_INT(game_legal_moves(&games[c], other), n);
                    CHECK(memcmp(moves, other, (size_t)n * sizeof *moves) == 0);
                }
                play_all(games, moves[rng_randbelow(&r, (uint64_t)n)]);
                check_all(games, ox, &checked);
            }
            int back = (int)rng_randbelow(&r, (uint64_t)games[0].move_count + 1);
            for (int i = 0; i < back; i++) {
                unmove_all(games);
                check_all(games, ox, &checked);
            }
        }
        total += checked;
        t_free_games(games);
    }
    free(ox);
    CHECK(total >= 100000);
}

/* ------------------------------------------------------------------------
 * Move 0
 * ------------------------------------------------------------------------ */

TEST(move_zero)
{
    static const int shapes[][3] = {{3, 3, 3},   {4, 4, 3}, {5, 5, 4}, {6, 5, 4},
                                    {15, 15, 5}, {3, 2, 2}, {4, 3, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int c = 0; c < T_NCONFIGS; c++) {
            Game g;
            if (!t_open_game(&g, shapes[s][0], shapes[s][1], shapes[s][2], c)) continue;
            const Geometry *geo = game_geom(&g);
            int n = markpats_size(geo);
            CHECK_INT(n, (geo->k + 1) * (geo->k + 1));
            int32_t hist[HIST_MAX];
            for (int round = 0; round < 2; round++) {
                CHECK_INT(g.last_turn, MARK_EMPTY);
                markpats_of_game(&g, hist);
                CHECK_INT(hist[0], geo->nlines); /* (0, 0, k) */
                for (int i = 1; i < n; i++) CHECK_INT(hist[i], 0);
                for (Mark t = MARK_O; t <= MARK_X; t++) {
                    markpats_count(&g.board, t, MARK_EMPTY, hist);
                    CHECK_INT(hist[0], geo->nlines);
                    markpats_count_scan(&g.board, t, MARK_EMPTY, hist);
                    CHECK_INT(hist[0], geo->nlines);
                    for (int i = 1; i < n; i++) CHECK_INT(hist[i], 0);
                }
                /* and again after a move and its take-back */
                game_move(&g, 0);
                game_unmove(&g);
            }
            if (s == 0) {
                char buf[64];
                markpats_of_game(&g, hist);
                CHECK_INT(markpats_format(geo, hist, buf, sizeof buf), 13);
                CHECK_STR(buf, "(0, 0, 3): 8\n");
            }
            game_free(&g);
        }
}

const TestCase markpats_tests[] = {
    {"worked_example", worked_example},
    {"lines_3x3", lines_3x3},
    {"lines_5x5_anti", lines_5x5_anti},
    {"line_counts", line_counts},
    {"counters_vs_scan", counters_vs_scan},
    {"move_zero", move_zero},
    {0},
};
