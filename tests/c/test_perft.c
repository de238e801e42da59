/* test_perft.c: game-tree counts by depth (perft). 3x3: the series'
 * per-depth counts 9 ... 127872, 549,946 nodes with the root and 255,168
 * finished games, on every back-end x count_linemark. Other shapes (3x2 k2,
 * 3x3 k2, 4x3 k3, 2x2, 1x1, 5x1 k3, 2x3 k3, 4x4 k4, 4x4 k3 and 5x4 k4, to depth 6) against
 * an independent brute force written here on a plain char array, which shares
 * no code with the engine. Perft also leaves the game exactly as it was.
 * Every shape with width, height <= 4 and every k from 1 to the longer side,
 * on every back-end with and without counters, against the same brute force:
 * the family of boards too small to hold a win (width*height < 2k-1, such as
 * 1x4 with k = 3), whose full boards are draws. */
#include <stdlib.h>

#include "testutil.h"

/* ---- the independent brute force ---- */

typedef struct Brute {
    int w, h, k;
    char sq[16][16]; /* sq[x][y]: 0, 'o', 'x' */
    uint64_t nodes[17], finished[17];
} Brute;

/* Does the mark at (x, y) complete k in a row through (x, y)? */
static bool brute_wins(const Brute *b, int x, int y)
{
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    char p = b->sq[x][y];
    for (int d = 0; d < 4; d++) {
        int run = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int i = 1;; i++) {
                int xx = x + s * i * dirs[d][0], yy = y + s * i * dirs[d][1];
                if (xx < 0 || yy < 0 || xx >= b->w || yy >= b->h || b->sq[xx][yy] != p) break;
                run++;
            }
        if (run >= b->k) return true;
    }
    return false;
}

static void brute_walk(Brute *b, int ply, int depth, char turn)
{
    for (int x = 0; x < b->w; x++)
        for (int y = 0; y < b->h; y++) {
            if (b->sq[x][y]) continue;
            b->sq[x][y] = turn;
            b->nodes[ply + 1]++;
            if (brute_wins(b, x, y) || ply + 1 == b->w * b->h)
                b->finished[ply + 1]++;
            else if (ply + 1 < depth)
                brute_walk(b, ply + 1, depth, turn == 'o' ? 'x' : 'o');
            b->sq[x][y] = 0;
        }
}

/* ---- checks ---- */

static void check_shape(int w, int h, int k, int depth, BoardKind kind, bool counters)
{
    Brute *b = calloc(1, sizeof *b);
    b->w = w, b->h = h, b->k = k;
    brute_walk(b, 0, depth, 'o');
    Game g;
    GameOptions o = {w, h, k, kind, counters, false};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    uint64_t nodes[17], fin[17];
    CHECK_INT(perft_run(&g, depth, nodes, fin, NULL, NULL), MB_OK);
    for (int d = 1; d <= depth; d++) {
        if (nodes[d] != b->nodes[d] || fin[d] != b->finished[d])
            t_fail(__FILE__, __LINE__, "%dx%d k%d %s/%d depth %d: %llu %llu, brute force %llu %llu",
                   w, h, k, board_kind_name(kind), counters, d, (unsigned long long)nodes[d],
                   (unsigned long long)fin[d], (unsigned long long)b->nodes[d],
                   (unsigned long long)b->finished[d]);
    }
    game_free(&g);
    free(b);
}

TEST(three_by_three_published)
{
    static const uint64_t want[10] = {1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        GameOptions o = t_config(T_PAIRS, c, 3, 3, 0);
        CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
        uint64_t nodes[10], fin[10], tn = 0, tf = 0;
        CHECK_INT(perft_run(&g, 9, nodes, fin, NULL, NULL), MB_OK);
        for (int d = 0; d <= 9; d++) {
            CHECK_U64(nodes[d], want[d]);
            tn += nodes[d];
            tf += fin[d];
        }
        CHECK_U64(tn, 549946);
        CHECK_U64(tf, 255168);
        CHECK_U64(fin[5], 1440); /* 〇's earliest wins */
        CHECK_U64(fin[9], 127872);
        CHECK_INT(g.move_count, 0);
        CHECK_INT(g.nrecords, 1);
        game_free(&g);
    }
}

TEST(small_shapes_against_brute_force)
{
    static const int shapes[][4] = {{3, 2, 2, 6}, {3, 3, 2, 9}, {4, 3, 3, 6}, {2, 2, 2, 4},
                                    {1, 1, 1, 1}, {5, 1, 3, 5}, {2, 3, 3, 6}, {3, 3, 3, 9}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int c = 0; c < T_NCONFIGS; c++) {
            GameOptions o = t_config(T_PAIRS, c, shapes[s][0], shapes[s][1], shapes[s][2]);
            check_shape(o.width, o.height, o.k, shapes[s][3], o.board, o.count_linemark);
        }
}

/* The sanitized build re-checks every invariant after each move, which
 * makes depth 6 on 4x4 (6.3 million nodes) take a minute there; it counts
 * to depth 5 instead, the release build to depth 6. */
#ifdef MB_CHECK_INVARIANTS
#define DEEP 5
#else
#define DEEP 6
#endif

TEST(four_by_four_k4_depth6)
{
    /* every back-end once, the counters on two of them */
    check_shape(4, 4, 4, DEEP, BOARD_LIST, false);
    check_shape(4, 4, 4, DEEP, BOARD_LIST1D, true);
    check_shape(4, 4, 4, DEEP, BOARD_BITS, false);
    check_shape(5, 4, 4, 5, BOARD_BITS, true);
    check_shape(4, 4, 3, DEEP, BOARD_LIST, true); /* wins from ply 5 on */
}

/* Every width, height <= 4 and k in 1 .. max(width, height), every
 * configuration. Boards of up to 8 squares are counted to the end (every
 * board too small to hold a win has at most 2k - 2 <= 6); larger ones to
 * the deepest ply whose product of move counts stays within the budget (the
 * sanitized build re-checks the invariants at each move, so it gets less). */
#ifdef MB_CHECK_INVARIANTS
#define SMALL_BUDGET 6000
#else
#define SMALL_BUDGET 400000
#endif

TEST(every_shape_up_to_4x4_every_k)
{
    for (int w = 1; w <= 4; w++)
        for (int h = 1; h <= 4; h++) {
            int n = w * h, depth = 0;
            for (uint64_t leaves = 1; depth < n && leaves * (uint64_t)(n - depth) <= SMALL_BUDGET;
                 depth++)
                leaves *= (uint64_t)(n - depth);
            if (n <= 8) depth = n;
            for (int k = 1; k <= (w > h ? w : h); k++)
                for (int c = 0; c < T_NCONFIGS; c++) {
                    GameOptions o = t_config(T_PAIRS, c, w, h, k);
                    check_shape(w, h, k, depth, o.board, o.count_linemark);
                }
        }
}

/* The examples: 4x1 with k = 3 or 4 (and 1x4), 3x1 and 1x3 with
 * k = 3, 2x1 and 1x2 with k = 2 end in a draw when full, after exactly
 * ncells! games; legal moves are then none. */
TEST(too_small_to_win_full_board_is_draw)
{
    static const int shapes[][3] = {{4, 1, 3}, {4, 1, 4}, {1, 4, 3}, {1, 4, 4},
                                    {3, 1, 3}, {1, 3, 3}, {2, 1, 2}, {1, 2, 2}};
    static const uint64_t factorial[5] = {1, 1, 2, 6, 24};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int c = 0; c < T_NCONFIGS; c++) {
            GameOptions o = t_config(T_PAIRS, c, shapes[s][0], shapes[s][1], shapes[s][2]);
            Game g;
            CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
            int n = shapes[s][0] * shapes[s][1], moves[MB_MAX_CELLS];
            uint64_t nodes[5], fin[5];
            CHECK_INT(perft_run(&g, n, nodes, fin, NULL, NULL), MB_OK);
            CHECK_U64(fin[n], factorial[n]);
            CHECK_U64(nodes[n], factorial[n]);
            for (int d = 0; d < n; d++) CHECK_U64(fin[d], 0);
            for (int m = 0; m < n; m++) {
                CHECK_INT(g.status, STATUS_PLAYING);
                game_move(&g, m);
            }
            CHECK_INT(g.status, STATUS_DRAW);
            CHECK_INT(game_judge(&g), STATUS_DRAW);
            CHECK_INT(game_legal_moves(&g, moves), 0);
            CHECK(game_ok(&g));
            game_unmove(&g);
            CHECK_INT(g.status, STATUS_PLAYING);
            CHECK_INT(game_legal_moves(&g, moves), 1);
            game_free(&g);
        }
}

/* k longer than both sides is refused, with the engine's one message. */
TEST(k_longer_than_both_sides_refused)
{
    char err[160];
    Game g;
    GameOptions o = {2, 3, 4, BOARD_LIST, true, false};
    CHECK_INT(game_init(&g, &o, err, sizeof err), MB_ESIZE);
    CHECK_STR(err, "k = 4 is not possible on a 2x3 board (1..3)");
    game_free(&g);
    o = (GameOptions){4, 1, 5, BOARD_BITS, false, false};
    CHECK_INT(game_init(&g, &o, err, sizeof err), MB_ESIZE);
    CHECK_STR(err, "k = 5 is not possible on a 4x1 board (1..4)");
    game_free(&g);
    CHECK(geometry_new(1, 1, 2) == NULL);
}

TEST(from_a_position_and_restored)
{
    Game g;
    CHECK_INT(game_init(&g, NULL, NULL, 0), MB_OK);
    game_move(&g, 4);
    game_move(&g, 0);
    game_move(&g, 8);
    game_change_step(&g, 2); /* a replay with a recorded future */
    uint64_t nodes[8], fin[8];
    CHECK_INT(perft_run(&g, 7, nodes, fin, NULL, NULL), MB_OK);
    CHECK_U64(nodes[1], 7);
    CHECK_U64(nodes[2], 42);
    CHECK_INT(g.move_count, 2);
    CHECK_INT(g.nrecords, 4); /* the future survives */
    CHECK_INT(g.records[3], 8);
    CHECK_INT(perft_run(&g, 8, nodes, fin, NULL, NULL), MB_EINVAL); /* only 7 empty squares */
    CHECK_INT(perft_run(&g, -1, nodes, fin, NULL, NULL), MB_EINVAL);
    CHECK_INT(perft_run(&g, 0, nodes, fin, NULL, NULL), MB_OK);
    CHECK_U64(nodes[0], 1);
    game_free(&g);
}

const TestCase perft_tests[] = {
    {"three_by_three_published", three_by_three_published},
    {"small_shapes_against_brute_force", small_shapes_against_brute_force},
    {"four_by_four_k4_depth6", four_by_four_k4_depth6},
    {"every_shape_up_to_4x4_every_k", every_shape_up_to_4x4_every_k},
    {"too_small_to_win_full_board_is_draw", too_small_to_win_full_board_is_draw},
    {"k_longer_than_both_sides_refused", k_longer_than_both_sides_refused},
    {"from_a_position_and_restored", from_a_position_and_restored},
    {0},
};
