/* bench.c: the engine's speed table (make bench). For every back-end x
 * count_linemark, side by side in one run, medians of several runs:
 *   perft       the 3x3 tree (549,946 nodes) by move/unmove+judge: ms, ns/node
 *   ai2 pairs   random-vs-random pairs of games (the series' ai2 VS ai2 "it")
 *               with the CPython-compatible stream, seed 0: pairs/s
 *   markpats    count_markpats on positions of random games: M calls/s
 * then the six full-scan win checks of part 34 on one back-end, and the
 * series' own Python figures (matches.md §6) with the ratio to ours. The
 * Python figures were measured by the series' author on another machine.
 *
 * Usage: bench [RUNS]   (default 7 runs per figure; the median is shown) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "marubatsu.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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
    GameOptions o = {3, 3, 0, kind, counters};
    if (game_init(g, &o, NULL, 0) != MB_OK) {
        fprintf(stderr, "bench: cannot create a game\n");
        exit(1);
    }
}

/* Seconds for one full 3x3 perft. */
static double time_perft(Game *g)
{
    uint64_t nodes[10], fin[10];
    double t0 = now();
    perft_run(g, 9, nodes, fin, NULL, NULL);
    double dt = now() - t0;
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
    double t0 = now();
    for (int i = 0; i < 2 * pairs; i++) {
        game_restart(g);
        while (g->status == STATUS_PLAYING) {
            int n = game_legal_moves(g, moves);
            game_move(g, moves[rng_choice_index(&r, n)]);
        }
    }
    double dt = now() - t0;
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
        double t0 = now();
        for (int r = 0; r < reps; r++) {
            markpats_of_game(g, hist);
            sink += hist[r & 15];
        }
        total += now() - t0;
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
        double t0 = now();
        for (int r = 0; r < reps; r++) sink += wincheck_judge(&g->board, algo, &err);
        total += now() - t0;
    }
    (void)sink;
    return total / ((double)NPOS * reps);
}

/* The series' ai2 VS ai2 figures (it/s = pairs/s), part 195 (ListBoard and
 * List1dBoard) and part 206 (NpBoolBoard, the series' bit planes). */
static const double python_pairs[BOARD_KINDS][2] = {
    {11848.56, 15077.96}, {9057.91, 10490.45}, {5555.23, 6596.47}};
static const char *const python_names[BOARD_KINDS] = {"ListBoard", "List1dBoard", "NpBoolBoard"};

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
        double t0 = now();
        if (fresh) {
            if (search_init(&s, g, eval14_search_eval, NULL, 8) != MB_OK) exit(1);
            s.use_tt = true;
        }
        int rc = search_root(&s, true, NULL, &r);
        if (fresh) search_free(&s);
        v[i] = now() - t0;
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
           "target 30 us, the series' Python 22.7-36.8 ms\n");
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

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: bench [RUNS]  (1..1000, default 7)\n");
        return 2;
    }
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
                for (int j = 0; j < 3; j++) v[j][r] = samples[((size_t)((k * 2 + c) * runs + r)) * 3 + j];
            perft_ms[k][c] = 1e3 * median(v[0], runs);
            pairs_s[k][c] = 50000.0 / median(v[1], runs);
            markpats_ns[k][c] = 1e9 * median(v[2], runs);
            printf("%-9s %-8s %10.2f %8.2f %12.0f %11.1f\n", board_kind_name((BoardKind)k),
                   c ? "on" : "off", perft_ms[k][c], 1e6 * perft_ms[k][c] / 549946.0,
                   pairs_s[k][c], markpats_ns[k][c]);
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
        double t0 = now();
        for (int i = 0; i < NPOS; i++) {
            play_seq(&g, seq[i]);
            for (int j = 0; j < 10; j++) sink += game_judge(&g);
        }
        v[r] = (now() - t0) / (NPOS * 10.0);
        (void)sink;
    }
    printf("  (engine's last-move judge, incl. replaying: %.1f ns)\n", 1e9 * median(v, runs));
    game_free(&g);

    printf("\nthe series' Python figures (author's PC, another machine; matches.md §6):\n");
    printf("%-12s %-8s %14s %14s %9s\n", "series", "counters", "Python it/s", "ours pairs/s", "ratio");
    for (int k = 0; k < BOARD_KINDS; k++)
        for (int c = 0; c < 2; c++)
            printf("%-12s %-8s %14.2f %14.0f %8.0fx\n", python_names[k], c ? "on" : "off",
                   python_pairs[k][c], pairs_s[k][c], pairs_s[k][c] / python_pairs[k][c]);
    double best = perft_ms[0][0];
    for (int k = 0; k < BOARD_KINDS; k++)
        for (int c = 0; c < 2; c++)
            if (perft_ms[k][c] < best) best = perft_ms[k][c];
    printf("full tree: Python 562598.73 nodes/s (part 118, building the best-move table)\n"
           "           ours %.0f nodes/s (perft, fastest back-end): %.0fx\n",
           549946.0 / (best / 1e3), (549946.0 / (best / 1e3)) / 562598.73);
    bench_abs_dls();
    return 0;
}
