/* bench_gomoku.c: the issue-23 rows of make bench, on 15x15 with five in a
 * row: the pattern codes' cost per move and the big-board search's speed.
 *   - a mark placed and lifted on a PatState alone (pattern.h), and a game's
 *     move + unmove with its line features and pattern codes on, beside the
 *     line features alone, over every empty square of fixed positions: ns;
 *   - pvs_search (pvs.h) to a fixed depth from three fixed positions (an
 *     opening, a middle game, a position with threats on both sides), a
 *     fresh table each run, no time limit: the time to that depth, the
 *     positions searched (search nodes + threat-search positions) and
 *     positions per second.
 * Medians of `runs` runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gomoku.h"
#include "marubatsu.h"
#include "linefeat.h"
#include "pattern.h"
#include "pvs.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The positions: Excel move lists on 15x15. */
static const struct {
    const char *name, *moves;
    int depth;
} positions[] = {
    {"opening (5 stones)", "H8,I9,G9,G7,I7", 6},
    {"middle game (22 stones)",
     "H8,I10,H9,H7,I8,J7,I7,J8,J6,G9,I6,I5,K6,L6,K7,K5,G6,H6,J4,J10,K10,L5", 6},
    {"threats (31 stones)",
     "H8,I10,H9,H7,G9,F9,F10,E11,G8,G10,J8,I8,H11,H10,J10,I9,I7,J6,I11,J9,G6,K10,L11,K9,G5,G7,"
     "H6,F4,F6,E6,D8",
     7},
};
#define NPOSITIONS (sizeof positions / sizeof positions[0])

static bool open_position(Game *g, const char *moves)
{
    GameOptions o = game_default_options();
    o.width = o.height = 15;
    o.k = 5;
    if (game_init(g, &o, NULL, 0) != MB_OK) return false;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int x, y;
        if (notation_excel_parse(t, &x, &y) != MB_OK) return false;
        int m = geometry_xy_to_move(game_geom(g), x, y);
        if (game_play(g, m) != MB_OK) return false;
    }
    return true;
}

/* ns per place + lift on a PatState over the empty squares of g. */
static double time_patstate(const Game *g)
{
    PatState *ps = pat_new(game_geom(g), NULL);
    if (!ps) return 0;
    pat_recount(ps, &g->board);
    int legal[MB_MAX_CELLS], n = game_legal_moves(g, legal);
    long reps = 0;
    double t0 = clock_now();
    do {
        for (int i = 0; i < n; i++) {
            pat_place(ps, legal[i], g->turn);
            pat_lift(ps, legal[i], g->turn);
        }
        reps += n;
    } while (clock_now() - t0 < 0.2);
    double t = clock_now() - t0;
    pat_free(ps);
    return 1e9 * t / (double)reps;
}

/* ns per game_move + game_unmove over the empty squares of g. */
static double time_game(Game *g)
{
    int legal[MB_MAX_CELLS], n = game_legal_moves(g, legal);
    long reps = 0;
    double t0 = clock_now();
    do {
        for (int i = 0; i < n; i++) {
            game_move(g, legal[i]);
            game_unmove(g);
        }
        reps += n;
    } while (clock_now() - t0 < 0.2);
    return 1e9 * (clock_now() - t0) / (double)reps;
}

void bench_gomoku(int runs)
{
    if (runs < 1) runs = 1;
    printf("\nissue 23: pattern codes and the big-board search (15x15, k = 5; medians of %d "
           "runs)\n",
           runs);
    double *v = malloc(sizeof(double) * (size_t)runs * 3);
    Game g;
    if (!v || !open_position(&g, positions[1].moves)) {
        fprintf(stderr, "bench: cannot set up the gomoku rows\n");
        free(v);
        return;
    }
    for (int r = 0; r < runs; r++) {
        v[r] = time_patstate(&g);
        linefeat_enable(&g.board);
        v[runs + r] = time_game(&g);
        linefeat_enable_patterns(&g.board);
        v[2 * runs + r] = time_game(&g);
        linefeat_disable(&g.board);
    }
    printf("%-52s %9.1f ns\n", "a mark placed + lifted on a PatState", median(v, runs));
    printf("%-52s %9.1f ns\n", "game move + unmove, line features", median(v + runs, runs));
    printf("%-52s %9.1f ns\n", "game move + unmove, line features + pattern codes",
           median(v + 2 * runs, runs));
    game_free(&g);

    size_t bytes = pvs_table_bytes(20);
    void *mem = malloc(bytes);
    if (!mem) {
        free(v);
        return;
    }
    Pvs p;
    pvs_init(&p, mem, 20);
    printf("%-30s %6s %12s %14s %12s\n", "pvs_search (tt 2^20)", "depth", "time ms", "positions",
           "positions/s");
    for (size_t i = 0; i < NPOSITIONS; i++) {
        if (!open_position(&g, positions[i].moves)) {
            fprintf(stderr, "bench: bad position %s\n", positions[i].name);
            continue;
        }
        PvsOptions o = pvs_default_options();
        o.timelimit = -1;
        o.maxdepth = positions[i].depth;
        uint64_t count = 0;
        for (int r = 0; r < runs; r++) {
            pvs_clear(&p);
            PvsResult res;
            double t0 = clock_now();
            pvs_search(&p, &g, &o, &res);
            v[r] = clock_now() - t0;
            count = res.nodes + res.vcf_nodes;
            v[runs + r] = (double)count / v[r];
        }
        printf("%-30s %6d %12.1f %14llu %12.0f\n", positions[i].name, positions[i].depth,
               1e3 * median(v, runs), (unsigned long long)count, median(v + runs, runs));
        game_free(&g);
    }
    free(mem);
    free(v);
}
