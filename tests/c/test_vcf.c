/* test_vcf.c: the VCF / VCT threat search (vcf.h).
 * - hand-made positions: a four to complete, a double four (and nothing
 *   for the other side), a VCF of two fours, and the exact rule refusing
 *   a win by an overline (which freestyle takes);
 * - soundness on random positions: on small boards (5x5 k4 and k3, 4x5
 *   k3, 6x4 k4, both rules) every VCF and VCT win is confirmed by the
 *   exact solver (solve.h); on 7x7 and 9x9 k5 (both rules) and 15x15 k5
 *   every VCF line is checked as a proof, full width at each defender
 *   move (no win of its own, one win square of the attacker that its move
 *   blocks, or two), and VCT lines replay to a win; the numbers of wins
 *   found are fixed (seeded positions);
 * - the αβ search's VCF win check (search_set_vcf): a found win scores
 *   the root as ai14s's victory in one node; off, the plain counts;
 * - bounds: maxdepth 0 refused, the empty board gives none, a node limit
 *   of 1 stops with VCF_NODES, the status names. */
#include <stdlib.h>

#include "testutil.h"

static void play_xy(Game *g, int x, int y) { game_move(g, t_xy(g, x, y)); }

/* Play a list of (x, y) pairs, alternating from o (-1 ends it). */
static void setup(Game *g, const int *xy)
{
    for (int i = 0; xy[i] >= 0; i += 2) play_xy(g, xy[i], xy[i + 1]);
}

static VcfResult run(const Game *g, bool vct, int maxdepth)
{
    Vcf v;
    VcfResult r;
    CHECK_INT(vcf_init(&v), MB_OK);
    VcfOptions o = vcf_default_options();
    o.vct = vct;
    o.maxdepth = maxdepth;
    CHECK_INT(vcf_solve(&v, g, &o, &r), MB_OK);
    vcf_free(&v);
    return r;
}

/* The number of squares on which the side to move of g wins at once
 * (every legal move tried: full width). */
static int winning_moves(Game *g)
{
    int moves[MB_MAX_CELLS], n = game_legal_moves(g, moves), wins = 0;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        wins += g->status == g->last_turn;
        game_unmove(g);
    }
    return wins;
}

/* The line replays: every move legal, the last one wins for the attacker.
 * With `forced` (a VCF line) it is also a proof, checked full width at
 * every defender node: after each attacker move but the last, the
 * defender has no winning move and the attacker at least one win square
 * (so every defender move but a block of it loses at once; with two,
 * every move loses), and the defender's move in the line blocks the only
 * one or is any move after two. The game is restored. */
static bool replays(Game *g, const VcfResult *r, bool forced)
{
    Mark a = g->turn;
    int start = g->move_count;
    bool ok = r->n % 2 == 1;
    for (int i = 0; ok && i < r->n; i++) {
        int m = r->moves[i];
        ok = m >= 0 && m < game_geom(g)->ncells && game_get(g, m) == MARK_EMPTY &&
             g->status == STATUS_PLAYING;
        if (!ok) break;
        if (forced && i % 2 == 1) {
            /* the defender to move: no win of its own */
            ok = winning_moves(g) == 0;
        }
        game_move(g, m);
        if (i == r->n - 1) {
            ok = ok && g->status == a;
        } else if (forced && i % 2 == 0) {
            /* the attacker's four: count its win squares with the defender
             * passing, on a copy with the turn flipped by a mark placed */
            Game c;
            CHECK_INT(game_copy(&c, g), MB_OK);
            int threats = 0, moves[MB_MAX_CELLS], n = game_legal_moves(&c, moves);
            for (int j = 0; j < n; j++) {
                CHECK_INT(game_place_mark(&c, game_geom(g)->x_of[moves[j]],
                                          game_geom(g)->y_of[moves[j]], a),
                          MB_OK);
                threats += board_is_winner(&c.board, a, moves[j]);
                game_remove_mark(&c, game_geom(g)->x_of[moves[j]], game_geom(g)->y_of[moves[j]]);
            }
            game_free(&c);
            int reply = r->moves[i + 1];
            bool blocks = false;
            if (threats == 1) {
                game_copy(&c, g);
                game_place_mark(&c, game_geom(g)->x_of[reply], game_geom(g)->y_of[reply], a);
                blocks = board_is_winner(&c.board, a, reply);
                game_free(&c);
            }
            ok = ok && g->status == STATUS_PLAYING && (threats >= 2 || (threats == 1 && blocks));
        }
    }
    while (g->move_count > start) game_unmove(g);
    return ok;
}

TEST(hand_positions)
{
    Game g;
    GameOptions o = {9, 9, 5, BOARD_BITS, false, false};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    /* o: four in a row on row 0 (x elsewhere): the win itself */
    static const int four[] = {0, 0, 8, 8, 1, 0, 6, 6, 2, 0, 8, 4, 3, 0, 4, 8, -1};
    setup(&g, four);
    VcfResult r = run(&g, false, 1);
    CHECK_INT(r.status, VCF_WIN);
    CHECK_INT(r.n, 1);
    CHECK_INT(r.moves[0], t_xy(&g, 4, 0));
    game_restart(&g);
    /* o: three on row 0 and three on column 3; D1 makes two fours */
    static const int fork[] = {0, 0, 8, 8, 1, 0, 6, 6, 2, 0, 8, 4, 3,
                               1, 4, 8, 3, 2, 6, 2, 3, 3, 2, 6, -1};
    setup(&g, fork);
    r = run(&g, false, 1);
    CHECK_INT(r.status, VCF_WIN);
    CHECK_INT(r.n, 3);
    CHECK_INT(r.moves[0], t_xy(&g, 3, 0));
    CHECK(replays(&g, &r, false));
    /* x to move has nothing: no VCF for x */
    game_move(&g, t_xy(&g, 5, 5));
    r = run(&g, false, 10);
    CHECK_INT(r.status, VCF_NONE);
    game_free(&g);

    /* a VCF of two fours: o's broken threes, x's stones block the rest */
    o = (GameOptions){9, 9, 5, BOARD_LIST1D, true, false};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    /* o on (1,1) (2,1) (3,1): x on (0,1) closes the left; o on (5,2) (5,3)
     * (5,4): o at (4,1) is a four (win square (5,1)), x blocks there; then
     * (5,1) is x's, so the column needs another: o at (5,5) and (5,6) */
    static const int chain[] = {1, 1, 0, 1, 2, 1, 8, 8, 3, 1, 6, 6, 5,
                                3, 8, 4, 5, 4, 4, 8, 5, 5, 2, 6, -1};
    setup(&g, chain);
    r = run(&g, false, 10);
    CHECK_INT(r.status, VCF_WIN);
    CHECK(replays(&g, &r, false));
    game_free(&g);

    /* the exact rule: o's (0,0)..(3,0) and (5,0): (4,0) makes six, no win;
     * freestyle wins there at once */
    for (int exact = 0; exact < 2; exact++) {
        o = (GameOptions){9, 9, 5, BOARD_BITS, false, exact == 1};
        CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
        static const int six[] = {0, 0, 8, 8, 1, 0, 6, 6, 2, 0, 8, 4, 3, 0, 4, 8, 5, 0, 2, 6, -1};
        setup(&g, six);
        r = run(&g, true, 4);
        if (exact) {
            /* no four can be made without an overline: o's only hope is
             * elsewhere; whatever is found replays and is not (4,0) */
            CHECK(r.status != VCF_WIN || (r.moves[0] != t_xy(&g, 4, 0) && replays(&g, &r, true)));
        } else {
            CHECK_INT(r.status, VCF_WIN);
            CHECK_INT(r.moves[0], t_xy(&g, 4, 0));
        }
        game_free(&g);
    }
}

/* Random positions of a shape, `trials` of them after lo..hi random
 * plies, skipping finished games and those with a win in one. VCF (and
 * VCT with `vct`) wins must replay (VCF lines as proofs); with `solve`,
 * the solver must confirm each. The wins found go to wins[0] (VCF) and
 * wins[1] (VCT). */
static void check_random(int w, int h, int k, bool exact, int trials, int lo, int hi, bool vct,
                         bool solve, uint64_t seed, int wins[2])
{
    Game g;
    GameOptions o = {w, h, k, BOARD_BITS, false, exact};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    Rng rng;
    rng_seed(&rng, seed);
    Solve s;
    solve_init(&s);
    Vcf v;
    CHECK_INT(vcf_init(&v), MB_OK);
    wins[0] = wins[1] = 0;
    for (int t = 0; t < trials; t++) {
        game_restart(&g);
        int plies = lo + (int)rng_randbelow(&rng, (uint64_t)(hi - lo + 1));
        for (int i = 0; i < plies && g.status == STATUS_PLAYING; i++) {
            int moves[MB_MAX_CELLS], n = game_legal_moves(&g, moves);
            game_move(&g, moves[rng_randbelow(&rng, (uint64_t)n)]);
        }
        if (g.status != STATUS_PLAYING || winning_moves(&g)) continue;
        for (int c = 0; c <= (int)vct; c++) {
            VcfOptions vo = vcf_default_options();
            vo.vct = c;
            vo.maxdepth = c ? 3 : 12;
            VcfResult r;
            CHECK_INT(vcf_solve(&v, &g, &vo, &r), MB_OK);
            CHECK_INT(r.status == VCF_WIN || r.status == VCF_NONE, 1);
            if (r.status != VCF_WIN) continue;
            wins[c]++;
            if (!replays(&g, &r, c == 0))
                t_fail(__FILE__, __LINE__,
                       "%dx%d k%d exact %d trial %d: the %s line does not replay", w, h, k, exact,
                       t, c ? "VCT" : "VCF");
            if (!solve) continue;
            SolveResult sr;
            CHECK_INT(solve_position(&s, &g, &sr), MB_OK);
            if (sr.value != (g.turn == MARK_O ? 1 : -1))
                t_fail(__FILE__, __LINE__,
                       "%dx%d k%d exact %d trial %d: %s win, the solver says %d", w, h, k, exact, t,
                       c ? "VCT" : "VCF", sr.value);
        }
    }
    vcf_free(&v);
    solve_free(&s);
    game_free(&g);
}

/* A shape's random positions and the wins they must give. */
typedef struct Case {
    int w, h, k, exact, trials, lo, hi, vcf, vct;
} Case;

/* check_random on each case (seeds seed0, seed0 + 1, ...); the same
 * positions and searches every run, so the counts of wins are fixed. */
static void run_cases(const Case *cases, size_t n, bool solve, uint64_t seed0)
{
    for (size_t i = 0; i < n; i++) {
        const Case *c = &cases[i];
        int wins[2];
        check_random(c->w, c->h, c->k, c->exact, c->trials, c->lo, c->hi, true, solve, seed0 + i,
                     wins);
        CHECK_INT(wins[0], c->vcf);
        CHECK_INT(wins[1], c->vct);
    }
}

/* Small boards: every VCF and VCT win is confirmed by the exact solver. */
TEST(small_boards_confirmed_by_solve)
{
    static const Case cases[] = {
        {5, 5, 4, 0, 80, 4, 10, 17, 21}, {5, 5, 4, 1, 80, 4, 10, 23, 30},
        {5, 5, 3, 0, 80, 2, 6, 46, 46},  {5, 5, 3, 1, 80, 2, 6, 39, 39},
        {4, 5, 3, 1, 80, 2, 6, 48, 48},  {6, 4, 4, 0, 80, 4, 10, 15, 17},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], true, 100);
}

/* 7x7, 9x9 and 15x15 with k = 5: every VCF line is a proof (checked full
 * width at each defender move); VCT lines replay. */
TEST(gomoku_boards_lines_proven)
{
    static const Case cases[] = {
        {7, 7, 5, 0, 60, 14, 30, 11, 13},   {7, 7, 5, 1, 60, 14, 30, 10, 12},
        {9, 9, 5, 0, 60, 20, 44, 14, 15},   {9, 9, 5, 1, 60, 20, 44, 11, 11},
        {15, 15, 5, 0, 30, 40, 90, 14, 14},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], false, 200);
}

/* The searchers' win check (search_set_vcf): on 9x9 k5 positions where
 * the threat search finds a win of the side to move, search_run with it
 * scores the root the victory (+-300 from ai14s at the end of the line)
 * in one node; without it the same search counts its usual nodes. */
TEST(search_win_check)
{
    Game g;
    GameOptions o = {9, 9, 5, BOARD_BITS, false, false};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    Rng rng;
    rng_seed(&rng, 9);
    Vcf v;
    CHECK_INT(vcf_init(&v), MB_OK);
    int checked = 0;
    for (int t = 0; t < 40; t++) {
        game_restart(&g);
        int plies = 16 + (int)rng_randbelow(&rng, 15);
        for (int i = 0; i < plies && g.status == STATUS_PLAYING; i++) {
            int moves[MB_MAX_CELLS], n = game_legal_moves(&g, moves);
            game_move(&g, moves[rng_randbelow(&rng, (uint64_t)n)]);
        }
        if (g.status != STATUS_PLAYING) continue;
        VcfOptions vo = vcf_default_options();
        VcfResult r;
        CHECK_INT(vcf_solve(&v, &g, &vo, &r), MB_OK);
        if (r.status != VCF_WIN) continue;
        Search s;
        CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 1), MB_OK);
        double plain, with;
        CHECK_INT(search_run(&s, &plain), SEARCH_OK);
        uint64_t plain_count = s.count;
        CHECK_INT(search_set_vcf(&s, VCF_DEFAULT_DEPTH), MB_OK);
        CHECK_INT(search_run(&s, &with), SEARCH_OK);
        CHECK(with == (g.turn == MARK_O ? 300.0 : -300.0));
        CHECK_U64(s.count, 1);
        CHECK(s.vcf_nodes > 0);
        CHECK_INT(search_set_vcf(&s, 0), MB_OK);
        CHECK_INT(search_run(&s, &with), SEARCH_OK);
        CHECK(with == plain);
        CHECK_U64(s.count, plain_count);
        search_free(&s);
        checked++;
    }
    CHECK_INT(checked, 12); /* seeded: the same positions every run */
    vcf_free(&v);
    game_free(&g);
}

TEST(bounds)
{
    Game g;
    GameOptions o = {9, 9, 5, BOARD_BITS, false, false};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    Vcf v;
    CHECK_INT(vcf_init(&v), MB_OK);
    VcfOptions vo = vcf_default_options();
    VcfResult r;
    vo.maxdepth = 0;
    CHECK_INT(vcf_solve(&v, &g, &vo, &r), MB_EINVAL);
    vo.maxdepth = 5;
    CHECK_INT(vcf_solve(&v, &g, &vo, &r), MB_OK); /* the empty board: nothing */
    CHECK_INT(r.status, VCF_NONE);
    static const int fork[] = {0, 0, 8, 8, 1, 0, 6, 6, 2, 0, 8, 4, 3,
                               1, 4, 8, 3, 2, 6, 2, 3, 3, 2, 6, -1};
    setup(&g, fork);
    vo.max_nodes = 1;
    CHECK_INT(vcf_solve(&v, &g, &vo, &r), MB_OK);
    CHECK_INT(r.status, VCF_NODES);
    CHECK_STR(vcf_status_name(VCF_WIN), "win");
    CHECK_STR(vcf_status_name(VCF_TIMEOUT), "timeout");
    vcf_free(&v);
    game_free(&g);
}

const TestCase vcf_tests[] = {
    {"hand_positions", hand_positions},
    {"small_boards_confirmed_by_solve", small_boards_confirmed_by_solve},
    {"gomoku_boards_lines_proven", gomoku_boards_lines_proven},
    {"search_win_check", search_win_check},
    {"bounds", bounds},
    {0},
};
