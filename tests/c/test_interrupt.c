/* test_interrupt.c: the interrupt flag (interrupt.h) and the limited
 * tables (tt.h "The limit", solve_set_hash, the MCTS arena).
 *
 * Interrupts: a SIGALRM handler raises the flag 0.3 s into a search that
 * would run for hours (as the program's SIGINT handler does), and each of
 * them stops with its interrupted status well within 0.5 s of it (the
 * target is 100 ms; the margin is for a loaded machine) with the game as
 * it was given: the αβ iterative deepening on 7x6 k4, the series' minimax
 * on 4x4, the solver on 8x8 k5, MCTS on 9x9, the pattern search on 15x15;
 * with the flag raised before
 * the call, the root driver stops at its first node, the game tree's build
 * and scoring stop, and VCT stops exactly at its first check (node 1,024)
 * in every position that reaches it. (A search that ignores the flag ends
 * the test program after 30 s with a message, instead of running on.)
 * Limits: a table limited to 1,024 slots never grows past them, keeps at
 * most three quarters in use, says it is full, and every entry it still
 * finds holds the bounds stored for its key (Zobrist and packed keys);
 * entries stored near the root outlive a flood of deeper ones far more
 * than deep ones outlive a flood of shallower ones (depth-preferred); the
 * 3x3 benchmark search counts its 1,175 nodes under the smallest limit;
 * the solver under a 1 MB limit solves (5,4,4) a draw as without one; an
 * iterative deepening run into its limit (64 KB: two tables of 1,024
 * slots) reports it (tt_full) and never holds more. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "eval14.h"
#include "pvs.h"
#include "testutil.h"

/* ---- A SIGALRM that raises the flag, as a person's Ctrl-C would ---- */

static volatile double raised_at;   /* clock_now() when the handler first ran */
static volatile sig_atomic_t ticks; /* its runs: every 0.5 s after the first */

static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_alarm(int sig)
{
    (void)sig;
    if (ticks++ == 0) raised_at = monotonic();
    mb_interrupt_raise();
    if (ticks > 60) { /* 30 s: the search never looked at the flag */
        static const char msg[] = "test_interrupt: a search ignored the interrupt flag for 30 s\n";
        if (write(2, msg, sizeof msg - 1) < 0) _exit(2);
        _exit(1);
    }
}

/* Raise the flag `seconds` from now. */
static void arm(double seconds)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    raised_at = 0;
    ticks = 0;
    mb_interrupt_clear();
    struct itimerval it = {{0, 500000}, {0, (long)(seconds * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
}

/* Seconds from the raise to now (a large value when it never came); the
 * timer disarmed and the flag lowered. */
static double latency(void)
{
    double now = monotonic();
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    signal(SIGALRM, SIG_DFL);
    mb_interrupt_clear();
    return raised_at > 0 ? now - raised_at : 1e9;
}

#define MAX_LATENCY 0.5 /* seconds: the target is 0.1, the rest is load */

/* The text of g's position and record, to check it is restored. */
static void snapshot(const Game *g, char *buf, size_t len)
{
    char key[MB_MAX_CELLS + 1];
    board_key(&g->board, key);
    int n = snprintf(buf, len, "%s %d %d", key, g->move_count, g->status);
    for (int i = 1; i <= g->move_count && n > 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, ",%d", g->records[i]);
}

static char before[8192], after[8192];

TEST(iddfs_7x6_stops)
{
    Game g;
    if (!t_open_game(&g, 7, 6, 4, 0)) return;
    game_move(&g, 24);
    snapshot(&g, before, sizeof before);
    Search s;
    SearchIter *it = malloc((MB_MAX_CELLS + 1) * sizeof *it);
    SearchIddfsResult out;
    CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 1), MB_OK);
    SearchIddfsOptions o = {
        .timelimit = 1e6, .moveordering = true, .use_tt = true, .share_tt = true};
    arm(0.3);
    int rc = search_iddfs(&s, &o, NULL, it, MB_MAX_CELLS + 1, &out);
    double lat = latency();
    CHECK_INT(rc, SEARCH_INTERRUPTED);
    CHECK(lat < MAX_LATENCY);
    snapshot(&g, after, sizeof after);
    CHECK_STR(after, before);
    search_free(&s);
    free(it);
    game_free(&g);
}

TEST(root_driver_stops_at_once)
{
    Game g;
    if (!t_open_game(&g, 3, 3, 3, 0)) return;
    Search s;
    SearchRootResult r;
    CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 8), MB_OK);
    s.use_tt = true;
    mb_interrupt_raise();
    CHECK_INT(search_root(&s, true, NULL, &r), SEARCH_INTERRUPTED);
    CHECK_U64(r.total, 0); /* the first node's check */
    mb_interrupt_clear();
    CHECK_INT(search_root(&s, true, NULL, &r), SEARCH_OK);
    CHECK_U64(r.total, 1175);
    search_free(&s);
    game_free(&g);
}

TEST(searchers_4x4_stop)
{
    Game g;
    if (!t_open_game(&g, 4, 4, 4, 0)) return;
    snapshot(&g, before, sizeof before);
    FullDepthRoot r;
    arm(0.3);
    int rc = fulldepth_root(&g, FULL_MMDFS, NULL, false, &r);
    double lat = latency();
    CHECK_INT(rc, MB_EINTR);
    CHECK(lat < MAX_LATENCY);
    snapshot(&g, after, sizeof after);
    CHECK_STR(after, before);
    game_free(&g);
}

TEST(solve_8x8_stops)
{
    Game g;
    if (!t_open_game(&g, 8, 8, 5, 0)) return;
    Solve s;
    solve_init(&s);
    SolveResult r;
    arm(0.3);
    int rc = solve_position(&s, &g, &r);
    double lat = latency();
    CHECK_INT(rc, MB_EINTR);
    CHECK(lat < MAX_LATENCY);
    CHECK(s.interrupted);
    solve_free(&s);
    game_free(&g);
}

TEST(mcts_9x9_stops)
{
    Game g;
    if (!t_open_game(&g, 9, 9, 5, 0)) return;
    snapshot(&g, before, sizeof before);
    MctsOptions o = mcts_default_options();
    o.max_nodes = 1 << 16; /* small: the arena fills, the search goes on */
    Mcts *m = mcts_new(&o);
    MctsResult r;
    arm(0.3);
    int rc = mcts_search(m, &g, 1000000000L, 0, &r);
    double lat = latency();
    CHECK_INT(rc, MB_EINTR);
    CHECK(lat < MAX_LATENCY);
    CHECK(r.playouts > 0);
    snapshot(&g, after, sizeof after);
    CHECK_STR(after, before);
    mcts_free(m);
    game_free(&g);
}

TEST(pattern_search_15x15_stops)
{
    Game g;
    if (!t_open_game(&g, 15, 15, 5, 0)) return;
    t_play_list(&g, "H8,I9,G9,J8"); /* no forced win: the deepening goes on */
    snapshot(&g, before, sizeof before);
    void *mem = calloc(1, pvs_table_bytes(16));
    Pvs p;
    pvs_init(&p, mem, 16);
    PvsOptions o = pvs_default_options();
    o.timelimit = 1e6;
    o.maxdepth = PVS_MAX_PLY / 2;
    o.soft = 1;
    PvsResult r;
    arm(0.3);
    int rc = pvs_search(&p, &g, &o, &r);
    double lat = latency();
    CHECK_INT(rc, MB_EINTR);
    CHECK(lat < MAX_LATENCY);
    snapshot(&g, after, sizeof after);
    CHECK_STR(after, before);
    free(mem);
    game_free(&g);
}

TEST(vct_stops_at_its_first_check)
{
    Game g;
    if (!t_open_game(&g, 15, 15, 5, 0)) return;
    Vcf v;
    CHECK_INT(vcf_init(&v), MB_OK);
    VcfOptions vo = vcf_default_options();
    vo.vct = true;
    vo.maxdepth = 6;
    Rng rng;
    rng_seed(&rng, 15);
    int stopped = 0;
    for (int t = 0; t < 40; t++) {
        t_random_position(&g, &rng);
        while (g.move_count < 40 && g.status == STATUS_PLAYING) {
            int moves[MB_MAX_CELLS], n = game_legal_moves(&g, moves);
            game_move(&g, moves[rng_randbelow(&rng, (uint64_t)n)]);
        }
        if (g.status != STATUS_PLAYING) continue;
        VcfResult r;
        mb_interrupt_clear();
        CHECK_INT(vcf_solve(&v, &g, &vo, &r), MB_OK);
        bool long_one = r.nodes >= 1024;
        vcf_free(&v); /* a fresh table of failures: the same search again */
        CHECK_INT(vcf_init(&v), MB_OK);
        mb_interrupt_raise();
        CHECK_INT(vcf_solve(&v, &g, &vo, &r), MB_OK);
        mb_interrupt_clear();
        vcf_free(&v);
        CHECK_INT(vcf_init(&v), MB_OK);
        if (long_one) {
            CHECK_INT(r.status, VCF_INTERRUPTED);
            CHECK_U64(r.nodes, 1024);
            stopped++;
        } else {
            CHECK(r.status != VCF_INTERRUPTED);
        }
    }
    CHECK(stopped > 0);
    CHECK_STR(vcf_status_name(VCF_INTERRUPTED), "interrupted");
    vcf_free(&v);
    game_free(&g);
}

TEST(tree_build_stops)
{
    Tree t;
    mb_interrupt_raise();
    CHECK_INT(tree_build(&t, TREE_DF, NULL), MB_EINTR);
    tree_free(&t);
    CHECK_INT(tree_build(&t, TREE_BF, NULL), MB_EINTR);
    tree_free(&t);
    mb_interrupt_clear();
    CHECK_INT(tree_build(&t, TREE_DF, NULL), MB_OK);
    mb_interrupt_raise();
    CHECK_INT(tree_score(&t, SCORING_SV), MB_EINTR);
    mb_interrupt_clear();
    CHECK_INT(tree_score(&t, SCORING_SV), MB_OK);
    tree_free(&t);
    CHECK_STR(mb_strerror(MB_EINTR), "interrupted");
}

/* ---- Limited tables ---- */

/* A key's stored bounds, to check what a probe finds. */
static double lower_of(uint64_t key) { return (double)(key % 1000); }

/* Store n Zobrist-style keys from `seed` at `depth` into t. */
static void flood(TT *t, uint64_t seed, int n, int depth)
{
    for (int i = 0; i < n; i++) {
        uint64_t key = (seed + (uint64_t)i) * 0x9E3779B97F4A7C15ull ^ seed;
        int move = i % 7;
        CHECK_INT(tt_store_packed_n(t, TT_HASHED_KEYS, &key, &move, 1, lower_of(key),
                                    lower_of(key) + 1, depth),
                  MB_OK);
    }
}

/* How many of the n keys from `seed` are found, each with its bounds. */
static int found(const TT *t, uint64_t seed, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint64_t key = (seed + (uint64_t)i) * 0x9E3779B97F4A7C15ull ^ seed;
        TTEntry e;
        if (!tt_probe_packed(t, TT_HASHED_KEYS, key, &e)) continue;
        CHECK(e.lower == lower_of(key) && e.upper == lower_of(key) + 1 && e.move == i % 7);
        k++;
    }
    return k;
}

TEST(tt_limit_holds)
{
    TT t;
    tt_init(&t);
    tt_set_limit(&t, 1024 * sizeof(TTSlot));
    CHECK_U64(t.max_cap, 1024);
    flood(&t, 1, 300, 3);
    CHECK(!t.full);
    CHECK_INT(found(&t, 1, 300), 300); /* exact below the limit */
    flood(&t, 99991, 50000, 3);
    CHECK(t.full);
    CHECK_U64(t.cap, 1024);
    CHECK(tt_count(&t) <= 768);
    CHECK(found(&t, 99991, 50000) > 300); /* what it holds is right */
    tt_clear(&t);
    CHECK(!t.full);
    /* a smaller limit frees a larger table */
    tt_set_limit(&t, 0);
    flood(&t, 7, 20000, 1);
    CHECK(t.cap >= 32768);
    tt_set_limit(&t, 1);
    CHECK_U64(t.cap, 0);
    CHECK_U64(t.max_cap, TT_MIN_LIMIT_SLOTS);
    tt_free(&t);
    CHECK_U64(t.max_cap, TT_MIN_LIMIT_SLOTS); /* the limit outlives the memory */
    tt_free(&t);
}

TEST(tt_limit_prefers_the_root)
{
    /* 600 entries near the root (depth 1), then a flood of deep ones
     * (depth 9): many of the first stay; the same with the depths swapped
     * keeps none */
    int kept[2];
    for (int swap = 0; swap < 2; swap++) {
        TT t;
        tt_init(&t);
        tt_set_limit(&t, 1024 * sizeof(TTSlot));
        flood(&t, 5, 600, swap ? 9 : 1);
        flood(&t, 777777, 20000, swap ? 1 : 9);
        kept[swap] = found(&t, 5, 600);
        tt_free(&t);
    }
    CHECK(kept[0] > 2 * kept[1]);
    CHECK(kept[0] > 200); /* 272 of 600: ties erode them a little */
}

TEST(tt_limit_packed_keys)
{
    /* packed keys on 6x5: the depth is the key's marks */
    TT t;
    tt_init(&t);
    tt_set_limit(&t, 1024 * sizeof(TTSlot));
    Rng r;
    rng_seed(&r, 3);
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t key = 0;
        for (int sq = 0; sq < 30; sq++)
            key = tt_key_add(key, sq, (unsigned)rng_randbelow(&r, 3) & 3u);
        int move = (int)(key % 30);
        CHECK_INT(tt_store_packed_n(&t, 30, &key, &move, 1, (double)(key % 97), 50, 0), MB_OK);
        TTEntry e;
        if (tt_probe_packed(&t, 30, key, &e) && (e.lower != (double)(key % 97) || e.move != move))
            bad++;
    }
    CHECK_INT(bad, 0);
    CHECK(t.full && t.cap == 1024 && tt_count(&t) <= 768);
    tt_free(&t);
}

TEST(limits_keep_the_3x3_counts)
{
    Game g;
    if (!t_open_game(&g, 3, 3, 3, 0)) return;
    Search s;
    SearchRootResult r;
    CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 8), MB_OK);
    search_set_hash(&s, (size_t)1 << 20); /* the smallest `hash` */
    s.use_tt = true;
    CHECK_INT(search_root(&s, true, NULL, &r), SEARCH_OK);
    CHECK_U64(r.total, 1175);
    CHECK(!s.tt.full);
    search_free(&s);
    FullDepth sr;
    FullDepthOpts so = {.use_tt = true, .shortest_victory = true};
    fulldepth_init(&sr, FULL_ABS_ALL, &so);
    fulldepth_set_hash(&sr, (size_t)1 << 20);
    fulldepth_run(&sr, &g);
    CHECK_U64(sr.count, 1275);
    CHECK(!fulldepth_table_full(&sr));
    fulldepth_free(&sr);
    game_free(&g);
}

TEST(solver_under_a_small_limit)
{
    Game g;
    if (!t_open_game(&g, 5, 4, 4, 0)) return;
    Solve s;
    solve_init(&s);
    solve_set_hash(&s, (size_t)1 << 16); /* 2,048 slots of 24 bytes: full at once */
    SolveResult r;
    CHECK_INT(solve_position(&s, &g, &r), MB_OK);
    CHECK_INT(r.value, 0);
    CHECK(r.full);
    CHECK(s.cap <= 4096 && r.table <= s.cap * 3 / 4);
    solve_free(&s);
    solve_init(&s);
    SolveResult full;
    CHECK_INT(solve_position(&s, &g, &full), MB_OK);
    CHECK_INT(full.value, 0);
    CHECK_INT(full.distance, r.distance);
    CHECK(!full.full);
    CHECK(full.nodes < r.nodes); /* the small table costs nodes, not the answer */
    solve_free(&s);
    game_free(&g);
}

TEST(iddfs_reports_a_full_table)
{
    /* a cap of 64 KB: two tables of 1,024 slots, full at depth 2 on 7x6
     * (the run is cut by its time limit; depth 2 takes milliseconds) */
    Game g;
    if (!t_open_game(&g, 7, 6, 4, 0)) return;
    game_move(&g, 24);
    Search s;
    SearchIter *it = malloc((MB_MAX_CELLS + 1) * sizeof *it);
    SearchIddfsResult out;
    CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 1), MB_OK);
    search_set_hash(&s, (size_t)1 << 16);
    SearchIddfsOptions o = {.timelimit = 2, .moveordering = true, .use_tt = true, .share_tt = true};
    CHECK_INT(search_iddfs(&s, &o, NULL, it, MB_MAX_CELLS + 1, &out), SEARCH_OK);
    CHECK(out.niter >= 3);
    CHECK(!it[0].tt_full && !it[1].tt_full); /* depth 1 stores the root's 41 children */
    CHECK(out.niter < 3 || it[2].tt_full);   /* depth 2: 41 x 40 positions, 4 images each */
    for (int i = 0; i < out.niter; i++) CHECK(it[i].tt_size <= 768); /* 3/4 of 1,024 slots */
    CHECK(s.tt.cap <= TT_MIN_LIMIT_SLOTS && s.tt_prev.cap == 0);     /* the previous one freed */
    search_free(&s);
    free(it);
    game_free(&g);
}

const TestCase interrupt_tests[] = {
    {"iddfs_7x6_stops", iddfs_7x6_stops},
    {"root_driver_stops_at_once", root_driver_stops_at_once},
    {"searchers_4x4_stop", searchers_4x4_stop},
    {"solve_8x8_stops", solve_8x8_stops},
    {"mcts_9x9_stops", mcts_9x9_stops},
    {"pattern_search_15x15_stops", pattern_search_15x15_stops},
    {"vct_stops_at_its_first_check", vct_stops_at_its_first_check},
    {"tree_build_stops", tree_build_stops},
    {"tt_limit_holds", tt_limit_holds},
    {"tt_limit_prefers_the_root", tt_limit_prefers_the_root},
    {"tt_limit_packed_keys", tt_limit_packed_keys},
    {"limits_keep_the_3x3_counts", limits_keep_the_3x3_counts},
    {"solver_under_a_small_limit", solver_under_a_small_limit},
    {"iddfs_reports_a_full_table", iddfs_reports_a_full_table},
    {0},
};
