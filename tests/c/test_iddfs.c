/* test_iddfs.c: ai_pvs_dls (search_pvs_dls through search_root) and the
 * iterative deepening driver search_iddfs against ais.md §11.2, with the
 * C ai14s evaluator in minimax form and a generous time limit:
 * - ai_pvs_dls maxdepth 8: 1,165 (684,381,1,1,94,1,1,1,1), 3,163 keys,
 *   every score 0; maxdepth 3: 267; after 〇(1,1): 331 / 142;
 * - per-depth counts of ai_ab_iddfs (move ordering on and off) and
 *   ai_pvs_iddfs, the root scores per depth, the candidates per depth;
 * - one random choice per completed iteration; the game unchanged; a
 *   deadline that stops the loop early. Every back-end x count_linemark. */
#include <stdlib.h>

#include "testutil.h"

typedef struct GameState {
    char key[MB_MAX_CELLS + 1];
    int move_count, nrecords, records[10];
    Mark turn;
    Status status;
} GameState;

static void state_of(const Game *g, GameState *s)
{
    memset(s, 0, sizeof *s);
    notation_key(g, s->key);
    s->move_count = g->move_count;
    s->nrecords = g->nrecords;
    for (int i = 0; i < g->nrecords && i < 10; i++) s->records[i] = g->records[i];
    s->turn = g->turn;
    s->status = g->status;
}

static bool same_state(const Game *g, const GameState *s)
{
    GameState now;
    state_of(g, &now);
    return memcmp(&now, s, sizeof now) == 0 && game_ok(g);
}

/* ai_pvs_dls at maxdepth through the root driver (one shared table). */
static int pvs_root(Game *g, int maxdepth, SearchRootResult *r, size_t *ttsize)
{
    Search s;
    GameState before;
    state_of(g, &before);
    if (search_init(&s, g, eval14_search_eval, NULL, maxdepth)) return -1;
    s.pvs = true;
    int rc = search_root(&s, true, NULL, r);
    if (ttsize) *ttsize = tt_count(&s.tt);
    search_free(&s);
    CHECK(same_state(g, &before));
    return rc;
}

TEST(pvs_dls_counts)
{
    static const int per_child[9] = {684, 381, 1, 1, 94, 1, 1, 1, 1};
    SearchRootResult *r = malloc(sizeof *r);
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 3, c)) break;
        size_t n = 0;
        CHECK_INT(pvs_root(&g, 8, r, &n), SEARCH_OK);
        CHECK_INT(r->total, 1165);
        CHECK_INT(n, 3163);
        for (int i = 0; i < 9; i++) {
            CHECK_INT(r->counts[i], per_child[i]);
            CHECK(r->scores[i] == 0);
        }
        CHECK_INT(r->ncandidates, 9);
        CHECK_INT(pvs_root(&g, 3, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 267);
        game_move(&g, t_xy(&g, 1, 1));
        static const double after[8] = {0, 300, 0, 300, 300, 0, 300, 0};
        CHECK_INT(pvs_root(&g, 8, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 331);
        for (int i = 0; i < 8; i++) CHECK(r->scores[i] == after[i]);
        CHECK_INT(pvs_root(&g, 3, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 142);
        game_free(&g);
    }
    free(r);
}

/* One iterative deepening call from the empty board; checks the game is
 * unchanged and the search's settings restored. */
static int iddfs(Game *g, bool pvs, bool mo, Rng *rng, SearchIter *it, SearchIddfsResult *out)
{
    Search s;
    GameState before;
    state_of(g, &before);
    if (search_init(&s, g, eval14_search_eval, NULL, 1)) return -1;
    s.pvs = pvs;
    SearchIddfsOptions o = {.timelimit = 60, .moveordering = mo, .use_tt = true, .share_tt = true};
    int rc = search_iddfs(&s, &o, rng, it, MB_MAX_CELLS + 1, out);
    CHECK(s.maxdepth == 1 && !s.use_tt && s.tt_for_mo == NULL);
    search_free(&s);
    CHECK(same_state(g, &before));
    return rc;
}

static void check_iters(const SearchIter *it, const SearchIddfsResult *out, const int *want,
                        const Game *g)
{
    static const double scores[9] = {2, 2, 2.5, 1, 2.5, 0.5, 2.5, 0, 0};
    CHECK_INT(out->niter, 9);
    CHECK(!out->timed_out);
    for (int d = 0; d < 9 && d < out->niter; d++) {
        CHECK_INT(it[d].depth, d);
        CHECK_INT(it[d].root.total, want[d]);
        if (it[d].root.best_score != scores[d])
            t_fail(__FILE__, __LINE__, "depth %d score %g, expected %g", d, it[d].root.best_score,
                   scores[d]);
        if (d <= 6)
            CHECK(it[d].root.ncandidates == 1 && it[d].root.candidates[0] == t_xy(g, 1, 1));
        else
            CHECK_INT(it[d].root.ncandidates, 9);
        CHECK(it[d].npv >= 1 && it[d].pv[0] == it[d].root.bestmove);
    }
}

TEST(iddfs_per_depth_counts)
{
    static const int ab_mo[9] = {9, 33, 66, 158, 269, 458, 584, 546, 545};
    static const int ab_plain[9] = {9, 33, 81, 206, 431, 927, 1121, 1161, 1175};
    static const int pvs_mo[9] = {9, 36, 68, 163, 272, 459, 567, 544, 545};
    SearchIter *it = malloc((MB_MAX_CELLS + 1) * sizeof *it);
    SearchIddfsResult out;
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 3, c)) break;
        CHECK_INT(iddfs(&g, false, true, NULL, it, &out), SEARCH_OK);
        check_iters(it, &out, ab_mo, &g);
        CHECK_INT(out.bestmove, t_xy(&g, 0, 0));
        CHECK_INT(iddfs(&g, false, false, NULL, it, &out), SEARCH_OK);
        check_iters(it, &out, ab_plain, &g);
        CHECK_INT(iddfs(&g, true, true, NULL, it, &out), SEARCH_OK);
        check_iters(it, &out, pvs_mo, &g);
        game_free(&g);
    }
    free(it);
}

TEST(iddfs_rng_and_deadline)
{
    SearchIter *it = malloc((MB_MAX_CELLS + 1) * sizeof *it);
    SearchIddfsResult out;
    Game g;
    if (t_open_game(&g, 3, 3, 3, 0)) {
        /* one choice per completed iteration: 7 over one candidate, 2 over 9 */
        Rng r1, r2;
        rng_seed(&r1, 0);
        rng_seed(&r2, 0);
        CHECK_INT(iddfs(&g, false, true, &r1, it, &out), SEARCH_OK);
        int last = 0;
        for (int d = 0; d < 9; d++) last = rng_choice_index(&r2, d <= 6 ? 1 : 9);
        CHECK_U64(r1.draws, r2.draws);
        CHECK_INT(out.bestmove, it[8].root.candidates[last]);
        /* a deadline already passed: nothing completes, the fallback move */
        Search s;
        GameState before;
        state_of(&g, &before);
        CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 1), MB_OK);
        s.check_every = 1;
        SearchIddfsOptions o = {
            .timelimit = 0, .moveordering = true, .use_tt = true, .share_tt = true};
        CHECK_INT(search_iddfs(&s, &o, NULL, it, MB_MAX_CELLS + 1, &out), SEARCH_OK);
        CHECK(out.timed_out && out.niter == 0 && out.bestmove == t_xy(&g, 0, 0));
        CHECK(same_state(&g, &before));
        /* after 〇(1,1): 8 iterations, the last one full depth */
        game_move(&g, t_xy(&g, 1, 1));
        o.timelimit = 60;
        CHECK_INT(search_iddfs(&s, &o, NULL, it, MB_MAX_CELLS + 1, &out), SEARCH_OK);
        CHECK_INT(out.niter, 8);
        CHECK(it[7].root.best_score == 0 && it[7].root.ncandidates == 4);
        search_free(&s);
        game_free(&g);
    }
    free(it);
}

const TestCase iddfs_tests[] = {
    {"pvs_dls_counts", pvs_dls_counts},
    {"iddfs_per_depth_counts", iddfs_per_depth_counts},
    {"iddfs_rng_and_deadline", iddfs_rng_and_deadline},
    {0},
};
