/* test_wincheck.c: checks the six full-scan win checks of part 34
 * (wincheck.c) against game.md §11 and §12.
 *
 * - the 28 test_judge cases of §12, replayed from their Excel move lists on
 *   every back-end x count_linemark: all six algorithms give the expected
 *   result and the right is_winner for both sides, and the final position
 *   (rows, side to move, last move) is the published one;
 * - algorithms 0..3 refuse (MB_EALGO, false / playing) on any board but 3x3
 *   with k = 3, even when a side holds a line; 4 and 5 apply everywhere;
 * - algorithms 4 and 5 (and 0..3 on 3x3) agree exactly with game_judge and
 *   with a recount in the test on 21,500 positions reached by random legal
 *   play on 3x3, 4x4 k4, 5x5 k4, 6x5 k4, 7x7 k5 and 15x15 k5;
 * - hand-made positions on 15x15 k5 and 7x7 k5: rows, columns, both
 *   diagonals, edges and corners, runs of 4 and broken runs (no win), runs
 *   of 6 and 7 (win), runs that wrap around in move or bit order (no win),
 *   both sides holding a line (〇 first), and full boards without a line
 *   (draw); the last-move check board_is_winner agrees square by square. */
#include <stdlib.h>

#include "testutil.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* Configuration c (t_open_game, t_config; testutil.h): back-end c % 3,
 * counters when c >= 3 (T_KINDS_FIRST). */

/* Does `p` hold k in a row anywhere? Windows enumerated here, not taken
 * from Geometry. */
static bool ref_winner(const Board *b, Mark p)
{
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    const Geometry *g = b->geom;
    for (int d = 0; d < 4; d++)
        for (int x = 0; x < g->width; x++)
            for (int y = 0; y < g->height; y++) {
                int j = 0;
                while (j < g->k && geometry_on_board(g, x + j * dirs[d][0], y + j * dirs[d][1]) &&
                       board_get(
                           b, geometry_xy_to_move(g, x + j * dirs[d][0], y + j * dirs[d][1])) == p)
                    j++;
                if (j == g->k) return true;
            }
    return false;
}

/* Part 34's judge order, from the reference: 〇, ×, draw, playing. */
static Status ref_judge(const Board *b)
{
    if (ref_winner(b, MARK_O)) return STATUS_O;
    if (ref_winner(b, MARK_X)) return STATUS_X;
    for (int m = 0; m < b->geom->ncells; m++)
        if (board_get(b, m) == MARK_EMPTY) return STATUS_PLAYING;
    return STATUS_DRAW;
}

static Status status_of(const char *name)
{
    if (strcmp(name, "o") == 0) return STATUS_O;
    if (strcmp(name, "x") == 0) return STATUS_X;
    if (strcmp(name, "draw") == 0) return STATUS_DRAW;
    return STATUS_PLAYING;
}

/* ------------------------------------------------------------------------
 * The 28 cases of §12
 * ------------------------------------------------------------------------ */

static const struct JudgeCase {
    const char *winner;
    const char *moves;
    const char *rows;   /* final position, rows y = 0..2 separated by '/' */
    char next;          /* side to move */
    int last_x, last_y; /* last move; (-1, -1) for none */
} cases[] = {
    {"playing", "", ".../.../...", 'o', -1, -1},
    {"playing", "C3,A2,B1,B2,C2,C1,A3,B3", ".ox/xxo/oxo", 'o', 1, 2},
    {"playing", "A1,A2,C3,B2,C2,C1,A3,B3", "o.x/xxo/oxo", 'o', 1, 2},
    {"playing", "A1,A2,B1,B2,C2,C3,A3,B3", "oo./xxo/oxx", 'o', 1, 2},
    {"playing", "A1,C3,B1,B2,C2,C1,A3,B3", "oox/.xo/oxx", 'o', 1, 2},
    {"playing", "A1,A2,B1,C3,C2,C1,A3,B3", "oox/x.o/oxx", 'o', 1, 2},
    {"playing", "A1,A2,B1,B2,C3,C1,A3,B3", "oox/xx./oxo", 'o', 1, 2},
    {"playing", "A1,A2,B1,B2,C2,C1,C3,B3", "oox/xxo/.xo", 'o', 1, 2},
    {"playing", "A1,A2,B1,B2,A3,C1,C2,C3", "oox/xxo/o.x", 'o', 2, 2},
    {"playing", "A1,A2,B1,B2,C2,C1,A3,B3", "oox/xxo/ox.", 'o', 1, 2},
    {"o", "A1,A2,B1,B2,C1", "ooo/xx./...", 'x', 2, 0},
    {"o", "A2,A1,B2,B1,C2", "xx./ooo/...", 'x', 2, 1},
    {"o", "A3,A1,B3,B1,C3", "xx./.../ooo", 'x', 2, 2},
    {"o", "A1,B1,A2,B2,A3", "ox./ox./o..", 'x', 0, 2},
    {"o", "B1,A1,B2,A2,B3", "xo./xo./.o.", 'x', 1, 2},
    {"o", "C1,A1,C2,A2,C3", "x.o/x.o/..o", 'x', 2, 2},
    {"o", "A1,A2,B2,A3,C3", "o../xo./x.o", 'x', 2, 2},
    {"o", "A3,A1,B2,A2,C1", "x.o/xo./o..", 'x', 2, 0},
    {"o", "A1,B1,A2,B2,B3,C1,C3,C2,A3", "oxx/oxx/ooo", 'x', 0, 2},
    {"x", "A2,A1,B2,B1,A3,C1", "xxx/oo./o..", 'o', 2, 0},
    {"x", "A1,A2,B1,B2,A3,C2", "oo./xxx/o..", 'o', 2, 1},
    {"x", "A1,A3,B1,B3,A2,C3", "oo./o../xxx", 'o', 2, 2},
    {"x", "B1,A1,B2,A2,C1,A3", "xoo/xo./x..", 'o', 0, 2},
    {"x", "A1,B1,A2,B2,C1,B3", "oxo/ox./.x.", 'o', 1, 2},
    {"x", "A1,C1,A2,C2,B1,C3", "oox/o.x/..x", 'o', 2, 2},
    {"x", "A2,A1,A3,B2,B1,C3", "xo./ox./o.x", 'o', 2, 2},
    {"x", "A1,C1,B1,B2,A2,A3", "oox/ox./x..", 'o', 0, 2},
    {"draw", "A1,A2,B1,B2,C2,C1,A3,B3,C3", "oox/xxo/oxo", 'x', 2, 2},
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

TEST(judge_cases)
{
    CHECK_INT(NCASES, 28);
    for (int c = 0; c < T_NCONFIGS; c++) {
        int groups[4] = {0, 0, 0, 0};
        for (int i = 0; i < NCASES; i++) {
            Game g;
            if (!t_open_game(&g, 3, 3, 0, c)) return;
            const Geometry *geo = game_geom(&g);
            int moves[MB_MAX_CELLS], n = t_parse_list(&g, cases[i].moves, moves);
            for (int j = 0; j < n; j++) {
                CHECK_INT(game_get(&g, moves[j]), MARK_EMPTY); /* no case replays a square */
                CHECK_INT(g.status, STATUS_PLAYING);           /* nor plays on after a win */
                game_move(&g, moves[j]);
            }
            Status want = status_of(cases[i].winner);
            groups[want]++;
            CHECK_INT(game_judge(&g), want);
            CHECK_INT(g.status, want);
            /* the published final position */
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 3; x++)
                    if (board_mark_char(game_get(&g, geometry_xy_to_move(geo, x, y))) !=
                        cases[i].rows[y * 4 + x])
                        t_fail(__FILE__, __LINE__, "case %d (%s), config %d: square (%d,%d)", i,
                               cases[i].moves, c, x, y);
            CHECK_INT(board_mark_char(g.turn), cases[i].next);
            int lx, ly;
            geometry_move_to_xy(geo, g.last_move, &lx, &ly);
            CHECK_INT(lx, cases[i].last_x);
            CHECK_INT(ly, cases[i].last_y);
            /* all six algorithms */
            for (int a = 0; a < WINCHECK_ALGOS; a++) {
                int err = -1;
                Status got = wincheck_judge(&g.board, a, &err);
                if (got != want || err != MB_OK)
                    t_fail(__FILE__, __LINE__,
                           "case %d (%s), config %d, algorithm %d: %s (err %d), expected %s", i,
                           cases[i].moves, c, a, status_name(got), err, cases[i].winner);
                err = -1;
                CHECK_INT(wincheck_is_winner(&g.board, a, MARK_O, &err), want == STATUS_O);
                CHECK_INT(err, MB_OK);
                err = -1;
                CHECK_INT(wincheck_is_winner(&g.board, a, MARK_X, &err), want == STATUS_X);
                CHECK_INT(err, MB_OK);
            }
            game_free(&g);
        }
        CHECK_INT(groups[STATUS_PLAYING], 10);
        CHECK_INT(groups[STATUS_O], 9);
        CHECK_INT(groups[STATUS_X], 8);
        CHECK_INT(groups[STATUS_DRAW], 1);
    }
}

/* ------------------------------------------------------------------------
 * Which algorithms apply
 * ------------------------------------------------------------------------ */

TEST(algos_refuse)
{
    static const char *const names[WINCHECK_ALGOS] = {"original", "concat",    "table",
                                                      "coords",   "generated", "step"};
    for (int a = 0; a < WINCHECK_ALGOS; a++) CHECK_STR(wincheck_name(a), names[a]);
    /* (w, h, k) boards other than 3x3 k3, each with a row of k 〇 on top */
    static const int shapes[][3] = {{4, 4, 4}, {4, 4, 3}, {3, 3, 2}, {4, 3, 3}, {5, 5, 4}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int c = 0; c < T_NCONFIGS; c++) {
            Game g;
            if (!t_open_game(&g, shapes[s][0], shapes[s][1], shapes[s][2], c)) return;
            const Geometry *geo = game_geom(&g);
            for (int x = 0; x < geo->k; x++) CHECK_INT(game_place_mark(&g, x, 0, MARK_O), MB_OK);
            for (int a = 0; a < WINCHECK_ALGOS; a++) {
                int err = -1;
                bool applies = a >= 4;
                CHECK_INT(wincheck_applies(geo, a), applies);
                CHECK_INT(wincheck_is_winner(&g.board, a, MARK_O, &err), applies);
                CHECK_INT(err, applies ? MB_OK : MB_EALGO);
                err = -1;
                CHECK_INT(wincheck_judge(&g.board, a, &err), applies ? STATUS_O : STATUS_PLAYING);
                CHECK_INT(err, applies ? MB_OK : MB_EALGO);
            }
            CHECK(!wincheck_applies(geo, -1));
            CHECK(!wincheck_applies(geo, WINCHECK_ALGOS));
            game_free(&g);
        }
    Geometry *geo = geometry_new(3, 3, 3);
    for (int a = 0; a < WINCHECK_ALGOS; a++) CHECK(wincheck_applies(geo, a));
    geometry_unref(geo);
}

/* ------------------------------------------------------------------------
 * Random positions: full scans == the last-move judge
 * ------------------------------------------------------------------------ */

TEST(random_agree)
{
    static const struct {
        int w, h, k, positions;
    } shapes[] = {
        {3, 3, 3, 6000}, {4, 4, 4, 5000}, {5, 5, 4, 4000},
        {6, 5, 4, 3500}, {7, 7, 5, 2000}, {15, 15, 5, 1000},
    };
    Rng r;
    rng_seed(&r, 34);
    long total = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        Game games[T_NCONFIGS];
        if (!t_open_games(games, shapes[s].w, shapes[s].h, shapes[s].k)) return;
        int seen[4] = {0, 0, 0, 0};
        for (int i = 0; i < shapes[s].positions; i++) {
            Game *g = &games[i % T_NCONFIGS];
            t_random_position(g, &r);
            Status want = game_judge(g);
            CHECK_INT(g->status, want);
            CHECK_INT(ref_judge(&g->board), want);
            seen[want]++;
            for (int a = 0; a < WINCHECK_ALGOS; a++) {
                if (!wincheck_applies(game_geom(g), a)) continue;
                int err = -1;
                Status got = wincheck_judge(&g->board, a, &err);
                if (got != want || err != MB_OK)
                    t_fail(__FILE__, __LINE__,
                           "%dx%d k%d position %d algorithm %d: %s, expected %s", shapes[s].w,
                           shapes[s].h, shapes[s].k, i, a, status_name(got), status_name(want));
                /* only the side that moved last can hold a line */
                for (Mark p = MARK_O; p <= MARK_X; p++)
                    CHECK_INT(wincheck_is_winner(&g->board, a, p, &err), want == p);
            }
            total++;
        }
        /* random play reaches wins of both sides everywhere, and draws on the
         * small boards */
        CHECK(seen[STATUS_O] > 0);
        CHECK(seen[STATUS_X] > 0);
        CHECK(seen[STATUS_PLAYING] > 0);
        if (shapes[s].w <= 4) CHECK(seen[STATUS_DRAW] > 0);
        t_free_games(games);
    }
    CHECK(total >= 20000);
}

/* ------------------------------------------------------------------------
 * Hand-made positions on 15x15 and 7x7 with k = 5
 * ------------------------------------------------------------------------ */

/* A position: runs of marks, each a start square, a step and a length. */
typedef struct Run {
    Mark mark;
    int x, y, dx, dy, len;
} Run;

typedef struct HandCase {
    const char *name;
    Status want; /* wincheck_judge */
    bool o_wins, x_wins;
    Run runs[3];
} HandCase;

#define O MARK_O
#define X MARK_X

static const HandCase cases15[] = {
    {"row", STATUS_O, true, false, {{O, 3, 7, 1, 0, 5}}},
    {"column", STATUS_X, false, true, {{X, 9, 2, 0, 1, 5}}},
    {"main diagonal", STATUS_O, true, false, {{O, 4, 4, 1, 1, 5}}},
    {"anti-diagonal", STATUS_O, true, false, {{O, 10, 2, -1, 1, 5}}},
    {"row at top-right edge", STATUS_O, true, false, {{O, 10, 0, 1, 0, 5}}},
    {"row at bottom-left edge", STATUS_X, false, true, {{X, 0, 14, 1, 0, 5}}},
    {"column at left edge", STATUS_O, true, false, {{O, 0, 10, 0, 1, 5}}},
    {"column at top-right edge", STATUS_X, false, true, {{X, 14, 0, 0, 1, 5}}},
    {"diagonal into bottom-right corner", STATUS_O, true, false, {{O, 10, 10, 1, 1, 5}}},
    {"diagonal from top-left corner", STATUS_X, false, true, {{X, 0, 0, 1, 1, 5}}},
    {"anti-diagonal from top-right corner", STATUS_O, true, false, {{O, 14, 0, -1, 1, 5}}},
    {"anti-diagonal into bottom-left corner", STATUS_X, false, true, {{X, 4, 10, -1, 1, 5}}},
    {"short diagonal at the edge", STATUS_O, true, false, {{O, 10, 0, 1, 1, 5}}},
    {"row of 4", STATUS_PLAYING, false, false, {{O, 5, 3, 1, 0, 4}}},
    {"row of 4 at the edge", STATUS_PLAYING, false, false, {{X, 11, 14, 1, 0, 4}}},
    {"column of 4", STATUS_PLAYING, false, false, {{O, 7, 0, 0, 1, 4}}},
    {"diagonal of 4", STATUS_PLAYING, false, false, {{O, 11, 11, 1, 1, 4}}},
    {"anti-diagonal of 4", STATUS_PLAYING, false, false, {{X, 3, 0, -1, 1, 4}}},
    {"broken row", STATUS_PLAYING, false, false, {{O, 2, 2, 1, 0, 3}, {O, 6, 2, 1, 0, 2}}},
    {"row of 4 and an x", STATUS_PLAYING, false, false, {{O, 0, 5, 1, 0, 4}, {X, 4, 5, 1, 0, 1}}},
    {"row of 6", STATUS_O, true, false, {{O, 0, 9, 1, 0, 6}}},
    {"anti-diagonal of 6", STATUS_X, false, true, {{X, 12, 1, -1, 1, 6}}},
    {"row of 15", STATUS_O, true, false, {{O, 0, 4, 1, 0, 15}}},
    {"column wrapping in move order",
     STATUS_PLAYING,
     false,
     false,
     {{O, 3, 13, 0, 1, 2}, {O, 4, 0, 0, 1, 3}}},
    {"row wrapping in bit order",
     STATUS_PLAYING,
     false,
     false,
     {{O, 13, 6, 1, 0, 2}, {O, 0, 7, 1, 0, 3}}},
    {"diagonal wrapping in bit order",
     STATUS_PLAYING,
     false,
     false,
     {{X, 13, 0, 1, 1, 2}, {X, 0, 3, 1, 1, 3}}},
    {"both sides: o first", STATUS_O, true, true, {{X, 2, 0, 0, 1, 5}, {O, 5, 8, 1, 1, 5}}},
    {"x only among o runs of 4",
     STATUS_X,
     false,
     true,
     {{O, 0, 0, 1, 0, 4}, {X, 14, 10, -1, 1, 5}, {O, 0, 14, 1, -1, 4}}},
};

static const HandCase cases7[] = {
    {"top row from the left", STATUS_O, true, false, {{O, 0, 0, 1, 0, 5}}},
    {"bottom row to the right", STATUS_X, false, true, {{X, 2, 6, 1, 0, 5}}},
    {"right column", STATUS_O, true, false, {{O, 6, 2, 0, 1, 5}}},
    {"main diagonal", STATUS_X, false, true, {{X, 0, 0, 1, 1, 5}}},
    {"off-main diagonal", STATUS_O, true, false, {{O, 2, 0, 1, 1, 5}}},
    {"lower diagonal", STATUS_O, true, false, {{O, 0, 2, 1, 1, 5}}},
    {"anti-diagonal from the corner", STATUS_O, true, false, {{O, 6, 0, -1, 1, 5}}},
    {"short anti-diagonal", STATUS_X, false, true, {{X, 4, 0, -1, 1, 5}}},
    {"anti-diagonal into the corner", STATUS_O, true, false, {{O, 6, 2, -1, 1, 5}}},
    {"anti-diagonal of 4", STATUS_PLAYING, false, false, {{O, 6, 0, -1, 1, 4}}},
    {"diagonal of 4 (too short to win)", STATUS_PLAYING, false, false, {{O, 3, 0, 1, 1, 4}}},
    {"anti-diagonal of 4 (too short)", STATUS_PLAYING, false, false, {{X, 3, 0, -1, 1, 4}}},
    {"row of 4 both ends", STATUS_PLAYING, false, false, {{O, 0, 3, 1, 0, 2}, {O, 5, 3, 1, 0, 2}}},
    {"broken column", STATUS_PLAYING, false, false, {{X, 1, 0, 0, 1, 2}, {X, 1, 3, 0, 1, 4}}},
    {"row of 7", STATUS_O, true, false, {{O, 0, 5, 1, 0, 7}}},
    {"full main diagonal", STATUS_X, false, true, {{X, 0, 0, 1, 1, 7}}},
    {"column of 6", STATUS_O, true, false, {{O, 0, 1, 0, 1, 6}}},
    {"column wrapping in move order",
     STATUS_PLAYING,
     false,
     false,
     {{O, 2, 4, 0, 1, 3}, {O, 3, 0, 0, 1, 2}}},
    {"row wrapping in bit order",
     STATUS_PLAYING,
     false,
     false,
     {{X, 4, 1, 1, 0, 3}, {X, 0, 2, 1, 0, 2}}},
    {"both sides: o first", STATUS_O, true, true, {{X, 0, 0, 0, 1, 5}, {O, 2, 2, 1, 0, 5}}},
};

/* The full board with 〇 where (x/2 + y) is even: no five in a row for
 * either side, so a draw. */
static Mark stripes(int x, int y) { return (x / 2 + y) % 2 == 0 ? MARK_O : MARK_X; }

static void check_hand(const HandCase *hand, int ncases, int w, int h)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Geometry *geo = geometry_new(w, h, 5);
        CHECK(geo != NULL);
        if (!geo) return;
        Board b;
        GameOptions o = t_config(T_KINDS_FIRST, c, w, h, 5);
        CHECK_INT(board_init(&b, geo, o.board, o.count_linemark), MB_OK);
        geometry_unref(geo); /* the board keeps its own reference */
        for (int i = 0; i <= ncases; i++) {
            const HandCase *hc = i < ncases ? &hand[i] : NULL;
            board_reset(&b);
            if (hc) {
                for (int j = 0; j < 3 && hc->runs[j].mark; j++) {
                    const Run *rn = &hc->runs[j];
                    for (int s = 0; s < rn->len; s++) {
                        int x = rn->x + s * rn->dx, y = rn->y + s * rn->dy;
                        CHECK(geometry_on_board(geo, x, y));
                        board_set(&b, geometry_xy_to_move(geo, x, y), rn->mark);
                    }
                }
            } else {
                for (int x = 0; x < w; x++)
                    for (int y = 0; y < h; y++)
                        board_set(&b, geometry_xy_to_move(geo, x, y), stripes(x, y));
            }
            const char *name = hc ? hc->name : "full board, no line";
            Status want = hc ? hc->want : STATUS_DRAW;
            bool wins[3] = {false, hc && hc->o_wins, hc && hc->x_wins};
            /* the recount agrees with the hand-written expectation */
            if (ref_judge(&b) != want || ref_winner(&b, MARK_O) != wins[MARK_O] ||
                ref_winner(&b, MARK_X) != wins[MARK_X])
                t_fail(__FILE__, __LINE__, "%dx%d %s: the test's own recount disagrees", w, h,
                       name);
            for (int a = 4; a < WINCHECK_ALGOS; a++) {
                int err = -1;
                Status got = wincheck_judge(&b, a, &err);
                if (got != want || err != MB_OK)
                    t_fail(__FILE__, __LINE__, "%dx%d %s, config %d, algorithm %d: %s, expected %s",
                           w, h, name, c, a, status_name(got), status_name(want));
                for (Mark p = MARK_O; p <= MARK_X; p++) {
                    if (wincheck_is_winner(&b, a, p, &err) != wins[p])
                        t_fail(__FILE__, __LINE__, "%dx%d %s, config %d, algorithm %d: %c wins %d",
                               w, h, name, c, a, board_mark_char(p), !wins[p]);
                }
            }
            /* the last-move check, from each square of each run: a square
             * of a winning side's run completes a line in these positions
             * exactly when that side wins (every run square lies in the
             * line, or the side holds no line) */
            for (int j = 0; hc && j < 3 && hc->runs[j].mark; j++) {
                const Run *rn = &hc->runs[j];
                bool line_run = rn->len >= 5;
                for (int s = 0; s < rn->len; s++) {
                    int m = geometry_xy_to_move(geo, rn->x + s * rn->dx, rn->y + s * rn->dy);
                    if (board_is_winner(&b, rn->mark, m) != line_run)
                        t_fail(__FILE__, __LINE__, "%dx%d %s, config %d: board_is_winner at %d", w,
                               h, name, c, m);
                    CHECK(!board_is_winner(&b, mark_other(rn->mark), m));
                }
            }
            if (!hc)
                for (int m = 0; m < geo->ncells; m++)
                    CHECK(!board_is_winner(&b, board_get(&b, m), m));
        }
        board_free(&b);
    }
}

TEST(hand_15x15) { check_hand(cases15, (int)(sizeof cases15 / sizeof cases15[0]), 15, 15); }
TEST(hand_7x7) { check_hand(cases7, (int)(sizeof cases7 / sizeof cases7[0]), 7, 7); }

#undef O
#undef X

const TestCase wincheck_tests[] = {
    {"judge_cases", judge_cases}, {"algos_refuse", algos_refuse}, {"random_agree", random_agree},
    {"hand_15x15", hand_15x15},   {"hand_7x7", hand_7x7},         {0},
};
