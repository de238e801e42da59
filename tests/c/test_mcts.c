/* test_mcts.c: the Monte Carlo tree search of mcts.h. Checks: the same seed
 * and playouts give the same move and the same visit counts of every root
 * child, and another seed gives other counts; the game is left exactly as
 * it was (key, record, game_ok) on every back-end; the solver proves the
 * empty 3x3 board a draw, a 3x3 win in one a win (and plays it), a double
 * threat against the side to move a loss, and stops searching once the
 * root is proven; plain UCT finds the win in one and the only block; the
 * tree is reused after the searcher's move and the reply, not after a
 * position that does not follow; a search without a limit is refused; a
 * failing callback stops the search with its status and restores the
 * game; priors order the children; an arena too small still gives a legal
 * move; every proof of the solver with a candidate radius smaller than the
 * board (where a node's children are not all its legal moves, so proven
 * children alone prove nothing) agrees with the exact solver (solve.h), on
 * 6x3 k=3 after F2,F3,D1 and on random positions of small boards. */
#include <stdlib.h>

#include "mcts.h"
#include "solve.h"
#include "testutil.h"

static Mcts *make(uint64_t seed, bool solver)
{
    MctsOptions o = mcts_default_options();
    o.seed = seed;
    o.solver = solver;
    o.max_nodes = 1 << 18;
    return mcts_new(&o);
}

TEST(deterministic_for_a_seed)
{
    Game g;
    if (!t_open_game(&g, 9, 9, 5, 2)) return;
    t_play_list(&g, "E5,D4,E4");
    MctsChild a[100], b[100];
    int na = 0, nb = 0;
    int moves[3];
    for (int run = 0; run < 3; run++) {
        Mcts *m = make(run < 2 ? 42 : 43, false);
        MctsResult r;
        CHECK_INT(mcts_search(m, &g, 3000, 0, &r), MB_OK);
        CHECK_INT(r.playouts, 3000);
        CHECK(!r.reused);
        moves[run] = r.move;
        if (run == 0)
            na = mcts_root_children(m, a, 100);
        else if (run == 1)
            nb = mcts_root_children(m, b, 100);
        else {
            MctsChild c[100];
            int nc = mcts_root_children(m, c, 100);
            bool differ = nc != na;
            for (int i = 0; i < nc && !differ; i++)
                differ = c[i].visits != a[i].visits || c[i].move != a[i].move;
            CHECK(differ);
        }
        mcts_free(m);
    }
    CHECK_INT(moves[0], moves[1]);
    CHECK_INT(na, nb);
    CHECK(na > 10);
    for (int i = 0; i < na && i < nb; i++) {
        CHECK_INT(a[i].move, b[i].move);
        CHECK_INT(a[i].visits, b[i].visits);
    }
    game_free(&g);
}

TEST(game_restored)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 7, 6, 4, c)) return;
        t_play_list(&g, "D3,D4,C3");
        char before[64], after[64];
        board_key(&g.board, before);
        Mcts *m = make(1, c % 2 == 0);
        MctsResult r;
        CHECK_INT(mcts_search(m, &g, 500, 0, &r), MB_OK);
        board_key(&g.board, after);
        CHECK_STR(after, before);
        CHECK_INT(g.move_count, 3);
        CHECK_INT(g.turn, MARK_X);
        CHECK(game_ok(&g));
        CHECK(r.move >= 0 && game_get(&g, r.move) == MARK_EMPTY);
        mcts_free(m);
        game_free(&g);
    }
}

TEST(solver_proves_3x3)
{
    Game g;
    if (!t_open_game(&g, 3, 3, 3, 2)) return;
    Mcts *m = make(7, true);
    MctsResult r;
    CHECK_INT(mcts_search(m, &g, 200000, 0, &r), MB_OK);
    CHECK_INT(r.proven, 0);     /* tic-tac-toe is a draw */
    CHECK(r.playouts < 200000); /* stopped once proven */
    CHECK(r.value == 0.5);
    mcts_free(m);

    /* o to move wins at C1 (o: A1 B1, x: A2 B2) */
    t_play_list(&g, "A1,A2,B1,B2");
    m = make(7, true);
    CHECK_INT(mcts_search(m, &g, 100000, 0, &r), MB_OK);
    CHECK_INT(r.proven, 1);
    CHECK_INT(r.move, t_xy(&g, 2, 0));
    mcts_free(m);

    /* x to move wins at B3 (o: A1 C1 C3, x: B1 B2) */
    game_restart(&g);
    t_play_list(&g, "A1,B1,C1,B2,C3");
    m = make(7, true);
    CHECK_INT(mcts_search(m, &g, 100000, 0, &r), MB_OK);
    CHECK_INT(r.proven, 1);
    CHECK_INT(r.move, t_xy(&g, 1, 2));
    mcts_free(m);

    /* x to move (o: A1 B1 B2, x: A2 C2) faces three threats, C1, B3 and
       C3, and has none of its own: lost */
    game_restart(&g);
    t_play_list(&g, "A1,A2,B1,C2,B2");
    m = make(7, true);
    CHECK_INT(mcts_search(m, &g, 100000, 0, &r), MB_OK);
    CHECK_INT(r.proven, -1);
    mcts_free(m);
    game_free(&g);
}

/* Search g with the solver at radius `radius` for up to `playouts`; if the
 * root is proven, its value must be the exact solver's (for the side to
 * move). Returns whether a proof was checked. */
static bool proof_agrees(Game *g, int radius, uint64_t seed, long playouts, const char *what)
{
    MctsOptions o = mcts_default_options();
    o.seed = seed;
    o.solver = true;
    o.radius = radius;
    o.max_nodes = 1 << 16;
    Mcts *m = mcts_new(&o);
    MctsResult r;
    CHECK_INT(mcts_search(m, g, playouts, 0, &r), MB_OK);
    mcts_free(m);
    if (r.proven == MCTS_UNPROVEN) return false;
    Solve s;
    solve_init(&s);
    SolveResult exact;
    CHECK_INT(solve_position(&s, g, &exact), MB_OK);
    solve_free(&s);
    int mover = g->turn == MARK_O ? exact.value : -exact.value;
    if (r.proven != mover)
        t_fail(__FILE__, __LINE__, "%s (radius %d): MCTS-Solver proved %d, the solver says %d",
               what, radius, r.proven, mover);
    return true;
}

TEST(solver_proofs_with_radius)
{
    Game g;
    /* o: F2 D1, x: F3, x to move: the squares within radius 1 of a stone
     * are not all the moves that matter, so a proof from them alone (the
     * other legal moves unvisited) would be wrong */
    if (!t_open_game(&g, 6, 3, 3, 0)) return;
    t_play_list(&g, "F2,F3,D1");
    for (uint64_t seed = 1; seed <= 3; seed++) proof_agrees(&g, 1, seed, 20000, "6x3 F2,F3,D1");
    game_free(&g);

    static const int shapes[][3] = {{6, 3, 3}, {5, 4, 3}, {4, 4, 3}, {5, 5, 4}};
    uint32_t rnd = 99;
    int proofs = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        for (int rep = 0; rep < 10; rep++) {
            if (!t_open_game(&g, shapes[sh][0], shapes[sh][1], shapes[sh][2], 0)) return;
            int moves[MB_MAX_CELLS], stones = 2 + rep % 4;
            while (g.move_count < stones && g.status == STATUS_PLAYING) {
                int n = game_legal_moves(&g, moves);
                rnd = rnd * 1103515245u + 12345u;
                game_move(&g, moves[(rnd >> 16) % (uint32_t)n]);
            }
            if (g.status == STATUS_PLAYING) {
                char what[48];
                snprintf(what, sizeof what, "%dx%d k%d random %d", shapes[sh][0], shapes[sh][1],
                         shapes[sh][2], rep);
                proofs += proof_agrees(&g, 1 + rep % 2, (uint64_t)rep + 1, 5000, what);
            }
            game_free(&g);
        }
    }
    CHECK(proofs >= 10); /* enough proofs were checked to mean something */
}

TEST(uct_wins_and_blocks)
{
    Game g;
    if (!t_open_game(&g, 3, 3, 3, 2)) return;
    t_play_list(&g, "A1,A2,B1,B2");
    Mcts *m = make(3, false);
    MctsResult r;
    CHECK_INT(mcts_search(m, &g, 5000, 0, &r), MB_OK);
    CHECK_INT(r.move, t_xy(&g, 2, 0)); /* C1 wins */
    mcts_free(m);
    /* x must block C1 */
    game_restart(&g);
    t_play_list(&g, "A1,B2,B1");
    m = make(3, false);
    CHECK_INT(mcts_search(m, &g, 5000, 0, &r), MB_OK);
    CHECK_INT(r.move, t_xy(&g, 2, 0));
    mcts_free(m);
    game_free(&g);
}

TEST(tree_reused)
{
    Game g;
    if (!t_open_game(&g, 9, 9, 5, 2)) return;
    t_play_list(&g, "E5,D4");
    Mcts *m = make(5, false);
    MctsResult r;
    CHECK_INT(mcts_search(m, &g, 4000, 0, &r), MB_OK);
    CHECK(!r.reused);
    game_move(&g, r.move);
    /* the reply the tree has explored most */
    MctsResult r2;
    Mcts *probe = make(9, false);
    CHECK_INT(mcts_search(probe, &g, 200, 0, &r2), MB_OK);
    mcts_free(probe);
    game_move(&g, r2.move);
    CHECK_INT(mcts_search(m, &g, 100, 0, &r), MB_OK);
    CHECK(r.reused);
    CHECK(r.root_visits > 100); /* the kept subtree's visits and the new ones */
    /* a position that does not follow: a fresh tree */
    game_restart(&g);
    t_play_list(&g, "A1,B2");
    CHECK_INT(mcts_search(m, &g, 100, 0, &r), MB_OK);
    CHECK(!r.reused);
    CHECK_INT(r.root_visits, 100);
    mcts_free(m);
    game_free(&g);
}

TEST(limits_required)
{
    Game g;
    if (!t_open_game(&g, 3, 3, 3, 2)) return;
    Mcts *m = make(1, false);
    MctsResult r;
    CHECK_INT(mcts_search(m, &g, 0, 0, &r), MB_EINVAL);
    t_play_list(&g, "A1,A2,B1,B2,C1");
    CHECK_INT(mcts_search(m, &g, 10, 0, &r), MB_OK);
    CHECK_INT(r.move, MOVE_NONE);
    mcts_free(m);
    MctsOptions o = mcts_default_options();
    o.c = -1;
    CHECK(mcts_new(&o) == NULL);
    game_free(&g);
}

static int calls;
static int failing_playout(Game *g, int *m, void *ud)
{
    (void)g, (void)m, (void)ud;
    calls++;
    return MB_ERANGE;
}

static int center_prior(const Game *g, int m, double *prior, void *ud)
{
    (void)ud;
    int x, y;
    geometry_move_to_xy(game_geom(g), m, &x, &y);
    *prior = -(double)((x - 4) * (x - 4) + (y - 4) * (y - 4));
    return MB_OK;
}

TEST(callbacks)
{
    Game g;
    if (!t_open_game(&g, 9, 9, 5, 2)) return;
    t_play_list(&g, "A1,I9");
    MctsOptions o = mcts_default_options();
    o.playout = failing_playout;
    o.max_nodes = 1000;
    Mcts *m = mcts_new(&o);
    MctsResult r;
    calls = 0;
    CHECK_INT(mcts_search(m, &g, 100, 0, &r), MB_ERANGE);
    CHECK_INT(calls, 1);
    CHECK_INT(g.move_count, 2);
    CHECK(game_ok(&g));
    mcts_free(m);

    o = mcts_default_options();
    o.prior = center_prior;
    o.max_nodes = 10000;
    m = mcts_new(&o);
    CHECK_INT(mcts_search(m, &g, 1, 0, &r), MB_OK);
    MctsChild c[64];
    int n = mcts_root_children(m, c, 64);
    CHECK_INT(n, 16); /* radius 2 around A1 and I9: 8 + 8 squares */
    /* after one playout, the one visited child is the best prior: C3 or G7 */
    CHECK_INT(c[0].visits, 1);
    CHECK(c[0].move == t_xy(&g, 2, 2) || c[0].move == t_xy(&g, 6, 6));
    CHECK_INT((long long)c[0].prior, -8);
    mcts_free(m);

    /* an arena of 2 nodes: still a legal move */
    o = mcts_default_options();
    o.max_nodes = 2;
    m = mcts_new(&o);
    CHECK_INT(mcts_search(m, &g, 20, 0, &r), MB_OK);
    CHECK(r.move >= 0 && game_get(&g, r.move) == MARK_EMPTY);
    mcts_free(m);
    game_free(&g);
}

const TestCase mcts_tests[] = {
    {"deterministic_for_a_seed", deterministic_for_a_seed},
    {"game_restored", game_restored},
    {"solver_proves_3x3", solver_proves_3x3},
    {"uct_wins_and_blocks", uct_wins_and_blocks},
    {"solver_proofs_with_radius", solver_proofs_with_radius},
    {"tree_reused", tree_reused},
    {"limits_required", limits_required},
    {"callbacks", callbacks},
    {0},
};
