/* test_solve.c: solve_position's values, distances and best moves against an independent plain minimax without table (3x3, 4x3 and positions after moves), random positions with 8 empty squares on 4x4, 5x3, 5x4 and 4x3 boards, and against an independent memoised minimax (a hash table of exact values keyed by the marks) on random positions with 12 empty squares on boards up to 6x4 (where the solver's table bounds matter: a bound stored one-sided wrong passes every 8-square case); the published boards (3,3,3), (4,4,4), (5,4,4) and 6x4 k=4 after D1,A4 (a draw in 22), the game left unchanged, finished games, the size limit and the time limit. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "marubatsu.h"

#define BIG 1000

/* Plain minimax through the game's own move/unmove: the score for o of the
 * position, a win ending at move count n scoring BIG - n (for o) or
 * n - BIG (for x), a draw 0. */
static int brute(Game *g)
{
    if (g->status == STATUS_O) return BIG - g->move_count;
    if (g->status == STATUS_X) return g->move_count - BIG;
    if (g->status == STATUS_DRAW) return 0;
    int moves[MB_MAX_CELLS], n = game_legal_moves(g, moves);
    int best = g->turn == MARK_O ? -2 * BIG : 2 * BIG;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        int v = brute(g);
        game_unmove(g);
        if (g->turn == MARK_O ? v > best : v < best) best = v;
    }
    return best;
}

static void make(Game *g, int w, int h, int k, const char *moves)
{
    GameOptions opt = game_default_options();
    opt.width = w;
    opt.height = h;
    opt.k = k;
    char err[128];
    CHECK_INT(game_init(g, &opt, err, sizeof err), MB_OK);
    int ms[MB_MAX_CELLS], n = 0, bad = 0;
    CHECK_INT(notation_parse_moves(game_geom(g), moves, ms, game_geom(g)->ncells, &n, &bad), MB_OK);
    for (int i = 0; i < n; i++) CHECK_INT(game_play(g, ms[i]), MB_OK);
}

/* Solve g and compare value, distance and best move with brute(). */
static void check_brute(Game *g, const char *what)
{
    Solve s;
    solve_init(&s);
    SolveResult r;
    CHECK_INT(solve_position(&s, g, &r), MB_OK);
    int b = brute(g);
    int value = b > 0 ? 1 : b < 0 ? -1 : 0;
    int dist = b ? BIG - abs(b) - g->move_count : game_geom(g)->ncells - g->move_count;
    if (r.value != value || r.distance != dist)
        t_fail(__FILE__, __LINE__, "%s: solve %d in %d, brute %d in %d", what, r.value, r.distance,
               value, dist);
    if (g->status == STATUS_PLAYING) {
        /* the best move keeps the value and shortens the distance by one */
        CHECK_INT(game_play(g, r.best), MB_OK);
        int after = brute(g);
        game_unmove(g);
        if (after != b)
            t_fail(__FILE__, __LINE__, "%s: best move %d scores %d, not %d", what, r.best, after,
                   b);
    }
    solve_free(&s);
}

static void check_solve(int w, int h, int k, const char *moves, int value, int dist)
{
    Game g;
    make(&g, w, h, k, moves);
    Solve s;
    solve_init(&s);
    SolveResult r;
    CHECK_INT(solve_position(&s, &g, &r), MB_OK);
    CHECK_INT(r.value, value);
    CHECK_INT(r.distance, dist);
    CHECK(r.nodes > 0 || g.status != STATUS_PLAYING || r.distance <= 1);
    solve_free(&s);
    game_free(&g);
}

TEST(ttt_draw) { check_solve(3, 3, 3, "", 0, 9); }
TEST(k2_first_wins) { check_solve(3, 3, 2, "", 1, 3); }
TEST(k3_4x3_first_wins) { check_solve(4, 3, 3, "", 1, 7); }
TEST(k4_4x4_draw) { check_solve(4, 4, 4, "", 0, 16); }
TEST(k4_5x4_draw) { check_solve(5, 4, 4, "", 0, 20); }

TEST(ttt_brute)
{
    Game g;
    make(&g, 3, 3, 3, "");
    check_brute(&g, "3x3 start");
    /* every position after one and two moves */
    int m1[9], n1 = game_legal_moves(&g, m1);
    for (int i = 0; i < n1; i++) {
        game_move(&g, m1[i]);
        check_brute(&g, "3x3 one move");
        int m2[9], n2 = game_legal_moves(&g, m2);
        for (int j = 0; j < n2; j++) {
            game_move(&g, m2[j]);
            check_brute(&g, "3x3 two moves");
            game_unmove(&g);
        }
        game_unmove(&g);
    }
    game_free(&g);
}

TEST(small_brute)
{
    static const struct {
        int w, h, k;
        const char *moves;
    } cases[] = {
        {3, 3, 2, ""},         {3, 2, 3, ""},
        {2, 2, 2, ""},         {4, 3, 3, "A1,B2,C3"},
        {4, 3, 3, "B2,C2,A1"}, {4, 3, 3, "D3,A1,B1"},
        {4, 3, 3, "B2,B1,C2"}, {4, 3, 3, "A2,D2,B1,C1"},
        {3, 4, 3, "B2,A1,C4"}, {3, 3, 3, "A1,B2,C3"},
        {3, 3, 3, "B2,A2"},    {3, 3, 3, "B2,A1,C3,A3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        make(&g, cases[i].w, cases[i].h, cases[i].k, cases[i].moves);
        char what[64];
        snprintf(what, sizeof what, "%dx%d k%d %s", cases[i].w, cases[i].h, cases[i].k,
                 cases[i].moves);
        check_brute(&g, what);
        game_free(&g);
    }
}

/* ---- A memoised minimax: brute() with a table of exact values ----
 * Keyed by the two sides' marks as bit masks (boards of at most 64
 * squares), open addressing, grown when half full. The value of a position
 * is brute()'s, which depends on the marks only (the move count is their
 * number). Independent of the solver: no bounds, no symmetries, no
 * pruning, no ordering. */
typedef struct MemoSlot {
    uint64_t o, x;
    int value;
    bool used;
} MemoSlot;
typedef struct Memo {
    MemoSlot *slot;
    size_t cap, count;
} Memo;

static size_t memo_hash(uint64_t o, uint64_t x, size_t cap)
{
    uint64_t h = (o * 0x9E3779B97F4A7C15ULL) ^ (x + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static MemoSlot *memo_find(Memo *t, uint64_t o, uint64_t x)
{
    size_t i = memo_hash(o, x, t->cap);
    while (t->slot[i].used && (t->slot[i].o != o || t->slot[i].x != x)) i = (i + 1) & (t->cap - 1);
    return &t->slot[i];
}

static void memo_grow(Memo *t)
{
    Memo bigger = {calloc(t->cap * 2, sizeof(MemoSlot)), t->cap * 2, t->count};
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].used) *memo_find(&bigger, t->slot[i].o, t->slot[i].x) = t->slot[i];
    free(t->slot);
    *t = bigger;
}

static int memo_minimax(Game *g, Memo *t, uint64_t o, uint64_t x)
{
    if (g->status == STATUS_O) return BIG - g->move_count;
    if (g->status == STATUS_X) return g->move_count - BIG;
    if (g->status == STATUS_DRAW) return 0;
    MemoSlot *hit = memo_find(t, o, x);
    if (hit->used) return hit->value;
    int moves[MB_MAX_CELLS], n = game_legal_moves(g, moves);
    int best = g->turn == MARK_O ? -2 * BIG : 2 * BIG;
    for (int i = 0; i < n; i++) {
        uint64_t bit = 1ULL << moves[i];
        bool o_moves = g->turn == MARK_O;
        game_move(g, moves[i]);
        int v = memo_minimax(g, t, o_moves ? o | bit : o, o_moves ? x : x | bit);
        game_unmove(g);
        if (o_moves ? v > best : v < best) best = v;
    }
    if (2 * (t->count + 1) > t->cap) memo_grow(t);
    *memo_find(t, o, x) = (MemoSlot){o, x, best, true};
    t->count++;
    return best;
}

/* Solve g and compare value and distance with the memoised minimax. */
static void check_memo(Game *g, Solve *s, const char *what)
{
    uint64_t o = 0, x = 0;
    for (int m = 0; m < game_geom(g)->ncells; m++) {
        if (game_get(g, m) == MARK_O) o |= 1ULL << m;
        if (game_get(g, m) == MARK_X) x |= 1ULL << m;
    }
    Memo t = {calloc(1024, sizeof(MemoSlot)), 1024, 0};
    int b = memo_minimax(g, &t, o, x);
    free(t.slot);
    SolveResult r;
    CHECK_INT(solve_position(s, g, &r), MB_OK);
    int value = b > 0 ? 1 : b < 0 ? -1 : 0;
    int dist = b ? BIG - abs(b) - g->move_count : game_geom(g)->ncells - g->move_count;
    if (r.value != value || r.distance != dist)
        t_fail(__FILE__, __LINE__, "%s: solve %d in %d, memoised minimax %d in %d", what, r.value,
               r.distance, value, dist);
}

/* True if the side that just moved threatens to win: a line holding k - 1
 * of its marks and one empty square. */
static bool threatens(const Game *g)
{
    const Geometry *geo = game_geom(g);
    for (int l = 0; l < geo->nlines; l++) {
        int mine = 0, empty = 0;
        for (int j = 0; j < geo->k; j++) {
            Mark m = game_get(g, geo->line_cells[l * geo->k + j]);
            mine += m == g->last_turn;
            empty += m == MARK_EMPTY;
        }
        if (mine == geo->k - 1 && empty == 1) return true;
    }
    return false;
}

/* Quiet random positions (no move ended the game or made a threat) with 8
 * empty squares, so that brute force stays small and play is left: lines
 * still open beside dead squares. */
TEST(random_brute)
{
    static const int shapes[][3] = {{4, 4, 3}, {4, 4, 4}, {5, 3, 3},
                                    {5, 4, 4}, {4, 3, 2}, {6, 2, 2}};
    uint32_t seed = 12345;
    int checked = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        for (int rep = 0; rep < 12; rep++) {
            Game g;
            make(&g, shapes[sh][0], shapes[sh][1], shapes[sh][2], "");
            int moves[MB_MAX_CELLS], tries = 0;
            while (game_geom(&g)->ncells - g.move_count > 8 && tries++ < 1000) {
                int n = game_legal_moves(&g, moves);
                seed = seed * 1103515245u + 12345u;
                game_move(&g, moves[(seed >> 16) % (uint32_t)n]);
                if (g.status != STATUS_PLAYING || threatens(&g)) game_unmove(&g);
            }
            if (game_geom(&g)->ncells - g.move_count == 8) {
                char what[64];
                snprintf(what, sizeof what, "%dx%d k%d random %d", shapes[sh][0], shapes[sh][1],
                         shapes[sh][2], rep);
                check_brute(&g, what);
                checked++;
            }
            game_free(&g);
        }
    }
    CHECK(checked >= 40);
}

/* Random positions (any play: threats and all) with 12 empty
 * squares, on boards up to 6x4, solved one after another with one Solve
 * (its table cleared per solve, as the program does), against the
 * memoised minimax. */
TEST(random_memo)
{
    static const int shapes[][3] = {{6, 4, 4}, {6, 4, 3}, {5, 4, 4}, {6, 3, 3},
                                    {4, 4, 3}, {5, 3, 3}, {6, 4, 5}};
    uint32_t seed = 2024;
    int checked = 0;
    Solve s;
    solve_init(&s);
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        for (int rep = 0; rep < 4; rep++) {
            Game g;
            make(&g, shapes[sh][0], shapes[sh][1], shapes[sh][2], "");
            int ncells = game_geom(&g)->ncells, moves[MB_MAX_CELLS];
            int empty = 12;
            if (empty > ncells - 1) empty = ncells - 1;
            while (ncells - g.move_count > empty && g.status == STATUS_PLAYING) {
                int n = game_legal_moves(&g, moves);
                seed = seed * 1103515245u + 12345u;
                game_move(&g, moves[(seed >> 16) % (uint32_t)n]);
                if (g.status != STATUS_PLAYING) game_unmove(&g);
            }
            char what[64];
            snprintf(what, sizeof what, "%dx%d k%d random %d (%d empty)", shapes[sh][0],
                     shapes[sh][1], shapes[sh][2], rep, ncells - g.move_count);
            check_memo(&g, &s, what);
            checked++;
            game_free(&g);
        }
    }
    solve_free(&s);
    CHECK_INT(checked, 28);
}

/* 6x4, k = 4, after D1, A4: a draw in 22 (every square filled). */
TEST(k4_6x4_d1_a4) { check_solve(6, 4, 4, "D1,A4", 0, 22); }

TEST(positions)
{
    check_solve(3, 3, 3, "B2,A2", 1, 5);          /* x on an edge loses */
    check_solve(3, 3, 3, "B2,A1", 0, 7);          /* x in a corner draws */
    check_solve(3, 3, 3, "A1,B2,B1", 0, 6);       /* x to move, draw */
    check_solve(3, 3, 3, "A1,A2,B1,B2", 1, 1);    /* o wins at once */
    check_solve(3, 3, 3, "A1,A2,B1,B2,C1", 1, 0); /* already won */
}

TEST(game_unchanged)
{
    Game g;
    make(&g, 4, 4, 4, "B2,C3,A1,D4,B3");
    game_change_step(&g, 3); /* replaying: the recorded future must survive */
    char before[64], after[64];
    board_key(&g.board, before);
    int mc = g.move_count, nrec = g.nrecords, rec[32];
    memcpy(rec, g.records, (size_t)nrec * sizeof *rec);
    Mark turn = g.turn;
    Solve s;
    solve_init(&s);
    SolveResult r;
    CHECK_INT(solve_position(&s, &g, &r), MB_OK);
    board_key(&g.board, after);
    CHECK_STR(after, before);
    CHECK_INT(g.move_count, mc);
    CHECK_INT(g.nrecords, nrec);
    CHECK(memcmp(rec, g.records, (size_t)nrec * sizeof *rec) == 0);
    CHECK_INT(g.turn, turn);
    CHECK_INT(g.status, STATUS_PLAYING);
    CHECK(game_ok(&g));
    /* the same Solve again (its table reused) gives the same answer */
    SolveResult r2;
    CHECK_INT(solve_position(&s, &g, &r2), MB_OK);
    CHECK_INT(r2.value, r.value);
    CHECK_INT(r2.distance, r.distance);
    CHECK_INT(r2.best, r.best);
    CHECK_U64(r2.nodes, r.nodes);
    solve_free(&s);
    game_free(&g);
}

TEST(limits)
{
    Game g;
    make(&g, 9, 8, 4, "");
    Solve s;
    solve_init(&s);
    SolveResult r;
    CHECK_INT(solve_position(&s, &g, &r), MB_ESIZE);
    game_free(&g);
    make(&g, 5, 4, 4, "");
    s.time_limit = 1e-9;
    CHECK_INT(solve_position(&s, &g, &r), SOLVE_STOPPED);
    CHECK_INT(r.best, MOVE_NONE);
    s.time_limit = 0;
    CHECK_INT(solve_position(&s, &g, &r), MB_OK);
    CHECK_INT(r.value, 0);
    solve_free(&s);
    game_free(&g);
    CHECK_STR(solve_value_name(1), "first player wins");
    CHECK_STR(solve_value_name(0), "draw");
    CHECK_STR(solve_value_name(-1), "second player wins");
}

const TestCase solve_tests[] = {
    {"ttt_draw", ttt_draw},
    {"k2_first_wins", k2_first_wins},
    {"k3_4x3_first_wins", k3_4x3_first_wins},
    {"k4_4x4_draw", k4_4x4_draw},
    {"k4_5x4_draw", k4_5x4_draw},
    {"ttt_brute", ttt_brute},
    {"random_brute", random_brute},
    {"random_memo", random_memo},
    {"k4_6x4_d1_a4", k4_6x4_d1_a4},
    {"small_brute", small_brute},
    {"positions", positions},
    {"game_unchanged", game_unchanged},
    {"limits", limits},
    {0},
};
