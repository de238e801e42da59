/* test_search.c: checks ai14s in C (eval14.c), the transposition table
 * (tt.c) and ai_abs_dls with its root driver (search.c) against search.md
 * §6 and ais.md §4, §11.2.
 *
 * - eval14_score on every position reachable on 3x3 against an independent
 *   computation from ais.md §4 written here from the marks alone, its
 *   minimax form, and the 431 positions' ai14s score_by_move of
 *   tests/data/vectors_rule_ais_431.json;
 * - the table: store, overwrite, probe, growth, ±inf bounds; its packing
 *   (tt_pack64 and tt_key_add agree, string and packed keys meet) and its
 *   bound rules (tt_cut, tt_bounds_after, tt_bounds_fresh);
 * - the benchmark call (ai14s minimax, use_tt, maxdepth 8, one shared table)
 *   from the empty board: 1,175 nodes (707,355,1,1,107,1,1,1,1), 3,219 keys,
 *   all scores 0; maxdepth 2 and 3 with their scores; the counts after
 *   〇(1,1); no table (30,709 / 6,138) and a table per child (6,641 / 2,000),
 *   on every back-end x count_linemark;
 * - determinism, the game left unchanged (key, records, counts), a tiny
 *   deadline that aborts and restores, the random choice over the tie list. */
#include <math.h>
#include <stdlib.h>

#include "testutil.h"

/* ------------------------------------------------------------------------
 * ai14s from its definition (ais.md §4), on the marks alone
 * ------------------------------------------------------------------------ */

static const int LINES[8][3][2] = {
    {{0, 0}, {1, 0}, {2, 0}}, {{0, 1}, {1, 1}, {2, 1}}, {{0, 2}, {1, 2}, {2, 2}},
    {{0, 0}, {0, 1}, {0, 2}}, {{1, 0}, {1, 1}, {1, 2}}, {{2, 0}, {2, 1}, {2, 2}},
    {{0, 0}, {1, 1}, {2, 2}}, {{2, 0}, {1, 1}, {0, 2}},
};

static Mark mk(const Game *g, int x, int y) { return game_get(g, t_xy(g, x, y)); }

/* The mover-view ai14s score, derived from the marks: the side that just
 * moved is the one with more marks (〇 on ties is impossible: × then). */
static double ref_ai14s(const Game *g)
{
    int no = 0, nx = 0;
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++) {
            no += mk(g, x, y) == MARK_O;
            nx += mk(g, x, y) == MARK_X;
        }
    Mark me = no > nx ? MARK_O : MARK_X, you = mark_other(me);
    int m[4][4] = {{0}}; /* m[mine][theirs] */
    bool won = false;
    for (int l = 0; l < 8; l++) {
        int a = 0, b = 0;
        for (int i = 0; i < 3; i++) {
            Mark c = mk(g, LINES[l][i][0], LINES[l][i][1]);
            a += c == me;
            b += c == you;
        }
        m[a][b]++;
        if (a == 3 && no + nx > 0) won = true;
    }
    if (won) return 300;
    double score = 0;
    if (m[0][2] > 0)
        score = -100.0 * m[0][2];
    else if (m[2][0] >= 2)
        return 200;
    bool special = no + nx == 4 && mk(g, 1, 1) == MARK_X &&
                   ((mk(g, 0, 0) == MARK_O && mk(g, 2, 2) == MARK_O) ||
                    (mk(g, 2, 0) == MARK_O && mk(g, 0, 2) == MARK_O)) &&
                   (mk(g, 1, 0) == MARK_X || mk(g, 0, 1) == MARK_X || mk(g, 2, 1) == MARK_X ||
                    mk(g, 1, 2) == MARK_X);
    if (special) return 100;
    if (m[2][0] == 1) score += 2;
    score += 0.5 * m[1][0] - 1.0 * m[0][1];
    return score;
}

static long eval_walk(Game *g, long *bad)
{
    long n = 1;
    double want = ref_ai14s(g), got = eval14_score(g, NULL);
    double mm = eval14_minimax(g, NULL);
    if (got != want || mm != (g->turn == MARK_O ? -want : want)) {
        if ((*bad)++ < 5) t_fail(__FILE__, __LINE__, "ai14s %g, expected %g", got, want);
    }
    if (g->status != STATUS_PLAYING) {
        double t = g->status == STATUS_O ? 300 : g->status == STATUS_X ? -300 : 0;
        if (mm != t) (*bad)++;
        return n;
    }
    int moves[9], k = game_legal_moves(g, moves);
    for (int i = 0; i < k; i++) {
        game_move(g, moves[i]);
        n += eval_walk(g, bad);
        game_unmove(g);
    }
    return n;
}

TEST(eval14_every_position)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 3, c)) return;
        long bad = 0;
        CHECK_INT(eval_walk(&g, &bad), 549946);
        CHECK_INT(bad, 0);
        game_free(&g);
    }
}

/* ------------------------------------------------------------------------
 * The 431 positions' ai14s vectors (a minimal reader for this one file)
 * ------------------------------------------------------------------------ */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Read a JSON array of arrays of small arrays of numbers starting at *p
 * ('['): calls back for each innermost array with its numbers. Returns the
 * number of items of the outer array, -1 on a syntax error. */
typedef void (*TupleFn)(void *ud, int item, const double *v, int nv);
static int read_nested(const char **pp, TupleFn fn, void *ud)
{
    const char *p = *pp;
    int depth = 0, item = -1, nv = 0;
    double v[8];
    do {
        char c = *p;
        if (c == '[') {
            depth++;
            if (depth == 2) item++;
            nv = 0;
            p++;
        } else if (c == ']') {
            if (depth == 3) fn(ud, item, v, nv);
            depth--;
            p++;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            char *end;
            double d = strtod(p, &end);
            if (nv < 8) v[nv++] = d;
            p = end;
        } else if (c == ',' || c == ' ' || c == '\n') {
            p++;
        } else {
            return -1;
        }
    } while (depth > 0);
    *pp = p;
    return item + 1;
}

#define NPOS 431
typedef struct Vectors {
    int nmoves[NPOS], moves[NPOS][9][2];
    int nscores[NPOS];
    double scores[NPOS][9][3];
} Vectors;

static void on_position(void *ud, int item, const double *v, int nv)
{
    Vectors *V = ud;
    if (item < NPOS && nv == 2 && V->nmoves[item] < 9) {
        V->moves[item][V->nmoves[item]][0] = (int)v[0];
        V->moves[item][V->nmoves[item]++][1] = (int)v[1];
    }
}

static void on_score(void *ud, int item, const double *v, int nv)
{
    Vectors *V = ud;
    if (item < NPOS && nv == 3 && V->nscores[item] < 9)
        for (int i = 0; i < 3; i++) V->scores[item][V->nscores[item]][i] = v[i];
    if (item < NPOS && nv == 3 && V->nscores[item] < 9) V->nscores[item]++;
}

TEST(eval14_vectors_431)
{
    char path[512];
    snprintf(path, sizeof path, "%s/vectors_rule_ais_431.json", t_data_dir());
    char *text = read_text(path);
    CHECK(text != NULL);
    if (!text) return;
    Vectors *V = calloc(1, sizeof *V);
    const char *p = strstr(text, "\"positions\":");
    const char *q = strstr(text, "\"ai14s\":");
    q = q ? strstr(q, "\"score_by_move\":") : NULL;
    CHECK(p && q);
    if (p && q) {
        p += strlen("\"positions\":");
        q += strlen("\"score_by_move\":");
        CHECK_INT(read_nested(&p, on_position, V), NPOS);
        CHECK_INT(read_nested(&q, on_score, V), NPOS);
        Game g;
        if (t_open_game(&g, 3, 3, 3, 0)) {
            int checked = 0, bad = 0;
            for (int i = 0; i < NPOS; i++) {
                game_restart(&g);
                for (int j = 0; j < V->nmoves[i]; j++)
                    game_move(&g, t_xy(&g, V->moves[i][j][0], V->moves[i][j][1]));
                int moves[9], n = game_legal_moves(&g, moves);
                CHECK_INT(n, V->nscores[i]);
                for (int j = 0; j < n && j < V->nscores[i]; j++) {
                    int m = t_xy(&g, (int)V->scores[i][j][0], (int)V->scores[i][j][1]);
                    game_move(&g, m);
                    if (m != moves[j] || eval14_score(&g, NULL) != V->scores[i][j][2]) bad++;
                    game_unmove(&g);
                    checked++;
                }
            }
            CHECK_INT(bad, 0);
            CHECK(checked > 1500);
            game_free(&g);
        }
    }
    free(V);
    free(text);
}

/* ------------------------------------------------------------------------
 * The table
 * ------------------------------------------------------------------------ */

TEST(tt_basics)
{
    TT t;
    tt_init(&t);
    TTEntry e;
    CHECK(!tt_probe(&t, ".........", &e));
    CHECK_INT(tt_store(&t, "o........", -INFINITY, 2.5, 3), MB_OK);
    CHECK(tt_probe(&t, "o........", &e));
    CHECK(e.lower == -INFINITY && e.upper == 2.5 && e.move == 3);
    CHECK(!tt_probe(&t, ".o.......", &e));
    CHECK_INT(tt_store(&t, "o........", 1, 1, 4), MB_OK);
    CHECK_INT(tt_count(&t), 1);
    CHECK(tt_probe(&t, "o........", &e) && e.lower == 1 && e.move == 4);
    CHECK_INT(tt_store(&t, "o.", 0, 0, 0), MB_EINVAL);
    /* every key of 3^9 boards: growth keeps each one */
    char key[10] = {0};
    for (int code = 0; code < 19683; code++) {
        for (int i = 0, c = code; i < 9; i++, c /= 3) key[i] = ".ox"[c % 3];
        tt_store(&t, key, code, code + 0.5, code % 9);
    }
    CHECK_INT(tt_count(&t), 19683);
    int bad = 0;
    for (int code = 0; code < 19683; code++) {
        for (int i = 0, c = code; i < 9; i++, c /= 3) key[i] = ".ox"[c % 3];
        if (!tt_probe(&t, key, &e) || e.lower != code || e.move != code % 9) bad++;
    }
    CHECK_INT(bad, 0);
    tt_clear(&t);
    CHECK_INT(tt_count(&t), 0);
    CHECK(!tt_probe(&t, key, &e));
    tt_free(&t);
}

/* ------------------------------------------------------------------------
 * The search
 * ------------------------------------------------------------------------ */

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

/* One root driver call on g; checks the game is unchanged. */
static int root(Game *g, int maxdepth, bool use_tt, bool share, SearchRootResult *r, size_t *ttsize)
{
    Search s;
    GameState before;
    state_of(g, &before);
    if (search_init(&s, g, eval14_search_eval, NULL, maxdepth)) return -1;
    s.use_tt = use_tt;
    int rc = search_root(&s, share, NULL, r);
    if (ttsize) *ttsize = tt_count(&s.tt);
    search_free(&s);
    CHECK(same_state(g, &before));
    return rc;
}

static void check_counts(const SearchRootResult *r, const int *want, int n)
{
    CHECK_INT(r->nmoves, n);
    for (int i = 0; i < n && i < r->nmoves; i++) CHECK_INT(r->counts[i], want[i]);
}

static void check_scores(const SearchRootResult *r, const double *want, int n)
{
    for (int i = 0; i < n && i < r->nmoves; i++)
        if (r->scores[i] != want[i])
            t_fail(__FILE__, __LINE__, "score %d == %g, expected %g", i, r->scores[i], want[i]);
}

TEST(benchmark_every_config)
{
    static const int per_child[9] = {707, 355, 1, 1, 107, 1, 1, 1, 1};
    static const int per_child_nott[9] = {2338, 2869, 3275, 3574, 2316, 3590, 3809, 4981, 3957};
    static const double zeros[9] = {0};
    static const double d2[9] = {1.0, 0.5, 1.0, 0.5, 2.5, 0.5, 1.0, 0.5, 1.0};
    static const double d3[9] = {-0.5, -1.5, -0.5, -1.5, 1.0, -1.5, -0.5, -1.5, -0.5};
    SearchRootResult *r = malloc(sizeof *r);
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 3, c)) break;
        size_t n;
        CHECK_INT(root(&g, 8, true, true, r, &n), SEARCH_OK);
        CHECK_INT(r->total, 1175);
        CHECK_INT(n, 3219);
        check_counts(r, per_child, 9);
        check_scores(r, zeros, 9);
        CHECK_INT(r->ncandidates, 9);
        CHECK(r->best_score == 0 && r->bestmove == t_xy(&g, 0, 0));
        CHECK_INT(root(&g, 9, true, true, r, &n), SEARCH_OK);
        CHECK_INT(r->total, 1175);
        CHECK_INT(root(&g, 2, true, true, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 81);
        check_scores(r, d2, 9);
        CHECK(r->ncandidates == 1 && r->bestmove == t_xy(&g, 1, 1));
        CHECK_INT(root(&g, 3, true, true, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 206);
        check_scores(r, d3, 9);
        CHECK_INT(root(&g, 8, false, true, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 30709);
        check_counts(r, per_child_nott, 9);
        check_scores(r, zeros, 9);
        CHECK_INT(root(&g, 8, true, false, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 6641);
        check_scores(r, zeros, 9);

        /* after 〇(1,1): × to move, minimises; corners draw, edges lose */
        game_move(&g, t_xy(&g, 1, 1));
        static const double after[8] = {0, 300, 0, 300, 300, 0, 300, 0};
        CHECK_INT(root(&g, 8, true, true, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 351);
        check_scores(r, after, 8);
        CHECK_INT(r->ncandidates, 4);
        CHECK_INT(root(&g, 2, true, true, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 49);
        CHECK_INT(root(&g, 3, true, true, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 138);
        CHECK_INT(root(&g, 8, false, true, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 6138);
        check_scores(r, after, 8);
        CHECK_INT(root(&g, 8, true, false, r, NULL), SEARCH_OK);
        CHECK_INT(r->total, 2000);
        game_free(&g);
    }
    free(r);
}

TEST(deterministic_and_restored)
{
    SearchRootResult *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    Game g;
    if (t_open_game(&g, 3, 3, 3, 2)) {
        Search s;
        CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 8), MB_OK);
        s.use_tt = true;
        CHECK_INT(search_root(&s, true, NULL, a), SEARCH_OK);
        CHECK_INT(search_root(&s, true, NULL, b), SEARCH_OK);
        CHECK_INT(a->total, b->total);
        CHECK(memcmp(a->counts, b->counts, 9 * sizeof a->counts[0]) == 0);
        CHECK(memcmp(a->scores, b->scores, 9 * sizeof a->scores[0]) == 0);
        /* inner search on the position itself (calc_score): a fresh table */
        double v;
        tt_clear(&s.tt);
        CHECK_INT(search_run(&s, &v), SEARCH_OK);
        CHECK(v == 0);
        /* a replayed game keeps its recorded future */
        t_play_list(&g, "A1,B2,C3");
        game_change_step(&g, 1);
        GameState st;
        state_of(&g, &st);
        CHECK_INT(search_root(&s, true, NULL, a), SEARCH_OK);
        CHECK(same_state(&g, &st));
        CHECK_INT(g.nrecords, 4);
        /* the random choice: one draw over the tie list */
        game_restart(&g);
        Rng r1, r2;
        rng_seed(&r1, 0);
        rng_seed(&r2, 0);
        CHECK_INT(search_root(&s, true, &r1, a), SEARCH_OK);
        CHECK_INT(a->bestmove, a->candidates[rng_choice_index(&r2, 9)]);
        CHECK_U64(r1.draws, r2.draws);
        search_free(&s);
        game_free(&g);
    }
    free(a);
    free(b);
}

/* An evaluation that aborts after `limit` calls. */
typedef struct AbortEval {
    Search *s;
    int calls, limit;
} AbortEval;

static double abort_eval(Game *g, void *ud)
{
    AbortEval *a = ud;
    if (++a->calls >= a->limit) a->s->status = SEARCH_ABORTED;
    return eval14_minimax(g, NULL);
}

TEST(deadline_and_abort_restore)
{
    SearchRootResult *r = malloc(sizeof *r);
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 3, c)) break;
        game_move(&g, t_xy(&g, 0, 0));
        GameState st;
        state_of(&g, &st);
        Search s;
        CHECK_INT(search_init(&s, &g, eval14_search_eval, NULL, 8), MB_OK);
        search_set_timelimit(&s, 0);
        CHECK_INT(search_root(&s, true, NULL, r), SEARCH_TIMEOUT);
        CHECK(same_state(&g, &st));
        /* a deadline deep inside the tree: no table, checked every node */
        s.check_every = 1;
        search_set_timelimit(&s, 1e-4);
        int rc = search_root(&s, false, NULL, r);
        CHECK(rc == SEARCH_TIMEOUT || rc == SEARCH_OK);
        CHECK(same_state(&g, &st));
        /* the callback aborts in the middle of the tree */
        search_set_timelimit(&s, -1);
        AbortEval a = {&s, 0, 100};
        s.eval = abort_eval;
        s.eval_ud = &a;
        s.use_tt = true;
        CHECK_INT(search_root(&s, true, NULL, r), SEARCH_ABORTED);
        CHECK(same_state(&g, &st));
        CHECK(r->total > 0 && r->total < 1175);
        /* a generous deadline changes nothing */
        s.eval = eval14_search_eval;
        s.eval_ud = NULL;
        search_set_timelimit(&s, 60);
        CHECK_INT(search_root(&s, true, NULL, r), SEARCH_OK);
        search_free(&s);
        game_free(&g);
    }
    free(r);
}

TEST(tt_packing_and_bounds)
{
    /* square i at bits 2i, 2i+1: 'o' 1, 'x' 2 */
    CHECK_U64(tt_pack64("o.x......", 9), 1u | 2u << 4);
    CHECK_U64(tt_key_add(tt_key_add(0, 0, MARK_O), 2, MARK_X), tt_pack64("o.x......", 9));
    CHECK_U64(tt_pack64("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 32), 0xAAAAAAAAAAAAAAAAull);
    TT t;
    tt_init(&t);
    CHECK_INT(tt_store_packed(&t, 9, tt_pack64("....o...x", 9), 0, 1, 7), MB_OK);
    TTEntry e;
    CHECK(tt_probe(&t, "....o...x", &e) && e.move == 7);
    tt_free(&t);
    /* the cut: exact, upper <= alpha, beta <= lower; else the window narrows */
    double a = -1, b = 1, v = 99;
    CHECK(tt_cut(0.5, 0.5, &a, &b, &v) && v == 0.5);
    CHECK(tt_cut(-INFINITY, -1, &a, &b, &v) && v == -1);
    CHECK(tt_cut(2, INFINITY, &a, &b, &v) && v == 2);
    CHECK(!tt_cut(-0.5, 0.25, &a, &b, &v) && a == -0.5 && b == 0.25);
    a = -1, b = 1;
    CHECK(!tt_cut(-2, 3, &a, &b, &v) && a == -1 && b == 1);
    /* the store: fail low sets upper, fail high lower, exact both */
    double lo = -3, hi = 3;
    tt_bounds_after(-1, -1, 1, &lo, &hi);
    CHECK(lo == -3 && hi == -1);
    tt_bounds_after(1, -1, 1, &lo, &hi);
    CHECK(lo == 1 && hi == -1);
    tt_bounds_after(0, -1, 1, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
    tt_bounds_fresh(-1, -1, 1, &lo, &hi);
    CHECK(lo == -INFINITY && hi == -1);
    tt_bounds_fresh(2, -1, 1, &lo, &hi);
    CHECK(lo == 2 && hi == INFINITY);
}

/* The root's tie list and pick (search_ties, search_pick): ties in the
 * order given, the extreme per side, one draw of the stream even for one. */
TEST(root_ties_and_pick)
{
    const int moves[5] = {0, 2, 4, 6, 8};
    const double sc[5] = {0.5, 1, -1, 1, 0};
    int ties[5];
    double best;
    CHECK_INT(search_ties(moves, sc, 5, true, ties, &best), 2);
    CHECK(best == 1 && ties[0] == 2 && ties[1] == 6);
    CHECK_INT(search_ties(moves, sc, 5, false, ties, &best), 1);
    CHECK(best == -1 && ties[0] == 4);
    CHECK_INT(search_ties(moves, sc, 0, true, ties, &best), 0);
    CHECK(best == -INFINITY);
    CHECK_INT(search_pick(ties, 1, NULL), 4);
    Rng a, b;
    rng_seed(&a, 0);
    rng_seed(&b, 0);
    const int two[2] = {2, 6};
    int k = rng_choice_index(&b, 2);
    CHECK_INT(search_pick(two, 2, &a), two[k]);
    CHECK_INT(search_pick(two, 1, &a), 2);
    rng_choice_index(&b, 1);
    CHECK_INT(rng_randbelow(&a, 1000), rng_randbelow(&b, 1000)); /* same draws */
}

const TestCase search_tests[] = {
    {"root_ties_and_pick", root_ties_and_pick},
    {"eval14_every_position", eval14_every_position},
    {"eval14_vectors_431", eval14_vectors_431},
    {"tt_basics", tt_basics},
    {"tt_packing_and_bounds", tt_packing_and_bounds},
    {"benchmark_every_config", benchmark_every_config},
    {"deterministic_and_restored", deterministic_and_restored},
    {"deadline_and_abort_restore", deadline_and_abort_restore},
    {0},
};
