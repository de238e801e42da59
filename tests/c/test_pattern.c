/* test_pattern.c: the line pattern codes (pattern.h).
 * - Property: on positions reached by random sequences of move, unmove,
 *   place_mark and remove_mark, every kept code, class, value, sum, count,
 *   four set, neighbourhood count and key equals a recount made from the
 *   marks without the tables (pat_ok), and the top codes (win, open k-1,
 *   k-1) of every empty square, direction and side equal a brute force
 *   written here from runs of marks; on every back-end with and without
 *   count_linemark, both rules, k = 1 .. 7 (tables for k <= 6 freestyle and
 *   k <= 5 exact, direct codes beyond).
 * - The tables equal the direct computation on every key (k = 5
 *   freestyle) or a sample of keys (k = 5 exact, k = 6 freestyle).
 * - Known codes of written lines for k = 5 under both rules (five, an
 *   overline, open and closed fours and threes, split shapes, dead lines).
 * - Classes and forced moves of known positions; clones and copies keep
 *   the patterns; restart recounts them. */
#include <stdlib.h>

#include "testutil.h"
#include "linefeat.h"
#include "pattern.h"

static uint64_t rs;
static unsigned rnd(unsigned n)
{
    rs ^= rs >> 12;
    rs ^= rs << 25;
    rs ^= rs >> 27;
    return (unsigned)((rs * 2685821657736338717ULL) >> 33) % n;
}

static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

/* The marks of the position under test, copied once per check (the
 * brute force writes on this copy, not on the game, whose every write
 * would update its patterns). */
static Mark grid[MB_MAX_SIDE][MB_MAX_SIDE];
static int gw, gh, gk;
static bool gexact;

static Mark at(int x, int y)
{
    if (x < 0 || y < 0 || x >= gw || y >= gh) return 3;
    return grid[x][y];
}

/* The run of p through (x, y) along d, (x, y) counted as p's. */
static int run_through(int x, int y, int d, Mark p)
{
    int n = 1;
    for (int s = -1; s <= 1; s += 2)
        for (int j = 1; at(x + s * j * dirs[d][0], y + s * j * dirs[d][1]) == p; j++) n++;
    return n;
}

static bool wins_run(int r) { return gexact ? r == gk : r >= gk; }

/* The brute force of the top codes: 2k-1 when p on (x, y) wins along d,
 * else 2k-2 / 2k-3 when two or more / one empty square of the line within
 * k-1 would then make, with it, a winning run through (x, y) along d,
 * else -1 (below a four). */
static int brute_top(int x, int y, int d, Mark p)
{
    int k = gk;
    if (wins_run(run_through(x, y, d, p))) return 2 * k - 1;
    grid[x][y] = p;
    int n = 0;
    for (int s = -1; s <= 1; s += 2)
        for (int j = 1; j < k; j++) {
            int ex = x + s * j * dirs[d][0], ey = y + s * j * dirs[d][1];
            if (at(ex, ey) != MARK_EMPTY) continue;
            grid[ex][ey] = p;
            n += wins_run(run_through(x, y, d, p));
            grid[ex][ey] = MARK_EMPTY;
        }
    grid[x][y] = MARK_EMPTY;
    return n >= 2 ? 2 * k - 2 : n == 1 ? 2 * k - 3 : -1;
}

static void check_patterns(Game *g, const char *where)
{
    const PatState *ps = g->board.feat->pat;
    const Geometry *geo = game_geom(g);
    if (!pat_ok(ps, &g->board))
        t_fail(__FILE__, __LINE__, "%s: patterns differ from a recount", where);
    gw = geo->width, gh = geo->height, gk = geo->k, gexact = geo->exact;
    for (int m = 0; m < geo->ncells; m++) grid[geo->x_of[m]][geo->y_of[m]] = game_get(g, m);
    int k = geo->k;
    for (int m = 0; m < geo->ncells; m++) {
        if (game_get(g, m) != MARK_EMPTY) continue;
        for (int d = 0; d < 4; d++)
            for (Mark p = MARK_O; p <= MARK_X; p++) {
                int code = pat_code(ps, pat_idx(ps, m), d, p),
                    b = brute_top(geo->x_of[m], geo->y_of[m], d, p);
                bool top = k >= 2 ? code >= 2 * k - 3 : code == 1;
                if ((top || b >= 0) && code != b)
                    t_fail(__FILE__, __LINE__, "%s: square %d dir %d %c: code %d, brute force %d",
                           where, m, d, board_mark_char(p), code, b);
            }
    }
}

static void random_walk(int w, int h, int k, bool exact, int c, int steps, int every)
{
    Geometry *geo = geometry_new_rule(w, h, k, exact);
    GameOptions o = t_config(T_KINDS_FIRST, c, w, h, k);
    Game g;
    CHECK_INT(game_init_geometry(&g, geo, o.board, o.count_linemark), MB_OK);
    geometry_unref(geo);
    int moves[MB_MAX_CELLS];
    for (int i = 0; i < 4 && g.status == STATUS_PLAYING; i++) {
        int n = game_legal_moves(&g, moves);
        game_move(&g, moves[rnd((unsigned)n)]);
    }
    /* switched on after a few moves: the recount at enable is checked */
    CHECK_INT(linefeat_enable(&g.board), MB_OK);
    CHECK_INT(linefeat_enable_patterns(&g.board), MB_OK);
    char where[96];
    for (int s = 0; s < steps; s++) {
        unsigned r = rnd(10);
        snprintf(where, sizeof where, "%dx%d k%d%s config %d step %d", w, h, k,
                 exact ? " exact" : "", c, s);
        if (g.status != STATUS_PLAYING || (r < 3 && g.move_count > 0)) {
            game_unmove(&g);
        } else if (r == 3 && !g.edited) { /* an edit on a copy, undone */
            int n = game_legal_moves(&g, moves);
            int m = moves[rnd((unsigned)n)];
            Game copy;
            CHECK_INT(game_copy(&copy, &g), MB_OK);
            CHECK(copy.board.feat->pat != NULL && copy.board.feat->pat != g.board.feat->pat);
            game_place_mark(&copy, game_geom(&copy)->x_of[m], game_geom(&copy)->y_of[m],
                            rnd(2) ? MARK_O : MARK_X);
            check_patterns(&copy, where);
            game_remove_mark(&copy, game_geom(&copy)->x_of[m], game_geom(&copy)->y_of[m]);
            check_patterns(&copy, where);
            game_free(&copy);
        } else {
            int n = game_legal_moves(&g, moves);
            game_move(&g, moves[rnd((unsigned)n)]);
        }
        if (s % every == 0) check_patterns(&g, where);
    }
    check_patterns(&g, "end");
    game_restart(&g);
    check_patterns(&g, "restart");
    game_free(&g);
}

/* w, h, k, steps, check every */
static const int shapes[][5] = {
    {15, 15, 5, 120, 3}, {9, 9, 4, 120, 2}, {7, 7, 3, 100, 1}, {12, 12, 6, 100, 4},
    {14, 11, 7, 80, 4},  {5, 8, 4, 100, 1}, {3, 4, 2, 60, 1},  {4, 3, 1, 30, 1},
};

TEST(property_freestyle)
{
    rs = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (int c = 0; c < T_NCONFIGS; c++)
            random_walk(shapes[i][0], shapes[i][1], shapes[i][2], false, c, shapes[i][3],
                        shapes[i][4]);
}

TEST(property_exact)
{
    rs = 0x243F6A8885A308D3ULL;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (int c = 0; c < T_NCONFIGS; c++)
            random_walk(shapes[i][0], shapes[i][1], shapes[i][2], true, c, shapes[i][3],
                        shapes[i][4]);
}

/* ---- the tables against the direct codes ---- */

static void check_table(int k, bool exact, unsigned samples)
{
    Geometry *geo = geometry_new_rule(15, 15, k, exact);
    PatState *ps = pat_new(geo, NULL);
    CHECK(ps != NULL && ps->tab != NULL);
    if (!ps || !ps->tab) {
        pat_free(ps);
        geometry_unref(geo);
        return;
    }
    int R = ps->reach, nb = 2 * R;
    uint32_t nkeys = 1u << (2 * nb);
    uint8_t line[32];
    int bad = 0;
    for (uint32_t i = 0; i < (samples ? samples : nkeys); i++) {
        uint32_t key = samples ? rnd(nkeys) : i;
        for (int j = 0; j < nb; j++) line[j < R ? j : j + 1] = (uint8_t)((key >> (2 * j)) & 3);
        line[R] = MARK_EMPTY;
        int o = pat_classify(line, R, k, exact, MARK_O),
            x = pat_classify(line, R, k, exact, MARK_X);
        if (ps->tab[key] != (uint16_t)(o | x << 8) && bad++ < 5)
            t_fail(__FILE__, __LINE__, "k%d%s key %u: table %d/%d, direct %d/%d", k,
                   exact ? " exact" : "", key, ps->tab[key] & 0xff, ps->tab[key] >> 8, o, x);
    }
    pat_free(ps);
    geometry_unref(geo);
}

TEST(tables)
{
    rs = 12345;
    check_table(5, false, 0);
    check_table(5, true, 40000);
    check_table(6, false, 40000);
    check_table(4, true, 0);
    check_table(3, false, 0);
    /* no table where the key does not fit */
    Geometry *geo = geometry_new_rule(15, 15, 7, false);
    PatState *ps = pat_new(geo, NULL);
    CHECK(ps && ps->tab == NULL);
    pat_free(ps);
    geometry_unref(geo);
}

/* ---- known codes ---- */

/* The code for o (MARK_O) at the '*' of a written line: 'o' own, 'x'
 * the other side, '.' empty, '|' off the board, centred on '*'. */
static int code_of(const char *s, int k, bool exact)
{
    int R = exact ? k : k - 1, star = (int)(strchr(s, '*') - s), len = (int)strlen(s);
    uint8_t line[2 * MB_MAX_SIDE + 3];
    for (int j = -R; j <= R; j++) {
        int at_ = star + j;
        char c = at_ < 0 || at_ >= len ? '|' : s[at_];
        line[R + j] = c == 'o' ? MARK_O : c == 'x' ? MARK_X : c == '|' ? 3 : MARK_EMPTY;
    }
    return pat_classify(line, R, k, exact, MARK_O);
}

TEST(known_codes)
{
    static const struct {
        const char *line;
        int free, exact;
    } cases[] = {
        {"..oo*oo..", 9, 9}, /* five */
        {".ooo*oo..", 9, 0}, /* six: a win freestyle; exact: every window overlines */
        {"...*oooo.", 9, 9}, /* five at the end */
        {"x..*ooo..", 8, 8}, /* .oooo. open four */
        {"x.x*ooo.x", 7, 7}, /* xoooo.x: a four */
        {"...oo*.o.", 7, 7}, /* oo.o.o? oo*.o: four (fill the gap) */
        {"..o.*oo..", 7, 7}, /* o.ooo: one gap, a four */
        {"o.oo*.o..", 8, 8}, /* o.ooo.o: either gap completes five */
        {"o.oo*.oo.", 8, 7}, /* o.ooo.oo: the right gap makes six (exact: one square) */
        {"...*oo...", 6, 6}, /* .ooo.. open three */
        {"..x*oo.x.", 0, 0}, /* xooo.x: no room for five */
        {"..x*oo..x", 5, 5}, /* xooo..x: a three, not open */
        {"...*o.o..", 6, 6}, /* .oo.o. split open three */
        {"|*ooo....", 7, 7}, /* at the edge: oooo. a four */
        {"....*....", 2, 2}, /* a lone stone: open one */
        {"xx.x*x..x", 0, 0}, /* no window */
        {"..x*o....", 3, 3}, /* xoo...: a two, not open */
        {"...*o....", 4, 4}, /* .oo...: an open two */
        {"o..*oo..o", 6, 5}, /* .ooo.. with an o beyond: exact, the open segment would overline */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int f = code_of(cases[i].line, 5, false), e = code_of(cases[i].line, 5, true);
        if (f != cases[i].free)
            t_fail(__FILE__, __LINE__, "'%s' freestyle: %d, expected %d", cases[i].line, f,
                   cases[i].free);
        if (e != cases[i].exact)
            t_fail(__FILE__, __LINE__, "'%s' exact: %d, expected %d", cases[i].line, e,
                   cases[i].exact);
    }
    char buf[16];
    CHECK_STR(pat_code_name(9, 5, buf, sizeof buf), "win");
    CHECK_STR(pat_code_name(8, 5, buf, sizeof buf), "open 4");
    CHECK_STR(pat_code_name(5, 5, buf, sizeof buf), "3");
    CHECK_STR(pat_code_name(0, 5, buf, sizeof buf), "none");
    CHECK_STR(pat_class_name(PAT_C_FOUR3), "four_three");
}

/* ---- classes and forced moves ---- */

static Game open15(void)
{
    Game g;
    GameOptions o = game_default_options();
    o.width = o.height = 15;
    o.k = 5;
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    CHECK_INT(linefeat_enable(&g.board), MB_OK);
    CHECK_INT(linefeat_enable_patterns(&g.board), MB_OK);
    return g;
}

static int forced(Game *g, int *out, int *reason)
{
    const PatState *ps = g->board.feat->pat;
    int idx[MB_MAX_CELLS], n = pat_forced(ps, g->turn, idx, reason);
    for (int i = 0; i < n; i++) out[i] = ps->move_of[idx[i]];
    return n;
}

TEST(forced_moves)
{
    Game g = open15();
    int out[MB_MAX_CELLS], reason;
    t_play_list(&g, "H8,A1");
    CHECK_INT(forced(&g, out, &reason), 0);
    CHECK_INT(reason, 0);
    /* o: H8 I8 J8 (an open three), x to move: defend */
    t_play_list(&g, "I8,A2,J8");
    int n = forced(&g, out, &reason);
    CHECK_INT(reason, 3);
    /* x's own four set is empty; o's fours: F8, G8, K8, L8 */
    CHECK_INT(n, 4);
    const PatState *ps = g.board.feat->pat;
    CHECK_INT(pat_class(ps, pat_idx(ps, t_xy(&g, 6, 7)), MARK_O), PAT_C_OPEN4);
    CHECK_INT(pat_class(ps, pat_idx(ps, t_xy(&g, 5, 7)), MARK_O), PAT_C_FOUR);
    if (n == 4) {
        CHECK_INT(out[0], t_xy(&g, 5, 7));
        CHECK_INT(out[3], t_xy(&g, 11, 7));
    }
    /* x blocks at G8, o makes a four K8: x must block L8 */
    t_play_list(&g, "G8,K8");
    n = forced(&g, out, &reason);
    CHECK_INT(reason, 2);
    CHECK_INT(n, 1);
    CHECK_INT(out[0], t_xy(&g, 11, 7));
    /* o to move with a win: reason 1 */
    t_play_list(&g, "A3");
    n = forced(&g, out, &reason);
    CHECK_INT(reason, 1);
    CHECK_INT(n, 1);
    /* the counts follow */
    CHECK_INT(ps->count[MARK_O][PAT_C_WIN], 1);
    CHECK(pat_eval(ps, MARK_O) > 0);
    game_free(&g);
}

TEST(copy_restart)
{
    Game g = open15();
    t_play_list(&g, "H8,H9,I8,I9");
    Game c;
    CHECK_INT(game_copy(&c, &g), MB_OK);
    CHECK(pat_ok(c.board.feat->pat, &c.board));
    game_unmove(&c);
    CHECK(pat_ok(c.board.feat->pat, &c.board));
    CHECK(pat_ok(g.board.feat->pat, &g.board));
    game_restart(&g);
    CHECK_INT(g.board.feat->pat->stones, 0);
    CHECK(pat_ok(g.board.feat->pat, &g.board));
    game_free(&c);
    game_free(&g);
}

const TestCase pattern_tests[] = {
    {"property_freestyle", property_freestyle},
    {"property_exact", property_exact},
    {"tables", tables},
    {"known_codes", known_codes},
    {"forced_moves", forced_moves},
    {"copy_restart", copy_restart},
    {0},
};
