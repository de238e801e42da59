/* test_linefeat.c: the line features (linefeat.h), Zobrist keys
 * (zobrist.h), the candidate moves (candidates.h), the line evaluator
 * (eval_lines.h) and the searches on big boards.
 * - Property: on random positions reached by random sequences of move,
 *   unmove, place_mark and remove_mark, every kept feature equals a recount
 *   (linefeat_ok), the window counts equal a count written here from the
 *   marks, the win and open squares equal a brute force written here (runs
 *   of marks through each empty square, for both rules), and the key equals
 *   the XOR of zobrist_value over the marks; on every back-end with and
 *   without count_linemark, for 3x3, 4x4 k3, 7x7 k5, 15x15 k5, 20x20 k5,
 *   5x8 k4, 9x4 k3, 3x4 k2 and 4x3 k1.
 * - Features stay through copy and restart; perft leaves them right.
 * - Known values: fixed Zobrist values; the key of a transposition; the
 *   candidates of the empty board (the centre), of one mark (its
 *   neighbourhood), and a win before a block before an open four; the line
 *   evaluator's values.
 * - The line evaluator's weights: with other weights its values are the
 *   ones computed by hand here (a window level times base, an open square
 *   times open_mover / open_other, the sure values as given), the defaults
 *   give eval_lines's values, a search given them as its evaluator's data
 *   the same move, value and node count as one given NULL, and the range
 *   check names the first weight out of range (NaN included).
 * - Searches on 15x15 k5: a table of Zobrist keys gives the same value as
 *   none; with candidates the search takes an immediate win and blocks the
 *   opponent's. */
#include <stdlib.h>

#include "testutil.h"

/* A small generator of its own (xorshift64*), so positions repeat. */
static uint64_t lcg_state;
static unsigned rnd(unsigned n)
{
    lcg_state ^= lcg_state >> 12;
    lcg_state ^= lcg_state << 25;
    lcg_state ^= lcg_state >> 27;
    return (unsigned)((lcg_state * 2685821657736338717ULL) >> 33) % n;
}

static int geo_x(const Game *g, int m) { return game_geom(g)->x_of[m]; }
static int geo_y(const Game *g, int m) { return game_geom(g)->y_of[m]; }

/* ---- the brute force ---- */

static Mark mark_at(const Game *g, int x, int y)
{
    const Geometry *geo = game_geom(g);
    if (!geometry_on_board(geo, x, y)) return 3; /* off the board */
    return game_get(g, geometry_xy_to_move(geo, x, y));
}

/* Marks of p in a row from (x, y) on, stepping (dx, dy). */
static int run(const Game *g, int x, int y, int dx, int dy, Mark p)
{
    int n = 0;
    while (mark_at(g, x, y) == p) n++, x += dx, y += dy;
    return n;
}

static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

/* Does p on the empty (x, y) make k in a row (exactly k under exact)? */
static bool brute_win(const Game *g, int x, int y, Mark p)
{
    int k = game_geom(g)->k;
    if (k == 1) return true; /* any first mark wins, under both rules */
    for (int d = 0; d < 4; d++) {
        int r = 1 + run(g, x + dirs[d][0], y + dirs[d][1], dirs[d][0], dirs[d][1], p) +
                run(g, x - dirs[d][0], y - dirs[d][1], -dirs[d][0], -dirs[d][1], p);
        if (game_geom(g)->exact ? r == k : r >= k) return true;
    }
    return false;
}

/* The run of p from (x, y) on (as run). */
static int k_along(const Game *g, int x, int y, int dx, int dy, Mark p)
{
    return run(g, x, y, dx, dy, p);
}

/* Does p on the empty (x, y) make a run of exactly k-1 with both ends
 * empty, each end then completing k along that line (exactly k under the
 * exact rule)? */
static bool brute_open(Game *g, int x, int y, Mark p)
{
    const Geometry *geo = game_geom(g);
    if (geo->k < 3) return false;
    bool found = false;
    int m = geometry_xy_to_move(geo, x, y);
    board_set(&g->board, m, p);
    for (int d = 0; d < 4 && !found; d++) {
        int dx = dirs[d][0], dy = dirs[d][1];
        int a = run(g, x + dx, y + dy, dx, dy, p), c = run(g, x - dx, y - dy, -dx, -dy, p);
        if (1 + a + c != geo->k - 1) continue;
        int e1x = x + (a + 1) * dx, e1y = y + (a + 1) * dy;
        int e2x = x - (c + 1) * dx, e2y = y - (c + 1) * dy;
        if (mark_at(g, e1x, e1y) != MARK_EMPTY || mark_at(g, e2x, e2y) != MARK_EMPTY) continue;
        /* filling an end makes k-1 + 1 + the run beyond it, along the line */
        int b1 = k_along(g, e1x + dx, e1y + dy, dx, dy, p),
            b2 = k_along(g, e2x - dx, e2y - dy, -dx, -dy, p);
        found = !geo->exact || (b1 == 0 && b2 == 0);
    }
    board_set(&g->board, m, MARK_EMPTY);
    return found;
}

/* Compare everything the features say with the brute force. */
static void check_features(Game *g, const char *where)
{
    Board *b = &g->board;
    const Geometry *geo = b->geom;
    LineFeat *f = b->feat;
    if (!linefeat_ok(f, b)) t_fail(__FILE__, __LINE__, "%s: features differ from a recount", where);
    uint64_t key = 0;
    for (int m = 0; m < geo->ncells; m++)
        if (game_get(g, m)) key ^= zobrist_value(m, game_get(g, m));
    if (key != f->key) t_fail(__FILE__, __LINE__, "%s: key differs", where);
    int k = geo->k;
    for (Mark p = MARK_O; p <= MARK_X; p++) {
        for (int j = 0; j <= k; j++) {
            int n = 0;
            for (int li = 0; li < geo->nlines; li++) {
                int c[4] = {0, 0, 0, 0};
                for (int i = 0; i < k; i++) c[game_get(g, geo->line_cells[li * k + i])]++;
                n += c[p] == j && c[mark_other(p)] == 0;
            }
            if (n != linefeat_window_count(f, p, j))
                t_fail(__FILE__, __LINE__, "%s: %c windows with %d: %d, expected %d", where,
                       board_mark_char(p), j, linefeat_window_count(f, p, j), n);
        }
        const int16_t *win, *open;
        int nwin, nopen, iw = 0, io = 0;
        linefeat_threats(f, b, p, &win, &nwin, &open, &nopen);
        for (int bit = 0; bit < geo->ncells; bit++) { /* normative order */
            int m = geo->move_of[bit], x = geo->x_of[m], y = geo->y_of[m];
            if (game_get(g, m) != MARK_EMPTY) continue;
            if (brute_win(g, x, y, p)) {
                if (iw >= nwin || win[iw] != m)
                    t_fail(__FILE__, __LINE__, "%s: %c win square %d missing", where,
                           board_mark_char(p), m);
                else
                    iw++;
            }
            if (brute_open(g, x, y, p)) {
                if (io >= nopen || open[io] != m) {
                    t_fail(__FILE__, __LINE__, "%s: %c open square %d missing", where,
                           board_mark_char(p), m);
                } else
                    io++;
            }
        }
        if (iw != nwin || io != nopen)
            t_fail(__FILE__, __LINE__, "%s: %c has %d win / %d open squares, expected %d / %d",
                   where, board_mark_char(p), nwin, nopen, iw, io);
    }
}

/* Random sequences on one shape and configuration. */
static void random_walk(int w, int h, int k, bool exact, int c, int steps)
{
    Geometry *geo = geometry_new(w, h, k);
    geo->exact = exact; /* before any board shares it */
    GameOptions o = t_config(T_KINDS_FIRST, c, w, h, k);
    Game g;
    CHECK_INT(game_init_geometry(&g, geo, o.board, o.count_linemark), MB_OK);
    geometry_unref(geo);
    /* switched on after a few moves: the recount at enable is checked too */
    int moves[MB_MAX_CELLS];
    for (int i = 0; i < 3 && g.status == STATUS_PLAYING; i++) {
        int n = game_legal_moves(&g, moves);
        game_move(&g, moves[rnd((unsigned)n)]);
    }
    CHECK_INT(linefeat_enable(&g.board), MB_OK);
    char where[96];
    for (int s = 0; s < steps; s++) {
        unsigned r = rnd(10);
        if (g.status != STATUS_PLAYING || (r < 3 && g.move_count > 0)) {
            game_unmove(&g);
        } else if (r == 3 && !g.edited) { /* an edit, undone at once */
            int n = game_legal_moves(&g, moves);
            int m = moves[rnd((unsigned)n)];
            Game copy;
            CHECK_INT(game_copy(&copy, &g), MB_OK);
            game_place_mark(&copy, geo_x(&copy, m), geo_y(&copy, m), g.turn);
            snprintf(where, sizeof where, "%dx%d k%d c%d edit", w, h, k, c);
            check_features(&copy, where);
            game_remove_mark(&copy, geo_x(&copy, m), geo_y(&copy, m));
            check_features(&copy, where);
            game_free(&copy);
        } else {
            int n = game_legal_moves(&g, moves);
            game_move(&g, moves[rnd((unsigned)n)]);
        }
        if (s % 4 == 0 || w * h <= 16) {
            snprintf(where, sizeof where, "%dx%d k%d%s config %d step %d", w, h, k,
                     exact ? " exact" : "", c, s);
            check_features(&g, where);
        }
    }
    game_restart(&g);
    check_features(&g, "restart");
    game_free(&g);
}

/* The shapes of the property test: w, h, k, steps. */
static const int shapes[][4] = {
    {3, 3, 3, 200}, {4, 4, 3, 200}, {7, 7, 5, 200}, {15, 15, 5, 160}, {20, 20, 5, 120},
    {5, 8, 4, 200}, {9, 4, 3, 200}, {3, 4, 2, 150}, {4, 3, 1, 60},
};

TEST(property_freestyle)
{
    lcg_state = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (int c = 0; c < T_NCONFIGS; c++)
            random_walk(shapes[i][0], shapes[i][1], shapes[i][2], false, c, shapes[i][3]);
}

TEST(property_exact)
{
    lcg_state = 0x243F6A8885A308D3ULL;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (int c = 0; c < T_NCONFIGS; c++)
            random_walk(shapes[i][0], shapes[i][1], shapes[i][2], true, c, shapes[i][3]);
}

/* Play a list of (x, y) pairs. */
static void play_xy(Game *g, const int *xy, int n)
{
    for (int i = 0; i < n; i++)
        game_move(g, geometry_xy_to_move(game_geom(g), xy[2 * i], xy[2 * i + 1]));
}

static Game open15(int k)
{
    Game g;
    GameOptions o = game_default_options();
    o.width = o.height = 15;
    o.k = k;
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    return g;
}

TEST(zobrist_values)
{
    /* fixed values: the same in every run and build */
    CHECK_U64(zobrist_value(0, MARK_O), 0x8bd79b41a6b28f18ULL);
    CHECK(zobrist_value(0, MARK_X) != zobrist_value(0, MARK_O));
    CHECK(zobrist_value(1, MARK_O) != zobrist_value(0, MARK_X));
    /* a transposition has one key; the empty board's is 0 */
    Game a = open15(5), b = open15(5);
    CHECK_INT(linefeat_enable(&a.board), MB_OK);
    CHECK_INT(linefeat_enable(&b.board), MB_OK);
    CHECK_U64(a.board.feat->key, 0);
    int xy1[] = {7, 7, 8, 8, 6, 6, 9, 9}, xy2[] = {6, 6, 9, 9, 7, 7, 8, 8};
    play_xy(&a, xy1, 4);
    play_xy(&b, xy2, 4);
    CHECK_U64(a.board.feat->key, b.board.feat->key);
    game_unmove(&a);
    CHECK(a.board.feat->key != b.board.feat->key);
    /* copies keep the features */
    Game c;
    CHECK_INT(game_copy(&c, &a), MB_OK);
    CHECK(c.board.feat != NULL && c.board.feat != a.board.feat);
    CHECK_U64(c.board.feat->key, a.board.feat->key);
    game_free(&a);
    game_free(&b);
    game_free(&c);
}

TEST(perft_keeps_features)
{
    Game g;
    GameOptions o = game_default_options();
    o.width = o.height = 4;
    o.k = 3;
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    CHECK_INT(linefeat_enable(&g.board), MB_OK);
    game_move(&g, 5);
    uint64_t nodes[4], fin[4];
    CHECK_INT(perft_run(&g, 3, nodes, fin, NULL, NULL), MB_OK);
    CHECK_U64(nodes[3], 15 * 14 * 13);
    CHECK(g.board.feat != NULL && linefeat_ok(g.board.feat, &g.board));
    game_free(&g);
}

TEST(candidates_order)
{
    Game g = open15(5);
    int out[MB_MAX_CELLS];
    /* the empty board: the centre */
    CHECK_INT(candidates_generate(&g, 2, out, NULL), 1);
    CHECK_INT(out[0], geometry_xy_to_move(game_geom(&g), 7, 7));
    /* one mark in a corner: its neighbourhood, 3 squares at d = 1, 8 at d = 2 */
    game_move(&g, geometry_xy_to_move(game_geom(&g), 0, 0));
    CHECK_INT(candidates_generate(&g, 1, out, NULL), 3);
    CHECK_INT(candidates_generate(&g, 2, out, NULL), 8);
    game_restart(&g);
    /* o: (3..6, 7) four in a row, x: (3..5, 9) three; o to move wins on (7, 7)
     * or (2, 7): both come first */
    int xy[] = {3, 7, 3, 9, 4, 7, 4, 9, 5, 7, 5, 9, 6, 7, 10, 0};
    play_xy(&g, xy, 8);
    CHECK_INT(g.turn, MARK_O);
    int n = candidates_generate(&g, 2, out, NULL);
    CHECK(n > 10);
    /* the centre's lines hold more potential */
    CHECK_INT(out[0], geometry_xy_to_move(game_geom(&g), 7, 7));
    CHECK_INT(out[1], geometry_xy_to_move(game_geom(&g), 2, 7));
    /* x to move: the blocks of o's wins first, then x's own open four
     * squares (6, 9) and (2, 9) */
    game_unmove(&g);
    game_unmove(&g); /* take back o's (6, 7) and x's (10, 0)... */
    game_move(&g, geometry_xy_to_move(game_geom(&g), 6, 7)); /* ...o plays (6, 7) again */
    CHECK_INT(g.turn, MARK_X);
    n = candidates_generate(&g, 2, out, NULL);
    CHECK_INT(out[0], geometry_xy_to_move(game_geom(&g), 7, 7)); /* blocks */
    CHECK_INT(out[1], geometry_xy_to_move(game_geom(&g), 2, 7));
    CHECK_INT(out[2], geometry_xy_to_move(game_geom(&g), 6, 9)); /* x's open four */
    CHECK_INT(out[3], geometry_xy_to_move(game_geom(&g), 2, 9));
    game_free(&g);
}

TEST(eval_lines_values)
{
    Game g = open15(5);
    CHECK(eval_lines(&g) == 0); /* features off: a recount on a copy */
    CHECK(g.board.feat == NULL);
    CHECK_INT(linefeat_enable(&g.board), MB_OK);
    game_move(&g, geometry_xy_to_move(game_geom(&g), 7, 7));
    CHECK_INT(linefeat_window_count(g.board.feat, MARK_O, 1), 20);
    CHECK(eval_lines(&g) == 20);
    game_move(&g, geometry_xy_to_move(game_geom(&g), 0, 0)); /* 3 windows */
    CHECK(eval_lines(&g) == 17);
    game_restart(&g);
    /* o to move with an open four (3..6, 7): a sure win */
    int xy[] = {3, 7, 3, 9, 4, 7, 4, 9, 5, 7, 5, 9, 6, 7, 10, 0};
    play_xy(&g, xy, 8);
    CHECK(eval_lines(&g) == EVAL_LINES_SURE);
    game_unmove(&g); /* x to move, o has two win squares: x loses */
    CHECK(eval_lines(&g) == EVAL_LINES_SURE / 2);
    game_move(&g, geometry_xy_to_move(game_geom(&g), 7, 7));
    game_move(&g, geometry_xy_to_move(game_geom(&g), 2, 7)); /* o wins */
    CHECK(eval_lines(&g) == EVAL_LINES_WIN);
    game_free(&g);
}

TEST(eval_lines_weights)
{
    EvalLinesWeights d = eval_lines_default_weights(), w = d;
    CHECK(d.base == 4 && d.open_mover == 1 && d.open_other == 1);
    CHECK(d.sure_win == 1e8 && d.sure_loss == 5e7);
    Game g = open15(5);
    CHECK_INT(linefeat_enable(&g.board), MB_OK);
    /* o (7, 7) and (8, 7), x (0, 0), x to move: o has 4 windows of two
     * marks (row 7, starting at x = 4..7) and 2 * (20 - 4) = 32 of one, x 3
     * of one; no threats: 29 + base * 4 */
    int two[] = {7, 7, 0, 0, 8, 7};
    play_xy(&g, two, 3);
    CHECK(eval_lines(&g) == 29 + 4 * 4);
    CHECK(eval_lines_weighted(&g, &d) == 29 + 4 * 4);
    CHECK(eval_lines_weighted(&g, NULL) == 29 + 4 * 4);
    w.base = 2.5;
    CHECK(eval_lines_weighted(&g, &w) == 29 + 2.5 * 4);
    /* the open squares: o (5..7, 7), an open three: (4, 7) and (8, 7) make
     * an open four; x (0, 0) and (0, 14) has none; x to move: the value
     * holds + open_other * base^3 * 2, and open_mover plays no part */
    game_restart(&g);
    int three[] = {5, 7, 0, 0, 6, 7, 0, 14, 7, 7};
    play_xy(&g, three, 5);
    w = d;
    w.open_other = 0;
    double none = eval_lines_weighted(&g, &w);
    CHECK(eval_lines(&g) == none + 64 * 2);
    w.open_other = 2.5;
    w.open_mover = 7;
    CHECK(eval_lines_weighted(&g, &w) == none + 2.5 * 64 * 2);
    w.base = 2;
    w.open_other = 0;
    double none2 = eval_lines_weighted(&g, &w);
    w.open_other = 3;
    CHECK(eval_lines_weighted(&g, &w) == none2 + 3 * 8 * 2);
    /* the sure values: o to move with an open four, then x to move against
     * o's two win squares */
    game_restart(&g);
    int four[] = {3, 7, 3, 9, 4, 7, 4, 9, 5, 7, 5, 9, 6, 7, 10, 0};
    play_xy(&g, four, 8);
    w = d;
    w.sure_win = 123;
    w.sure_loss = 77;
    CHECK(eval_lines_weighted(&g, &w) == 123);
    game_unmove(&g);
    CHECK(eval_lines_weighted(&g, &w) == 77);
    CHECK(eval_lines_weighted(&g, &d) == EVAL_LINES_SURE / 2);
    game_free(&g);
    /* the ranges */
    CHECK(eval_lines_check_weights(&d) == NULL);
    w = d;
    w.base = 0.5;
    CHECK_STR(eval_lines_check_weights(&w), "base");
    w.base = EVAL_LINES_BASE_MAX;
    CHECK(eval_lines_check_weights(&w) == NULL);
    w.open_mover = 0.0 / 0.0;
    CHECK_STR(eval_lines_check_weights(&w), "open_mover");
    w = d;
    w.open_other = -1;
    CHECK_STR(eval_lines_check_weights(&w), "open_other");
    w = d;
    w.sure_win = 2e9;
    CHECK_STR(eval_lines_check_weights(&w), "sure_win");
    w = d;
    w.sure_loss = -1;
    CHECK_STR(eval_lines_check_weights(&w), "sure_loss");
}

/* A search of g at maxdepth with the line evaluator (weights w) and
 * candidates d; its node count in *count. */
static int search_weighted(Game *g, int maxdepth, int d, const EvalLinesWeights *w, double *value,
                           uint64_t *count)
{
    Search s;
    CHECK_INT(search_init(&s, g, eval_lines_search_eval, (void *)w, maxdepth), MB_OK);
    s.candidates = d;
    SearchRootResult r;
    CHECK_INT(search_root(&s, true, NULL, &r), SEARCH_OK);
    *value = r.best_score;
    *count = (uint64_t)r.total;
    search_free(&s);
    return r.bestmove;
}

TEST(search_lines_weights)
{
    Game g = open15(5);
    int xy[] = {7, 7, 8, 8, 6, 7, 8, 6, 8, 7, 5, 7, 9, 9};
    play_xy(&g, xy, 7);
    EvalLinesWeights d = eval_lines_default_weights(), w = d;
    double v1, v2;
    uint64_t c1, c2;
    int m1 = search_weighted(&g, 2, 2, NULL, &v1, &c1);
    int m2 = search_weighted(&g, 2, 2, &d, &v2, &c2);
    CHECK_INT(m1, m2);
    CHECK(v1 == v2);
    CHECK_U64(c1, c2);
    /* other weights reach the leaves: another value */
    w.base = 3;
    search_weighted(&g, 2, 2, &w, &v2, &c2);
    CHECK(v1 != v2);
    game_free(&g);
}

/* A search of g at maxdepth with the line evaluator and candidates d. */
static int search_move(Game *g, int maxdepth, int d, bool use_tt, double *value)
{
    Search s;
    CHECK_INT(search_init(&s, g, eval_lines_search_eval, NULL, maxdepth), MB_OK);
    s.candidates = d;
    s.use_tt = use_tt;
    SearchRootResult r;
    CHECK_INT(search_root(&s, true, NULL, &r), SEARCH_OK);
    *value = r.best_score;
    search_free(&s);
    return r.bestmove;
}

TEST(search_big_board)
{
    Game g = open15(5);
    int xy[] = {7, 7, 8, 8, 6, 7, 8, 6, 8, 7, 5, 7, 9, 9};
    play_xy(&g, xy, 7);
    /* Zobrist keys: the table changes nothing but the time */
    double v1, v2;
    int m1 = search_move(&g, 2, 1, false, &v1);
    int m2 = search_move(&g, 2, 1, true, &v2);
    CHECK(v1 == v2);
    CHECK_INT(m1, m2);
    CHECK(linefeat_ok(g.board.feat, &g.board));
    game_restart(&g);
    /* o to move with four in a row takes the win; x to move blocks one end */
    int four[] = {3, 7, 3, 9, 4, 7, 4, 9, 5, 7, 5, 9, 6, 7, 10, 0};
    play_xy(&g, four, 8);
    CHECK_INT(search_move(&g, 2, 2, true, &v1), geometry_xy_to_move(game_geom(&g), 7, 7));
    CHECK(v1 == EVAL_LINES_WIN);
    game_unmove(&g);
    int m = search_move(&g, 1, 2, true, &v1);
    CHECK(m == geometry_xy_to_move(game_geom(&g), 2, 7) ||
          m == geometry_xy_to_move(game_geom(&g), 7, 7));
    game_free(&g);
}

const TestCase linefeat_tests[] = {
    {"property_freestyle", property_freestyle},
    {"property_exact", property_exact},
    {"zobrist_values", zobrist_values},
    {"perft_keeps_features", perft_keeps_features},
    {"candidates_order", candidates_order},
    {"eval_lines_values", eval_lines_values},
    {"search_big_board", search_big_board},
    {"eval_lines_weights", eval_lines_weights},
    {"search_lines_weights", search_lines_weights},
    {0},
};
