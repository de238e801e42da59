/* test_rule.c: the exact rule (exactly k in a row wins, an overline does
 * not) against an independent judge written here on a plain char array:
 * - perft counts by depth on shapes that can hold overlines (1x5 k2, 7x1
 *   k3, 3x3 k2, 4x4 k2, 6x2 k3, and 4x4 k3, 5x5 k3 from positions one or
 *   two moves from an overline; 3x3 k1, a two-word 9x8 k2), on every
 *   back-end with and without the line counters, equal to a brute force
 *   that judges a move by the mover's runs through it; and its wins differ
 *   from the freestyle brute force's where an overline fits;
 * - board_is_winner on random positions of every configuration (up to a
 *   10x10 board of two words) equal to the same judge of the run through
 *   the square;
 * - solve_position's value and distance on small shapes, from the start
 *   and from random positions, equal to a memoised full minimax here;
 * - the rule's names: freestyle and exact parse, renju and others are
 *   refused with a message naming the known rules. */
#include <stdlib.h>

#include "testutil.h"

/* ---- the independent judge ---- */

typedef struct Plain {
    int w, h, k;
    char sq[32][32]; /* sq[x][y]: 0, 'o', 'x' */
} Plain;

/* The length of p's run through (x, y) along (dx, dy); 0 if not p's. */
static int run_through(const Plain *b, int x, int y, int dx, int dy, char p)
{
    if (b->sq[x][y] != p) return 0;
    int n = 1;
    for (int s = -1; s <= 1; s += 2)
        for (int i = 1;; i++) {
            int xx = x + s * i * dx, yy = y + s * i * dy;
            if (xx < 0 || yy < 0 || xx >= b->w || yy >= b->h || b->sq[xx][yy] != p) break;
            n++;
        }
    return n;
}

static const int dirs4[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

/* Does p hold a run of exactly k through (x, y)? */
static bool exact_at(const Plain *b, int x, int y, char p)
{
    for (int d = 0; d < 4; d++)
        if (run_through(b, x, y, dirs4[d][0], dirs4[d][1], p) == b->k) return true;
    return false;
}

typedef struct Brute {
    Plain b;
    bool exact;
    uint64_t nodes[17], finished[17], wins[17];
} Brute;

/* The mover's run through the last move decides (only it can have made
 * one: a run elsewhere would have ended the game before). */
static bool wins_at(const Plain *b, int x, int y, char p, bool exact)
{
    if (exact) return exact_at(b, x, y, p);
    for (int d = 0; d < 4; d++)
        if (run_through(b, x, y, dirs4[d][0], dirs4[d][1], p) >= b->k) return true;
    return false;
}

static void brute_walk(Brute *t, int ply, int mc, int depth, char turn)
{
    Plain *b = &t->b;
    for (int x = 0; x < b->w; x++)
        for (int y = 0; y < b->h; y++) {
            if (b->sq[x][y]) continue;
            b->sq[x][y] = turn;
            t->nodes[ply + 1]++;
            bool win = wins_at(b, x, y, turn, t->exact);
            t->wins[ply + 1] += win;
            if (win || mc + 1 == b->w * b->h)
                t->finished[ply + 1]++;
            else if (ply + 1 < depth)
                brute_walk(t, ply + 1, mc + 1, depth, turn == 'o' ? 'x' : 'o');
            b->sq[x][y] = 0;
        }
}

/* ---- perft ---- */

static GameOptions exact_config(int c, int w, int h, int k)
{
    GameOptions o = t_config(T_PAIRS, c, w, h, k);
    o.exact = true;
    return o;
}

/* Perft of the exact rule on every configuration against the brute force,
 * from the position after the Excel moves `pre`; returns whether the
 * freestyle brute force counts other wins (it must when the shape can hold
 * an overline within `depth` plies). */
static bool check_shape(int w, int h, int k, const char *pre, int depth)
{
    Brute *ex = calloc(1, sizeof *ex), *fs = calloc(1, sizeof *fs);
    ex->b.w = fs->b.w = w, ex->b.h = fs->b.h = h, ex->b.k = fs->b.k = k;
    ex->exact = true;
    Game g;
    GameOptions o = exact_config(0, w, h, k);
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    t_play_list(&g, pre);
    for (int m = 0; m < w * h; m++)
        if (game_get(&g, m))
            ex->b.sq[m / h][m % h] = fs->b.sq[m / h][m % h] = board_mark_char(game_get(&g, m));
    char turn = g.turn == MARK_O ? 'o' : 'x';
    int mc = g.move_count;
    game_free(&g);
    brute_walk(ex, 0, mc, depth, turn);
    brute_walk(fs, 0, mc, depth, turn);
    for (int c = 0; c < T_NCONFIGS; c++) {
        o = exact_config(c, w, h, k);
        CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
        CHECK(game_geom(&g)->exact);
        t_play_list(&g, pre);
        uint64_t nodes[17], fin[17];
        CHECK_INT(perft_run(&g, depth, nodes, fin, NULL, NULL), MB_OK);
        for (int d = 1; d <= depth; d++)
            if (nodes[d] != ex->nodes[d] || fin[d] != ex->finished[d])
                t_fail(__FILE__, __LINE__,
                       "%dx%d k%d %s/%d depth %d: %llu %llu, brute force %llu %llu", w, h, k,
                       board_kind_name(o.board), o.count_linemark, d, (unsigned long long)nodes[d],
                       (unsigned long long)fin[d], (unsigned long long)ex->nodes[d],
                       (unsigned long long)ex->finished[d]);
        game_free(&g);
    }
    bool differ = memcmp(ex->wins, fs->wins, sizeof ex->wins) != 0;
    free(ex);
    free(fs);
    return differ;
}

#ifdef MB_CHECK_INVARIANTS
#define DEEP 4
#else
#define DEEP 5
#endif

TEST(perft_against_brute_force)
{
    CHECK(check_shape(1, 5, 2, "", 5));
    CHECK(check_shape(5, 1, 2, "", 5));
    CHECK(check_shape(7, 1, 3, "", 7));
    CHECK(check_shape(3, 3, 2, "", 9));
    CHECK(check_shape(4, 4, 2, "", 5)); /* an overline needs o's third mark: ply 5 */
    CHECK(check_shape(6, 2, 3, "", 7));
    /* o at A1 and D1 (of B1 C1 for a four) or on a diagonal, x elsewhere */
    CHECK(check_shape(4, 4, 3, "A1,B4,D1,C4", DEEP + 1));
    CHECK(check_shape(5, 5, 3, "A1,E5,D1,E4", DEEP - 1));
    CHECK(check_shape(5, 5, 3, "A1,E1,D4,A5", DEEP - 1));
    CHECK(check_shape(3, 3, 1, "", 9) == false); /* the first mark stands alone */
    CHECK(check_shape(9, 8, 2, "", 3) == false); /* two words; no overline in 3 plies */
    CHECK(check_shape(3, 3, 3, "", 9) == false); /* no room for an overline: the series' counts */
}

/* ---- the judge on random positions ---- */

TEST(is_winner_on_random_positions)
{
    static const int shapes[][3] = {{1, 5, 2}, {3, 3, 1}, {4, 4, 3},   {5, 5, 3},
                                    {7, 7, 5}, {9, 9, 5}, {10, 10, 5}, {8, 8, 4}};
    Rng r;
    rng_seed(&r, 14);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int c = 0; c < T_NCONFIGS; c++) {
            int w = shapes[s][0], h = shapes[s][1], k = shapes[s][2];
            Game g;
            GameOptions o = exact_config(c, w, h, k);
            CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
            for (int trial = 0; trial < 40; trial++) {
                Plain p = {.w = w, .h = h, .k = k};
                board_reset(&g.board);
                /* dense random boards: long runs and overlines are common */
                for (int m = 0; m < w * h; m++) {
                    int v = (int)rng_randbelow(&r, 5);
                    Mark mk = v < 2 ? MARK_O : v < 4 ? MARK_X : MARK_EMPTY;
                    board_set(&g.board, m, mk);
                    p.sq[m / h][m % h] = mk == MARK_O ? 'o' : mk == MARK_X ? 'x' : 0;
                }
                for (int m = 0; m < w * h; m++)
                    for (Mark mk = MARK_O; mk <= MARK_X; mk++) {
                        bool want = exact_at(&p, m / h, m % h, mk == MARK_O ? 'o' : 'x');
                        if (board_is_winner(&g.board, mk, m) != want)
                            t_fail(__FILE__, __LINE__, "%dx%d k%d %s/%d square %d mark %c: %d", w,
                                   h, k, board_kind_name(o.board), o.count_linemark, m,
                                   board_mark_char(mk), !want);
                    }
            }
            game_free(&g);
        }
}

/* ---- solve against a memoised minimax ---- */

typedef struct Minimax {
    Plain b;
    int n;
    int16_t *memo; /* 3^n: 0 unknown, else score + 1 */
} Minimax;

/* The score of the side to move with `mc` marks on the board: 100 - end
 * for a win ending at move count `end`, -(100 - end) for a loss, 0 a draw
 * (the winner hurries, the loser delays). */
static int minimax(Minimax *t, int mc, char turn, uint32_t code, uint32_t pow3[])
{
    if (t->memo[code]) return t->memo[code] - 1 - 200;
    int best = mc == t->n ? 0 : -1000;
    for (int m = 0; m < t->n; m++) {
        int x = m / t->b.h, y = m % t->b.h;
        if (t->b.sq[x][y]) continue;
        t->b.sq[x][y] = turn;
        uint32_t next = code + pow3[m] * (turn == 'o' ? 1u : 2u);
        int v;
        if (exact_at(&t->b, x, y, turn))
            v = 100 - (mc + 1);
        else if (mc + 1 == t->n)
            v = 0;
        else
            v = -minimax(t, mc + 1, turn == 'o' ? 'x' : 'o', next, pow3);
        t->b.sq[x][y] = 0;
        if (v > best) best = v;
    }
    t->memo[code] = (int16_t)(best + 200 + 1);
    return best;
}

static void check_solve(int w, int h, int k, Rng *r)
{
    Minimax *t = calloc(1, sizeof *t);
    t->b.w = w, t->b.h = h, t->b.k = k;
    t->n = w * h;
    uint32_t pow3[16], total = 1;
    for (int i = 0; i < t->n; i++) pow3[i] = total, total *= 3;
    t->memo = calloc(total, sizeof *t->memo);
    Game g;
    GameOptions o = {w, h, k, BOARD_BITS, false, true};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    Solve s;
    solve_init(&s);
    for (int trial = 0; trial < 12; trial++) {
        game_restart(&g);
        if (trial > 0) {
            int plies = (int)rng_randbelow(r, (uint32_t)(t->n / 2 + 1));
            for (int i = 0; i < plies && g.status == STATUS_PLAYING; i++) {
                int moves[MB_MAX_CELLS], nm = game_legal_moves(&g, moves);
                game_move(&g, moves[rng_randbelow(r, (uint32_t)nm)]);
            }
            if (g.status != STATUS_PLAYING) continue;
        }
        uint32_t code = 0;
        memset(t->b.sq, 0, sizeof t->b.sq);
        for (int m = 0; m < t->n; m++) {
            Mark mk = game_get(&g, m);
            if (mk) t->b.sq[m / h][m % h] = mk == MARK_O ? 'o' : 'x';
            code += pow3[m] * mk;
        }
        int v = minimax(t, g.move_count, g.turn == MARK_O ? 'o' : 'x', code, pow3);
        SolveResult res;
        CHECK_INT(solve_position(&s, &g, &res), MB_OK);
        int want_value = v == 0 ? 0 : ((v > 0) == (g.turn == MARK_O) ? 1 : -1);
        int want_distance = v == 0 ? t->n - g.move_count : 100 - (v > 0 ? v : -v) - g.move_count;
        if (res.value != want_value || res.distance != want_distance)
            t_fail(__FILE__, __LINE__,
                   "%dx%d k%d after %d moves: value %d distance %d, minimax %d %d", w, h, k,
                   g.move_count, res.value, res.distance, want_value, want_distance);
        /* the best move keeps the value */
        if (res.best != MOVE_NONE) {
            game_move(&g, res.best);
            int after = g.status == STATUS_PLAYING ? 0 : 1;
            if (!after) {
                SolveResult r2;
                CHECK_INT(solve_position(&s, &g, &r2), MB_OK);
                CHECK_INT(r2.value, res.value);
            } else {
                CHECK_INT(g.status == STATUS_DRAW ? 0 : g.status == STATUS_O ? 1 : -1, res.value);
            }
        }
    }
    solve_free(&s);
    game_free(&g);
    free(t->memo);
    free(t);
}

TEST(solve_against_minimax)
{
    static const int shapes[][3] = {{1, 5, 2}, {1, 6, 2}, {1, 7, 3}, {3, 3, 2}, {2, 5, 2},
                                    {3, 4, 3}, {4, 3, 2}, {2, 2, 1}, {3, 3, 1}, {2, 6, 3}};
    Rng r;
    rng_seed(&r, 5);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        check_solve(shapes[s][0], shapes[s][1], shapes[s][2], &r);
}

/* ---- names ---- */

TEST(rule_names)
{
    bool exact = true;
    char err[200] = "";
    CHECK_INT(geometry_rule_parse("freestyle", &exact, err, sizeof err), MB_OK);
    CHECK(!exact);
    CHECK_INT(geometry_rule_parse("exact", &exact, err, sizeof err), MB_OK);
    CHECK(exact);
    CHECK_STR(geometry_rule_name(true), "exact");
    CHECK_STR(geometry_rule_name(false), "freestyle");
    CHECK_INT(geometry_rule_parse("renju", &exact, err, sizeof err), MB_EINVAL);
    CHECK(strstr(err, "renju") && strstr(err, "freestyle or exact"));
    CHECK_INT(geometry_rule_parse("Exact", &exact, err, sizeof err), MB_EINVAL);
    CHECK_STR(err, "unknown rule 'Exact' (freestyle or exact)");
    /* game_options gives the rule back; the same shape under the two rules
     * is two shapes */
    Game g;
    GameOptions o = {15, 15, 5, BOARD_LIST, false, true};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    CHECK(game_options(&g).exact);
    game_free(&g);
}

const TestCase rule_tests[] = {
    {"perft_against_brute_force", perft_against_brute_force},
    {"is_winner_on_random_positions", is_winner_on_random_positions},
    {"solve_against_minimax", solve_against_minimax},
    {"rule_names", rule_names},
    {0},
};
