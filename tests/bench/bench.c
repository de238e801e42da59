/* bench.c: the engine's speed table (make bench). For every back-end x
 * count_linemark, side by side in one run, medians of several runs:
 *   perft       the 3x3 tree (549,946 nodes) by move/unmove+judge: ms, ns/node
 *   ai2 pairs   random-vs-random pairs of games (the series' ai2 VS ai2 "it")
 *               with the CPython-compatible stream, seed 0: pairs/s
 *   markpats    count_markpats on positions of random games: M calls/s
 * then the six full-scan win checks of part 34 on one back-end. (The
 * series' Python is measured side by side by tests/bench/series.lua's
 * rows and the loop of docs/engine.md, not compared here.)
 *
 * Last, the issue-13 targets: each row's engine figure beside a naive
 * reference written for the row alone (bare.c) measured in the same run,
 * interleaved, with their ratio: perft 3x3, perft 4x4 k=4 to depth 8 (ns
 * per node, against the 3x3 figure), the ai_abs_dls benchmark call with a
 * reused Search (beside a flat αβ with the same table semantics, checked
 * by its 1,175 nodes and 235 evaluations), ai2 VS ai2 in a C loop, and
 * solve (6,5,4).
 *
 * Then the issue-14 rows on 15x15 with k = 5 (bench_features): move +
 * unmove pairs with the line features kept beside the same pairs without
 * them (bitboard and list1d), and αβ with the line evaluator in C over the
 * candidate moves (nodes per second); the Lua evaluator's row is
 * tests/bench/features.lua.
 *
 * Last, the issue-23 rows (bench_gomoku.c): the pattern codes' cost per
 * move and the big-board search's time to depth on fixed positions.
 *
 * Usage: bench [RUNS] [--targets | --features | --gomoku]   (default 7
 * runs per figure; the median is shown; --targets: only the issue-13 rows;
 * --features: only the issue-14 rows; --gomoku: only the issue-23 rows) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare.h"
#include "bench_gomoku.h"
#include "marubatsu.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void make_game(Game *g, BoardKind kind, bool counters)
{
    GameOptions o = {3, 3, 0, kind, counters, false};
    if (game_init(g, &o, NULL, 0) != MB_OK) {
        fprintf(stderr, "bench: cannot create a game\n");
        exit(1);
    }
}

/* Seconds for one full 3x3 perft. */
static double time_perft(Game *g)
{
    uint64_t nodes[10], fin[10];
    double t0 = clock_now();
    perft_run(g, 9, nodes, fin, NULL, NULL);
    double dt = clock_now() - t0;
    uint64_t total = 0;
    for (int d = 0; d <= 9; d++) total += nodes[d];
    if (total != 549946) {
        fprintf(stderr, "bench: perft counted %llu nodes\n", (unsigned long long)total);
        exit(1);
    }
    return dt;
}

/* Seconds for `pairs` iterations of ai2 VS ai2 (two games each) after
 * seed(0); checks the series' stream checkpoint when pairs is 50,000. */
static double time_pairs(Game *g, int pairs)
{
    Rng r;
    int moves[9];
    rng_seed(&r, 0);
    double t0 = clock_now();
    for (int i = 0; i < 2 * pairs; i++) {
        game_restart(g);
        while (g->status == STATUS_PLAYING) {
            int n = game_legal_moves(g, moves);
            game_move(g, moves[rng_choice_index(&r, n)]);
        }
    }
    double dt = clock_now() - t0;
    if (pairs == 50000 && r.draws != 1255695) {
        fprintf(stderr, "bench: the random stream diverged\n");
        exit(1);
    }
    return dt;
}

#define NPOS 4096

/* Record the moves of NPOS positions of random games (seed 1). */
static void sample_positions(int (*seq)[10])
{
    Game g;
    Rng r;
    int moves[9];
    make_game(&g, BOARD_BITS, false);
    rng_seed(&r, 1);
    for (int i = 0; i < NPOS; i++) {
        game_restart(&g);
        int plies = 1 + (int)rng_randbelow(&r, 9);
        while (g.move_count < plies && g.status == STATUS_PLAYING) {
            int n = game_legal_moves(&g, moves);
            game_move(&g, moves[rng_choice_index(&r, n)]);
        }
        seq[i][0] = g.move_count;
        for (int j = 1; j <= g.move_count; j++) seq[i][j] = g.records[j];
    }
    game_free(&g);
}

static void play_seq(Game *g, const int *seq)
{
    game_restart(g);
    for (int j = 1; j <= seq[0]; j++) game_move(g, seq[j]);
}

/* Seconds per call of count_markpats over the sample, repeated. */
static double time_markpats(Game *g, int (*seq)[10], int reps)
{
    int32_t hist[16];
    volatile int32_t sink = 0;
    double total = 0;
    for (int i = 0; i < NPOS; i++) {
        play_seq(g, seq[i]);
        double t0 = clock_now();
        for (int r = 0; r < reps; r++) {
            markpats_of_game(g, hist);
            sink += hist[r & 15];
        }
        total += clock_now() - t0;
    }
    (void)sink;
    return total / ((double)NPOS * reps);
}

/* Seconds per wincheck_judge call of one algorithm over the sample. */
static double time_wincheck(Game *g, int (*seq)[10], int algo, int reps)
{
    volatile int sink = 0;
    double total = 0;
    int err;
    for (int i = 0; i < NPOS; i++) {
        play_seq(g, seq[i]);
        double t0 = clock_now();
        for (int r = 0; r < reps; r++) sink += wincheck_judge(&g->board, algo, &err);
        total += clock_now() - t0;
    }
    (void)sink;
    return total / ((double)NPOS * reps);
}

/* The series' benchmark call of ai_abs_dls (empty board, ai14s in C,
 * maxdepth 8, one shared table, through search_root): median seconds over
 * `calls` calls, with a fresh Search per call (fresh) or one reused one. */
static double time_abs_dls(Game *g, int calls, bool fresh)
{
    double v[101];
    SearchRootResult r;
    Search s;
    if (calls > 101) calls = 101;
    if (!fresh && search_init(&s, g, eval14_search_eval, NULL, 8) != MB_OK) exit(1);
    s.use_tt = true;
    for (int i = 0; i < calls; i++) {
        double t0 = clock_now();
        if (fresh) {
            if (search_init(&s, g, eval14_search_eval, NULL, 8) != MB_OK) exit(1);
            s.use_tt = true;
        }
        int rc = search_root(&s, true, NULL, &r);
        if (fresh) search_free(&s);
        v[i] = clock_now() - t0;
        if (rc != SEARCH_OK || r.total != 1175) {
            fprintf(stderr, "bench: ai_abs_dls counted %llu nodes\n", (unsigned long long)r.total);
            exit(1);
        }
    }
    if (!fresh) search_free(&s);
    return median(v, calls);
}

static void bench_abs_dls(void)
{
    printf("\nai_abs_dls (ai14s in C, maxdepth 8, TT shared): median of 101 calls,\n"
           "target 30 us\n");
    printf("%-9s %-8s %16s %16s\n", "back-end", "counters", "fresh Search us", "reused Search us");
    for (int k = 0; k < BOARD_KINDS; k++)
        for (int c = 0; c < 2; c++) {
            Game g;
            make_game(&g, (BoardKind)k, c);
            double fr = time_abs_dls(&g, 101, true), ru = time_abs_dls(&g, 101, false);
            printf("%-9s %-8s %16.1f %16.1f\n", board_kind_name((BoardKind)k), c ? "on" : "off",
                   1e6 * fr, 1e6 * ru);
            game_free(&g);
        }
}

/* Seconds for one perft of a w x h board with k to `depth` on the bitboard,
 * its total nodes in *total. */
static double time_perft_shape(int w, int h, int k, int depth, uint64_t *total)
{
    Game g;
    GameOptions o = {w, h, k, BOARD_BITS, false, false};
    if (game_init(&g, &o, NULL, 0) != MB_OK) exit(1);
    uint64_t nodes[17], fin[17];
    double t0 = clock_now();
    perft_run(&g, depth, nodes, fin, NULL, NULL);
    double dt = clock_now() - t0;
    *total = 0;
    for (int d = 0; d <= depth; d++) *total += nodes[d];
    game_free(&g);
    return dt;
}

/* Seconds for the naive perft of the same shape; checks its total. */
static double time_bare_perft(int w, int h, int k, int depth, uint64_t want)
{
    uint64_t nodes, fin;
    double t0 = clock_now();
    bare_perft(w, h, k, depth, &nodes, &fin);
    double dt = clock_now() - t0;
    if (nodes != want) {
        fprintf(stderr, "bench: the naive perft counted %llu nodes, the engine %llu\n",
                (unsigned long long)nodes, (unsigned long long)want);
        exit(1);
    }
    return dt;
}

/* Seconds for a bare ai2 VS ai2 loop (bare_pairs or bare_pairs_tight);
 * checks the stream's draws. */
static double time_bare_pairs(uint64_t (*loop)(int), int pairs)
{
    double t0 = clock_now();
    uint64_t draws = loop(pairs);
    double dt = clock_now() - t0;
    if (pairs == 50000 && draws != 1255695) {
        fprintf(stderr, "bench: a bare ai2 loop's stream diverged\n");
        exit(1);
    }
    return dt;
}

/* The naive ai_abs_dls call: median seconds over `calls` calls (at most
 * 101); checks its counts against the engine's 1,175 nodes and the 235
 * evaluations. */
static double time_bare_abs_dls(int calls)
{
    double v[101];
    if (calls > 101) calls = 101;
    for (int i = 0; i < calls; i++) {
        uint64_t nodes, leaves;
        double t0 = clock_now();
        bare_abs_dls(&nodes, &leaves);
        v[i] = clock_now() - t0;
        if (nodes != 1175 || leaves != 235) {
            fprintf(stderr, "bench: the naive ai_abs_dls counted %llu nodes, %llu leaves\n",
                    (unsigned long long)nodes, (unsigned long long)leaves);
            exit(1);
        }
    }
    return median(v, calls);
}

/* Seconds for solving (6,5,4) from the empty board (first player wins in
 * 11 plies), a fresh Solve each time. */
static double time_solve654(void)
{
    Game g;
    GameOptions o = {6, 5, 4, BOARD_BITS, false, false};
    if (game_init(&g, &o, NULL, 0) != MB_OK) exit(1);
    Solve s;
    solve_init(&s);
    SolveResult r;
    double t0 = clock_now();
    int rc = solve_position(&s, &g, &r);
    double dt = clock_now() - t0;
    if (rc != MB_OK || r.value != 1 || r.distance != 11) {
        fprintf(stderr, "bench: solve (6,5,4) gave %d, value %d in %d\n", rc, r.value, r.distance);
        exit(1);
    }
    solve_free(&s);
    game_free(&g);
    return dt;
}

/* Microseconds per vcf_solve (maxdepth 10) over 200 seeded random 15x15
 * k5 positions of 30 to 80 stones (games not over), one solver reused;
 * the wins found go to *wins (the same every run). */
static double time_vcf15(bool vct, int *wins)
{
    Game g;
    GameOptions o = {15, 15, 5, BOARD_BITS, false, false};
    if (game_init(&g, &o, NULL, 0) != MB_OK) exit(1);
    Vcf v;
    if (vcf_init(&v) != MB_OK) exit(1);
    Rng rng;
    rng_seed(&rng, 15);
    VcfOptions vo = vcf_default_options();
    vo.vct = vct;
    vo.maxdepth = vct ? 4 : 10;
    double total = 0;
    int n = 0;
    *wins = 0;
    for (int t = 0; t < 200; t++) {
        game_restart(&g);
        int plies = 30 + (int)rng_randbelow(&rng, 51);
        for (int i = 0; i < plies && g.status == STATUS_PLAYING; i++) {
            int moves[MB_MAX_CELLS], nm = game_legal_moves(&g, moves);
            game_move(&g, moves[rng_randbelow(&rng, (uint64_t)nm)]);
        }
        if (g.status != STATUS_PLAYING) continue;
        VcfResult r;
        double t0 = clock_now();
        vcf_solve(&v, &g, &vo, &r);
        total += clock_now() - t0;
        n++;
        *wins += r.status == VCF_WIN;
    }
    vcf_free(&v);
    game_free(&g);
    return 1e6 * total / (n ? n : 1);
}

/* The issue-14 row: the threat search on 15x15 k5, medians of runs. */
static void bench_vcf(int runs)
{
    double f[1000], t[1000];
    int wf = 0, wt = 0;
    for (int r = 0; r < runs; r++) {
        f[r] = time_vcf15(false, &wf);
        t[r] = time_vcf15(true, &wt);
    }
    printf("\nissue 14 threat search (15x15 k5, 200 random positions of 30-80 stones,\n"
           "one solver reused; medians of %d):\n",
           runs);
    printf("%-34s %9.1f us  (%d wins found)\n", "vcf, maxdepth 10, per position", median(f, runs),
           wf);
    printf("%-34s %9.1f us  (%d wins found)\n", "vct, maxdepth 4, per position", median(t, runs),
           wt);
}

/* The issue-13 rows: engine and naive reference interleaved run by run. */
static void bench_targets(int runs)
{
    enum { DEEP_RUNS = 3, SOLVE_RUNS = 3, ABS_ROUNDS = 5 };
    double e3[1000], b3[1000], ep[1000], bp[1000], tp[1000], e4[DEEP_RUNS], b4[DEEP_RUNS],
        sv[SOLVE_RUNS];
    uint64_t total3 = 0, total4 = 0;
    Game g;
    make_game(&g, BOARD_BITS, false);
    for (int r = 0; r < runs; r++) {
        e3[r] = time_perft_shape(3, 3, 3, 9, &total3);
        b3[r] = time_bare_perft(3, 3, 3, 9, total3);
        ep[r] = time_pairs(&g, 50000);
        bp[r] = time_bare_pairs(bare_pairs, 50000);
        tp[r] = time_bare_pairs(bare_pairs_tight, 50000);
    }
    game_free(&g);
    for (int r = 0; r < DEEP_RUNS; r++) {
        e4[r] = time_perft_shape(4, 4, 4, 8, &total4);
        b4[r] = time_bare_perft(4, 4, 4, 8, total4);
    }
    for (int r = 0; r < SOLVE_RUNS; r++) sv[r] = time_solve654();
    /* the call is short: engine and naive alternate in rounds of 101 */
    double ea[ABS_ROUNDS], ba[ABS_ROUNDS];
    Game g2;
    make_game(&g2, BOARD_BITS, false);
    for (int r = 0; r < ABS_ROUNDS; r++) {
        ea[r] = time_abs_dls(&g2, 101, false);
        ba[r] = time_bare_abs_dls(101);
    }
    game_free(&g2);
    double abs_us = 1e6 * median(ea, ABS_ROUNDS), abs_bare_us = 1e6 * median(ba, ABS_ROUNDS);

    double me3 = median(e3, runs), mb3 = median(b3, runs);
    double ns3 = 1e9 * me3 / (double)total3, nsb3 = 1e9 * mb3 / (double)total3;
    double ns4 = 1e9 * median(e4, DEEP_RUNS) / (double)total4;
    double nsb4 = 1e9 * median(b4, DEEP_RUNS) / (double)total4;
    double pe = 50000.0 / median(ep, runs), pb = 50000.0 / median(bp, runs);
    double pt = 50000.0 / median(tp, runs);
    printf("\nissue 13 targets (bitboard, no counters; engine beside a naive C reference\n"
           "doing the same work, same run; perft 4x4 and solve: medians of %d):\n",
           DEEP_RUNS);
    printf("%-34s %12s %12s %8s  %s\n", "row", "engine", "naive C", "ratio", "target");
    printf("%-34s %9.2f ms %9.2f ms %7.2fx  <= 4 ms\n", "perft 3x3 (549,946 nodes)", 1e3 * me3,
           1e3 * mb3, me3 / mb3);
    printf("%-34s %9.2f ns %9.2f ns %7.2fx\n", "  the same per node", ns3, nsb3, ns3 / nsb3);
    printf("%-34s %9.2f ns %9.2f ns %7.2fx  <= 2x the 3x3 ns/node: %.2fx\n",
           "perft 4x4 k=4 depth 8, per node", ns4, nsb4, ns4 / nsb4, ns4 / ns3);
    printf("%-34s %9.1f us %9.1f us %7.2fx  <= 25 us\n", "ai_abs_dls call, reused Search", abs_us,
           abs_bare_us, abs_us / abs_bare_us);
    printf("%-34s %8.2f M/s %8.2f M/s %7.2fx  >= 5 M pairs/s\n", "ai2 VS ai2 pairs (C loop)",
           pe / 1e6, pb / 1e6, pb / pe);
    printf("%-34s %8.2f M/s %8.2f M/s %7.2fx  engine's time <= 2x bare\n",
           "  against the tight bare loop", pe / 1e6, pt / 1e6, pt / pe);
    printf("%-34s %10.3f s %12s %8s  <= 0.5 s\n", "solve (6,5,4): o wins in 11",
           median(sv, SOLVE_RUNS), "-", "-");
}

/* ---- Issue 14: 15x15, k = 5 ---- */

#define BIG_POSITIONS 16

/* Positions of a seeded random game on 15x15 k5, 8 to 68 marks: the move
 * lists (ending in -1) into seq. */
static void big_positions(int (*seq)[80])
{
    Rng r;
    rng_seed(&r, 14);
    for (int i = 0; i < BIG_POSITIONS; i++) {
        int n = 8 + 4 * i, moves[MB_MAX_CELLS];
        Game g;
        GameOptions o = {15, 15, 5, BOARD_BITS, false, false};
        if (game_init(&g, &o, NULL, 0) != MB_OK) exit(1);
        int j = 0;
        for (; j < n && g.status == STATUS_PLAYING; j++) {
            int nl = game_legal_moves(&g, moves);
            seq[i][j] = moves[rng_choice_index(&r, nl)];
            game_move(&g, seq[i][j]);
        }
        if (g.status != STATUS_PLAYING) j--; /* end on a position still playing */
        seq[i][j] = -1;
        game_free(&g);
    }
}

/* Seconds per move + unmove pair of every empty square of every position,
 * on a game of back-end kind with the line features on or off. */
static double time_big_pairs(int (*seq)[80], BoardKind kind, bool features)
{
    Game g;
    GameOptions o = {15, 15, 5, kind, false, false};
    if (game_init(&g, &o, NULL, 0) != MB_OK || (features && linefeat_enable(&g.board) != MB_OK))
        exit(1);
    long pairs = 0;
    double t = 0;
    int moves[MB_MAX_CELLS];
    for (int i = 0; i < BIG_POSITIONS; i++) {
        game_restart(&g);
        for (int j = 0; seq[i][j] >= 0; j++) game_move(&g, seq[i][j]);
        int n = game_legal_moves(&g, moves);
        double t0 = clock_now();
        for (int rep = 0; rep < 200; rep++)
            for (int j = 0; j < n; j++) {
                game_move(&g, moves[j]);
                game_unmove(&g);
            }
        t += clock_now() - t0;
        pairs += 200L * n;
    }
    game_free(&g);
    return t / (double)pairs;
}

/* Nodes per second of αβ with the line evaluator: the root driver at
 * maxdepth over the candidates at distance d (0: every legal move), table
 * shared, from every fourth position. */
static double time_big_search(int (*seq)[80], int maxdepth, int d, uint64_t *nodes)
{
    Game g;
    GameOptions o = {15, 15, 5, BOARD_BITS, false, false};
    if (game_init(&g, &o, NULL, 0) != MB_OK || linefeat_enable(&g.board) != MB_OK) exit(1);
    uint64_t total = 0;
    double t = 0;
    for (int i = 0; i < BIG_POSITIONS; i += 4) {
        game_restart(&g);
        for (int j = 0; seq[i][j] >= 0; j++) game_move(&g, seq[i][j]);
        Search s;
        if (search_init(&s, &g, eval_lines_search_eval, NULL, maxdepth) != MB_OK) exit(1);
        s.use_tt = true;
        s.candidates = d;
        SearchRootResult r;
        double t0 = clock_now();
        if (search_root(&s, true, NULL, &r) != SEARCH_OK) exit(1);
        t += clock_now() - t0;
        total += r.total;
        search_free(&s);
    }
    game_free(&g);
    *nodes = total;
    return (double)total / t;
}

/* The issue-14 rows, interleaved run by run. */
static void bench_features(int runs)
{
    static int seq[BIG_POSITIONS][80];
    big_positions(seq);
    static const BoardKind kinds[2] = {BOARD_BITS, BOARD_LIST1D};
    double pairs[2][2][1000], nps[1000], nps_full[1000];
    uint64_t nodes = 0, nodes_full = 0;
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < 2; k++)
            for (int f = 0; f < 2; f++) pairs[k][f][r] = time_big_pairs(seq, kinds[k], f);
        nps_full[r] = time_big_search(seq, 1, 0, &nodes_full);
        nps[r] = time_big_search(seq, 2, 2, &nodes);
    }
    printf("\nissue 14 targets (15x15, k = 5; medians of %d runs):\n", runs);
    printf("%-44s %12s %14s  %s\n", "row", "features", "no features", "target");
    for (int k = 0; k < 2; k++) {
        char row[64];
        snprintf(row, sizeof row, "move + unmove pair, %s", board_kind_name(kinds[k]));
        printf("%-44s %9.1f ns %11.1f ns  <= 150 ns with features\n", row,
               1e9 * median(pairs[k][1], runs), 1e9 * median(pairs[k][0], runs));
    }
    printf("%-44s %8.2f M/s %14s  >= 1 M nodes/s\n", "αβ, C line evaluator, every legal move",
           median(nps_full, runs) / 1e6, "-");
    printf("%-44s %8.2f M/s %14s  (the generator's cost at\n",
           "αβ, C line evaluator, candidates d = 2", median(nps, runs) / 1e6, "-");
    printf("%-44s %8s %14s   every inner node)\n", "", "", "");
    printf("  (nodes a run: %llu at maxdepth 1 below each legal root move; %llu at maxdepth 2\n"
           "   below each root candidate; 4 positions of 8 to 56 marks)\n",
           (unsigned long long)nodes_full, (unsigned long long)nodes);
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    bool only_targets = argc > 2 && strcmp(argv[2], "--targets") == 0;
    bool only_features = argc > 2 && strcmp(argv[2], "--features") == 0;
    bool only_gomoku = argc > 2 && strcmp(argv[2], "--gomoku") == 0;
    if (runs < 1 || runs > 1000 || argc > 3 ||
        (argc == 3 && !only_targets && !only_features && !only_gomoku)) {
        fprintf(stderr, "usage: bench [RUNS] [--targets | --features | --gomoku]  (RUNS 1..1000, "
                        "default 7)\n");
        return 2;
    }
    if (only_gomoku) {
        bench_gomoku(runs);
        return 0;
    }
    if (only_targets) {
        bench_targets(runs);
        return 0;
    }
    if (only_features) {
        bench_features(runs);
        return 0;
    }
    bench_vcf(runs < 5 ? runs : 5);
    static int seq[NPOS][10];
    sample_positions(seq);
    double perft_ms[BOARD_KINDS][2], pairs_s[BOARD_KINDS][2], markpats_ns[BOARD_KINDS][2];

    printf("marubatsu engine benchmark: medians of %d runs; 3x3 board\n\n", runs);
    printf("%-9s %-8s %10s %8s %12s %11s\n", "back-end", "counters", "perft ms", "ns/node",
           "ai2 pairs/s", "markpats ns");
    /* interleave the configurations run by run, so machine noise hits all */
    double *samples = malloc(sizeof(double) * (size_t)runs * BOARD_KINDS * 2 * 3);
    for (int r = 0; r < runs; r++)
        for (int k = 0; k < BOARD_KINDS; k++)
            for (int c = 0; c < 2; c++) {
                Game g;
                make_game(&g, (BoardKind)k, c);
                double *s = samples + ((size_t)((k * 2 + c) * runs + r)) * 3;
                s[0] = time_perft(&g);
                s[1] = time_pairs(&g, 50000);
                s[2] = time_markpats(&g, seq, 20);
                game_free(&g);
            }
    for (int k = 0; k < BOARD_KINDS; k++)
        for (int c = 0; c < 2; c++) {
            double v[3][1000];
            for (int r = 0; r < runs; r++)
                for (int j = 0; j < 3; j++)
                    v[j][r] = samples[((size_t)((k * 2 + c) * runs + r)) * 3 + j];
            perft_ms[k][c] = 1e3 * median(v[0], runs);
            pairs_s[k][c] = 50000.0 / median(v[1], runs);
            markpats_ns[k][c] = 1e9 * median(v[2], runs);
            printf("%-9s %-8s %10.2f %8.2f %12.0f %11.1f\n", board_kind_name((BoardKind)k),
                   c ? "on" : "off", perft_ms[k][c], 1e6 * perft_ms[k][c] / 549946.0, pairs_s[k][c],
                   markpats_ns[k][c]);
        }
    free(samples);

    printf("\nwin checks of part 34 (full scan + judge), bitboard, counters off:\n");
    Game g;
    make_game(&g, BOARD_BITS, false);
    for (int a = 0; a < WINCHECK_ALGOS; a++) {
        double v[1000];
        for (int r = 0; r < runs; r++) v[r] = time_wincheck(&g, seq, a, 10);
        printf("  %d %-10s %7.1f ns per judge\n", a, wincheck_name(a), 1e9 * median(v, runs));
    }
    double v[1000];
    for (int r = 0; r < runs; r++) {
        volatile int sink = 0;
        double t0 = clock_now();
        for (int i = 0; i < NPOS; i++) {
            play_seq(&g, seq[i]);
            for (int j = 0; j < 10; j++) sink += game_judge(&g);
        }
        v[r] = (clock_now() - t0) / (NPOS * 10.0);
        (void)sink;
    }
    printf("  (engine's last-move judge, incl. replaying: %.1f ns)\n", 1e9 * median(v, runs));
    game_free(&g);

    bench_abs_dls();
    bench_targets(runs);
    bench_features(runs);
    bench_gomoku(runs < 3 ? runs : 3);
    return 0;
}
