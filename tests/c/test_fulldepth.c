/* test_fulldepth.c: the full-depth searchers against the series' node counts
 * and root values (spec ais.md §11.2), from the empty board and after
 * 〇(1,1), on every back-end (and the bitboard with line counters); the
 * 549,945-node ai_mmdfs search from the empty board on the bitboard only.
 * The searchers leave the game as found, a replayed future of the record
 * included (fulldepth.h's promise, kept by game_mark / game_rewind). */
#include "testutil.h"

/* One row of §11.2: a searcher with its options, shared table or not, the
 * totals (0: not checked there), per-child counts from the empty board
 * (first 0: not checked) and the table size at the end (0: not checked). */
typedef struct Row {
    FullDepthId id;
    FullDepthOpts opt;
    bool shared;
    uint64_t empty_total;
    uint64_t per_child[9];
    size_t table;
    uint64_t after_total;
} Row;

#define NOOPT                                                                                      \
    {                                                                                              \
        false, false, false, FULL_ORDER_NONE, 0                                                    \
    }
#define SV                                                                                         \
    {                                                                                              \
        true, false, false, FULL_ORDER_NONE, 0                                                     \
    }
#define TTO                                                                                        \
    {                                                                                              \
        false, true, false, FULL_ORDER_NONE, 0                                                     \
    }
#define TTI                                                                                        \
    {                                                                                              \
        false, true, true, FULL_ORDER_NONE, 0                                                      \
    }
#define TTISV                                                                                      \
    {                                                                                              \
        true, true, true, FULL_ORDER_NONE, 0                                                       \
    }
#define TT_SORT                                                                                    \
    {                                                                                              \
        false, true, false, FULL_ORDER_AI14S_SORT, 0                                               \
    }
#define TT_SWAP                                                                                    \
    {                                                                                              \
        false, true, false, FULL_ORDER_AI14S_SWAP, 0                                               \
    }

static const Row rows[] = {
    {FULL_MMDFS,
     NOOPT,
     false,
     549945,
     {59705, 63905, 59705, 63905, 55505, 63905, 59705, 63905, 59705},
     0,
     55504},
    {FULL_MMDFS_ALL, NOOPT, false, 0, {0}, 0, 55504},
    {FULL_MMDFS_TT,
     NOOPT,
     false,
     15191,
     {1820, 1817, 1820, 1817, 643, 1817, 1820, 1817, 1820},
     0,
     4080},
    {FULL_MMDFS_ALL,
     TTO,
     false,
     15191,
     {1820, 1817, 1820, 1817, 643, 1817, 1820, 1817, 1820},
     0,
     4080},
    {FULL_MMDFS_ALL, TTO, true, 2270, {1820, 421, 1, 1, 23, 1, 1, 1, 1}, 4519, 642},
    {FULL_ABS,
     NOOPT,
     false,
     30709,
     {2338, 2869, 3275, 3574, 2316, 3590, 3809, 4981, 3957},
     0,
     6138},
    {FULL_ABS2,
     NOOPT,
     false,
     30709,
     {2338, 2869, 3275, 3574, 2316, 3590, 3809, 4981, 3957},
     0,
     6138},
    {FULL_ABS_ALL,
     NOOPT,
     false,
     30709,
     {2338, 2869, 3275, 3574, 2316, 3590, 3809, 4981, 3957},
     0,
     6138},
    {FULL_ABS3, NOOPT, false, 27565, {0}, 0, 4663},
    {FULL_NWS_3SCORE2, NOOPT, false, 27565, {0}, 0, 4663},
    {FULL_NWS_3SCORE, NOOPT, false, 94977, {0}, 0, 8481},
    {FULL_ABS_TT, NOOPT, false, 10798, {0}, 0, 2778},
    {FULL_ABS_TT, SV, false, 14292, {0}, 0, 4338},
    {FULL_ABS_TT2, NOOPT, false, 6718, {0}, 0, 2003},
    {FULL_ABS_TT3, NOOPT, false, 6641, {0}, 0, 2000},
    {FULL_ABS_TT4, NOOPT, false, 5511, {0}, 0, 1489},
    {FULL_NWS_3SCORE_TT, NOOPT, false, 5511, {0}, 0, 1489},
    {FULL_ABS_ALL, TTI, false, 5511, {0}, 0, 1489},
    {FULL_ABS_TT4, SV, false, 7362, {0}, 0, 2539},
    {FULL_ABS_ALL, TTISV, false, 7362, {0}, 0, 2539},
    {FULL_ABS_ALL, TTO, true, 1153, {699, 348, 1, 1, 100, 1, 1, 1, 1}, 3219, 337},
    {FULL_ABS_ALL, TTI, true, 933, {0}, 2999, 269},
    {FULL_ABS_ALL, TT_SORT, true, 415, {178, 144, 1, 1, 87, 1, 1, 1, 1}, 1457, 181},
    {FULL_ABS_ALL, TT_SWAP, true, 415, {178, 144, 1, 1, 87, 1, 1, 1, 1}, 1457, 181},
    {FULL_SCOUT, NOOPT, false, 40353, {0}, 0, 6084},
    {FULL_SCOUT, TTO, true, 1079, {0}, 3159, 291},
    {FULL_MTDF, NOOPT, false, 30327, {0}, 0, 6889},
    {FULL_MTDF, TTO, true, 999, {564, 325, 2, 2, 98, 2, 2, 2, 2}, 2999, 332},
    {FULL_MTDF, TTISV, true, 999, {564, 325, 2, 2, 98, 2, 2, 2, 2}, 2999, 504},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* Run row r on g (config c) from where it stands; check total, per-child
 * counts and table size against the row when `empty`, else the after
 * total; and the root values (all 0 from the empty board; 0,1,0,1,1,0,1,0
 * after 〇(1,1), 2 for 1 with sv). */
static void check_row(const Row *r, Game *g, bool empty, int c)
{
    FullDepthRoot res;
    CHECK_INT(fulldepth_root(g, r->id, &r->opt, r->shared, &res), MB_OK);
    const char *name = fulldepth_name(r->id);
    uint64_t want = empty ? r->empty_total : r->after_total;
    if (res.total != want)
        t_fail(__FILE__, __LINE__,
               "%s sv=%d tt=%d init=%d shared=%d config %d %s: %llu nodes, expected %llu", name,
               r->opt.shortest_victory, r->opt.use_tt, r->opt.init_ab, r->shared, c,
               empty ? "empty" : "after (1,1)", (unsigned long long)res.total,
               (unsigned long long)want);
    if (empty) {
        CHECK_INT(res.n, 9);
        if (r->per_child[0])
            for (int i = 0; i < res.n; i++) CHECK_U64(res.counts[i], r->per_child[i]);
        if (r->table) CHECK_INT(res.table_count, r->table);
        for (int i = 0; i < res.n; i++) CHECK(res.values[i] == 0);
    } else {
        static const int v[8] = {0, 1, 0, 1, 1, 0, 1, 0};
        CHECK_INT(res.n, 8);
        for (int i = 0; i < res.n && i < 8; i++) {
            double w = v[i] && r->opt.shortest_victory ? 2 : v[i];
            if (res.values[i] != w)
                t_fail(__FILE__, __LINE__, "%s child %d: value %g, expected %g", name, i,
                       res.values[i], w);
        }
    }
}

/* Every row on configuration c (T_KINDS_FIRST: 0 list, 1 list1d, 2
 * bitboard, 5 bitboard with line counters). */
static void run_config(int c)
{
    Game g;
    if (!t_open_game(&g, 3, 3, 3, c)) return;
    for (size_t i = 0; i < NROWS; i++) {
        bool big = rows[i].id == FULL_MMDFS && c != 2;
        if (rows[i].empty_total && !big) check_row(&rows[i], &g, true, c);
    }
    t_play_list(&g, "B2");
    for (size_t i = 0; i < NROWS; i++) check_row(&rows[i], &g, false, c);
    CHECK_INT(g.move_count, 1);
    game_free(&g);
}

TEST(counts_list) { run_config(0); }
TEST(counts_bits) { run_config(2); }
TEST(counts_list1d) { run_config(1); }
TEST(counts_bits_counters) { run_config(5); }

/* A caller-held searcher keeps its table across calls (§7) and clears it
 * for §6 ones; counts add up; the game is left as found. */
TEST(fulldepth_api)
{
    Game g;
    if (!t_open_game(&g, 3, 3, 3, 2)) return;
    t_play_list(&g, "B2,A1");
    char before[MB_MAX_CELLS + 1], after[MB_MAX_CELLS + 1];
    board_key(&g.board, before);
    FullDepthOpts o = {false, true, false, FULL_ORDER_NONE, 0};
    FullDepth s;
    fulldepth_init(&s, FULL_ABS_ALL, &o);
    double v1 = fulldepth_run(&s, &g);
    uint64_t c1 = s.count;
    double v2 = fulldepth_run(&s, &g);
    CHECK(v1 == 0 && v2 == 0);
    CHECK_U64(s.count, c1 + 1); /* the second call is one table hit */
    fulldepth_clear(&s);
    CHECK_U64(s.count, 0);
    CHECK_INT(fulldepth_table_count(&s), 0);
    fulldepth_free(&s);
    board_key(&g.board, after);
    CHECK_STR(after, before);
    CHECK_INT(g.move_count, 2);
    CHECK_STR(fulldepth_name(FULL_NWS_3SCORE_TT), "ai_nws_3score_tt");
    game_free(&g);
}

/* A game replayed back to move 2 of 5 keeps its recorded future through
 * fulldepth_root_with, fulldepth_run and fulldepth_pv. */
TEST(record_future_kept)
{
    Game g;
    CHECK_INT(game_init(&g, NULL, NULL, 0), MB_OK);
    t_play_list(&g, "B2,A1,C3,A3,A2");
    game_change_step(&g, 2);
    int want[6];
    memcpy(want, g.records, sizeof want);
    FullDepthOpts o = {false, true, false, FULL_ORDER_AI14S_SORT, 0};
    FullDepth s;
    fulldepth_init(&s, FULL_ABS_ALL, &o);
    FullDepthRoot r;
    CHECK_INT(fulldepth_root_with(&s, &g, true, &r), MB_OK);
    CHECK_INT(r.n, 7);
    CHECK(fulldepth_run(&s, &g) == 0);
    int pv[MB_MAX_CELLS];
    bool complete;
    CHECK(fulldepth_pv(&s, &g, r.moves[0], r.values[0], pv, &complete) > 1);
    CHECK_INT(g.move_count, 2);
    CHECK_INT(g.nrecords, 6);
    CHECK(memcmp(g.records, want, sizeof want) == 0);
    CHECK(game_ok(&g));
    fulldepth_free(&s);
    game_free(&g);
}

const TestCase fulldepth_tests[] = {
    {"record_future_kept", record_future_kept},
    {"counts_list", counts_list},
    {"counts_bits", counts_bits},
    {"counts_list1d", counts_list1d},
    {"counts_bits_counters", counts_bits_counters},
    {"fulldepth_api", fulldepth_api},
    {0},
};
