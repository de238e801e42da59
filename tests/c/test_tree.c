/* test_tree.c: checks tree.c (the full game tree, its scores and best-move
 * tables) against tree.md:
 * - the breadth-first progress lines byte for byte, a silent depth-first
 *   build; 549,946 nodes, per-depth counts, leaves by depth and result (§2,
 *   §3); 5,478 distinct boards, 958 finished (§4);
 * - links, boards, statuses and legal moves against replays through the
 *   engine; bf and df creating the same boards and the same scores;
 * - score histograms (§5); the tables of every scoring equal to the series'
 *   five JSON files (copied to tests/data, read through tree_load_json)
 *   entry by entry, and byte for byte when saved;
 * - the regression cases T1-T6 and the root (§7);
 * - save/parse round trips; malformed JSON rejected with its line and
 *   column; every truncation and 20,000 seeded mutations never crashing. */
#include <stdlib.h>

#include "testutil.h"

/* ---- helpers ---- */

/* The engine's move number of (x, y) on 3x3. */
static int mv(int x, int y) { return y + 3 * x; }

/* A built tree, scored in `s` (never NULL; asserts it built). */
static Tree *tree_new(TreeOrder order, Scoring s)
{
    Tree *t = malloc(sizeof *t);
    CHECK_INT(tree_build(t, order, NULL), MB_OK);
    CHECK_INT(tree_score(t, s), MB_OK);
    return t;
}

static void tree_delete(Tree *t)
{
    tree_free(t);
    free(t);
}

/* The board table of a tree. */
static void table_of(const Tree *t, TreeTable *table)
{
    CHECK_INT(tree_table_init(table), MB_OK);
    CHECK_INT(tree_bestmoves_by_board(t, table), MB_OK);
}

/* Load tests/data/NAME through tree_load_json; false after a t_fail. */
static bool load_data(const char *name, TreeTable *table)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", t_data_dir(), name);
    CHECK_INT(tree_table_init(table), MB_OK);
    FILE *f = fopen(path, "rb");
    if (!f) {
        t_fail(__FILE__, __LINE__, "cannot open %s", path);
        return false;
    }
    int rc = tree_load_json(table, f, err, sizeof err);
    fclose(f);
    if (rc != MB_OK) t_fail(__FILE__, __LINE__, "%s: %s", path, err);
    return rc == MB_OK;
}

/* The whole of tests/data/NAME (malloc'ed, *len bytes), or NULL. */
static char *read_data(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", t_data_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* A table saved to memory (malloc'ed, *len bytes). */
static char *save_to_memory(const TreeTable *t, bool with_score, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    CHECK_INT(tree_save_json(t, with_score, f), MB_OK);
    fclose(f);
    return buf;
}

/* The child of node i by move (x, y); its score (twice the value). */
static int child_score(const Tree *t, int32_t i, int x, int y)
{
    int32_t c = tree_child(t, i, mv(x, y));
    CHECK(c >= 0);
    return c >= 0 ? t->node[c].score : 99;
}

/* The node after a list of (x, y) pairs. */
static int32_t find_xy(const Tree *t, const int *xy, int n)
{
    int moves[TREE_CELLS];
    for (int k = 0; k < n; k++) moves[k] = mv(xy[2 * k], xy[2 * k + 1]);
    return tree_find(t, moves, n);
}

/* The mask of a list of (x, y) pairs. */
static unsigned mask_xy(const int *xy, int n)
{
    unsigned m = 0;
    for (int k = 0; k < n; k++) m |= TREE_BIT(xy[2 * k], xy[2 * k + 1]);
    return m;
}

static const int32_t depth_counts[10] = {1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};

/* ---- construction ---- */

TEST(bf_progress_lines)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    Tree t;
    CHECK_INT(tree_build(&t, TREE_BF, f), MB_OK);
    fclose(f);
    CHECK_STR(out, "     9 depth 1 node created\n"
                   "    72 depth 2 node created\n"
                   "   504 depth 3 node created\n"
                   "  3024 depth 4 node created\n"
                   " 15120 depth 5 node created\n"
                   " 54720 depth 6 node created\n"
                   "148176 depth 7 node created\n"
                   "200448 depth 8 node created\n"
                   "127872 depth 9 node created\n"
                   "     0 depth 10 node created\n"
                   "total node num = 549946\n");
    CHECK_INT(t.n, 549946);
    CHECK_INT(t.ndepths, 11);
    CHECK_INT(t.depth_count[10], 0);
    free(out);
    tree_free(&t);
}

TEST(df_prints_nothing)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    Tree t;
    CHECK_INT(tree_build(&t, TREE_DF, f), MB_OK);
    fclose(f);
    CHECK_INT(len, 0);
    CHECK_INT(t.n, 549946);
    CHECK_INT(t.n - 1, 549945); /* the series' nodenum counts non-root nodes */
    CHECK_INT(t.ndepths, 10);
    /* preorder: (0,0), then (0,0),(1,0), then (0,0),(1,0),(2,0) */
    CHECK_INT(t.node[1].move, mv(0, 0));
    CHECK_INT(t.node[2].parent, 1);
    CHECK_INT(t.node[3].parent, 2);
    CHECK_INT(t.node[3].move, mv(2, 0));
    free(out);
    tree_free(&t);
}

TEST(counts_by_depth)
{
    for (int o = 0; o < 2; o++) {
        Tree t;
        CHECK_INT(tree_build(&t, (TreeOrder)o, NULL), MB_OK);
        TreeStats s;
        tree_stats(&t, &s);
        CHECK_INT(s.nodes, 549946);
        for (int d = 0; d < 10; d++) {
            CHECK_INT(t.depth_count[d], depth_counts[d]);
            CHECK_INT(s.by_depth[d], depth_counts[d]);
        }
        if (o == TREE_BF) /* levels are contiguous runs of ids */
            for (int32_t i = 1, d = 0, start = 0; i < t.n; i++) {
                while (i >= start + t.depth_count[d]) start += t.depth_count[d++];
                if (t.node[i].depth != d) {
                    CHECK_INT(t.node[i].depth, d);
                    break;
                }
            }
        tree_free(&t);
    }
}

TEST(leaves_by_depth_and_result)
{
    Tree t;
    CHECK_INT(tree_build(&t, TREE_BF, NULL), MB_OK);
    TreeStats s;
    tree_stats(&t, &s);
    int32_t want[TREE_DEPTHS][4] = {{0}};
    want[5][STATUS_O] = 1440;
    want[6][STATUS_X] = 5328;
    want[7][STATUS_O] = 47952;
    want[8][STATUS_X] = 72576;
    want[9][STATUS_O] = 81792;
    want[9][STATUS_DRAW] = 46080;
    for (int d = 0; d < TREE_DEPTHS; d++)
        for (int r = 0; r < 4; r++) CHECK_INT(s.leaves_by[d][r], want[d][r]);
    CHECK_INT(s.wins[STATUS_O], 131184);
    CHECK_INT(s.wins[STATUS_X], 77904);
    CHECK_INT(s.wins[STATUS_DRAW], 46080);
    CHECK_INT(s.leaves, 255168);
    /* a node is a leaf exactly when its game is over */
    int32_t bad = 0;
    for (int32_t i = 0; i < t.n; i++)
        bad += (t.node[i].nkids == 0) != (tree_status(&t, i) != STATUS_PLAYING);
    CHECK_INT(bad, 0);
    tree_free(&t);
}

TEST(distinct_boards)
{
    Tree *t = tree_new(TREE_BF, SCORING_OLD);
    TreeStats s;
    tree_stats(t, &s);
    CHECK_INT(s.boards, 5478);
    CHECK_INT(s.finished_boards, 958);
    TreeTable table;
    table_of(t, &table);
    CHECK_INT(table.n, 5478);
    int empty = 0, finished_empty = 0;
    for (int r = 0; r < table.n; r++) {
        empty += table.entry[r].best == 0;
        finished_empty +=
            table.entry[r].best == 0 && t->board[table.entry[r].code].status != STATUS_PLAYING;
    }
    CHECK_INT(empty, 958);
    CHECK_INT(finished_empty, 958);
    tree_table_free(&table);
    tree_delete(t);
}

/* Replay node i's moves through the engine; compare key, status, moves. */
static void check_against_engine(const Tree *t, int32_t i, Game *g)
{
    int path[TREE_CELLS], n = 0;
    for (int32_t j = i; j > 0; j = t->node[j].parent) path[n++] = t->node[j].move;
    game_restart(g);
    for (int k = n - 1; k >= 0; k--) game_move(g, path[k]);
    char key[TREE_CELLS + 1], want[TREE_CELLS + 1];
    tree_code_key(t->node[i].code, key);
    notation_key(g, want);
    CHECK_STR(key, want);
    CHECK_INT(tree_status(t, i), g->status);
    CHECK_INT(t->node[i].depth, g->move_count);
    int moves[TREE_CELLS], nm = game_legal_moves(g, moves);
    CHECK_INT(t->node[i].nkids, nm);
    for (int k = 0; k < nm && k < t->node[i].nkids; k++)
        CHECK_INT(t->node[t->kids[t->node[i].kids + k]].move, moves[k]);
    CHECK_INT(tree_find(t, path, 0), 0);
}

TEST(links_and_boards_follow_the_engine)
{
    Game g;
    GameOptions opt = game_default_options();
    CHECK_INT(game_init(&g, &opt, NULL, 0), MB_OK);
    for (int o = 0; o < 2; o++) {
        Tree t;
        CHECK_INT(tree_build(&t, (TreeOrder)o, NULL), MB_OK);
        int32_t bad = 0;
        for (int32_t i = 1; i < t.n; i++) {
            const TreeNode *c = &t.node[i], *p = &t.node[c->parent];
            bad += c->parent >= i || c->depth != p->depth + 1 ||
                   tree_child(&t, c->parent, c->move) != i;
        }
        CHECK_INT(bad, 0);
        for (int32_t i = 0; i < t.n; i += 997) check_against_engine(&t, i, &g);
        check_against_engine(&t, t.n - 1, &g);
        tree_free(&t);
    }
    game_free(&g);
}

TEST(orders_create_the_same_boards)
{
    Tree bf, df;
    CHECK_INT(tree_build(&bf, TREE_BF, NULL), MB_OK);
    CHECK_INT(tree_build(&df, TREE_DF, NULL), MB_OK);
    int32_t *count = calloc(TREE_NCODES, sizeof *count);
    for (int32_t i = 0; i < bf.n; i++) count[bf.node[i].code]++;
    for (int32_t i = 0; i < df.n; i++) count[df.node[i].code]--;
    int bad = 0;
    for (int c = 0; c < TREE_NCODES; c++) bad += count[c] != 0;
    CHECK_INT(bad, 0);
    free(count);
    tree_free(&bf);
    tree_free(&df);
}

/* ---- scores ---- */

TEST(orders_give_identical_scores)
{
    for (int s = SCORING_OLD; s <= SCORING_SV_RD; s++) {
        Tree *bf = tree_new(TREE_BF, (Scoring)s), *df = tree_new(TREE_DF, (Scoring)s);
        TreeTable a, b;
        table_of(bf, &a);
        table_of(df, &b);
        char diff[256] = "";
        CHECK(tree_table_equal(&a, &b, diff, sizeof diff));
        CHECK_STR(diff, "");
        tree_table_free(&a);
        tree_table_free(&b);
        tree_delete(bf);
        tree_delete(df);
    }
}

TEST(equal_boards_have_equal_results)
{
    for (int s = SCORING_OLD; s <= SCORING_SV_RD; s++) {
        Tree *t = tree_new(TREE_DF, (Scoring)s);
        TreeTable table;
        table_of(t, &table);
        int32_t bad = 0;
        for (int32_t i = 0; i < t->n; i++) {
            const TreeEntry *e = tree_table_get(&table, t->node[i].code);
            bad += !e || e->score != t->node[i].score || e->best != t->node[i].best;
        }
        CHECK_INT(bad, 0);
        tree_table_free(&table);
        tree_delete(t);
    }
}

/* Count nodes (or boards, from the table) by score: hist[score2 + 8]. */
static void histograms(Scoring s, int32_t nodes[17], int32_t boards[17])
{
    Tree *t = tree_new(TREE_BF, s);
    TreeTable table;
    table_of(t, &table);
    memset(nodes, 0, 17 * sizeof *nodes);
    memset(boards, 0, 17 * sizeof *boards);
    for (int32_t i = 0; i < t->n; i++) nodes[t->node[i].score + 8]++;
    for (int r = 0; r < table.n; r++) boards[table.entry[r].score + 8]++;
    tree_table_free(&table);
    tree_delete(t);
}

TEST(score_histograms)
{
    int32_t n[17], b[17];
    histograms(SCORING_OLD, n, b); /* score2 -2, 0, 2 */
    CHECK_INT(n[6], 148708);
    CHECK_INT(n[8], 132182);
    CHECK_INT(n[10], 269056);
    CHECK_INT(b[6], 1474);
    CHECK_INT(b[8], 1068);
    CHECK_INT(b[10], 2936);
    histograms(SCORING_SV, n, b); /* score2 -4 .. 6 */
    const int32_t sv_nodes[6] = {10656, 138052, 132182, 177648, 88528, 2880};
    const int32_t sv_boards[6] = {592, 882, 1068, 392, 2064, 480};
    for (int k = 0; k < 6; k++) {
        CHECK_INT(n[8 + 2 * (k - 2)], sv_nodes[k]);
        CHECK_INT(b[8 + 2 * (k - 2)], sv_boards[k]);
    }
    /* sv_rd: the series' JSON copy has 277 x -0.5, 212 x 0, 579 x 0.5 */
    histograms(SCORING_SV_RD, n, b);
    CHECK_INT(b[7], 277);
    CHECK_INT(b[8], 212);
    CHECK_INT(b[9], 579);
    CHECK_INT(b[7] + b[8] + b[9], 1068);
}

TEST(root)
{
    for (int s = SCORING_OLD; s <= SCORING_SV_RD; s++) {
        Tree *t = tree_new((TreeOrder)(s % 2), (Scoring)s);
        CHECK_INT(t->node[0].score, s == SCORING_SV_RD ? -1 : 0); /* sv_rd: -0.5 */
        CHECK_INT(t->node[0].best, 0x1ff);
        tree_delete(t);
    }
}

TEST(t1_old_table_does_not_win_at_once)
{
    static const int hist[] = {1, 1, 1, 0, 0, 0, 2, 0};
    static const int old_best[] = {0, 1, 2, 1, 0, 2, 2, 2};
    for (int s = SCORING_OLD; s <= SCORING_SV; s++) {
        Tree *t = tree_new(TREE_BF, (Scoring)s);
        int32_t i = find_xy(t, hist, 4);
        CHECK(i >= 0);
        char key[TREE_CELLS + 1];
        tree_code_key(t->node[i].code, key);
        CHECK_STR(key, "o..xo.x..");
        bool sv = s == SCORING_SV;
        CHECK_INT(t->node[i].score, sv ? 6 : 2);
        CHECK_INT(t->node[i].best, sv ? TREE_BIT(2, 2) : mask_xy(old_best, 4));
        CHECK_INT(child_score(t, i, 0, 1), sv ? 4 : 2);
        CHECK_INT(child_score(t, i, 2, 1), sv ? 4 : 2);
        CHECK_INT(child_score(t, i, 0, 2), sv ? 4 : 2);
        CHECK_INT(child_score(t, i, 1, 2), 0);
        CHECK_INT(child_score(t, i, 2, 2), sv ? 6 : 2);
        tree_delete(t);
    }
}

TEST(t2_after_the_centre)
{
    static const int corners[] = {0, 0, 2, 0, 0, 2, 2, 2};
    static const int edges[] = {1, 0, 0, 1, 2, 1, 1, 2};
    static const int two[] = {1, 1, 1, 0};
    static const int two_best[] = {0, 0, 2, 0, 0, 1, 2, 1, 0, 2, 2, 2};
    for (int s = SCORING_OLD; s <= SCORING_SV; s++) {
        Tree *t = tree_new(TREE_DF, (Scoring)s);
        int win = s == SCORING_SV ? 4 : 2;
        int32_t i = find_xy(t, two, 1);
        char key[TREE_CELLS + 1];
        tree_code_key(t->node[i].code, key);
        CHECK_STR(key, "....o....");
        CHECK_INT(t->node[i].score, 0);
        CHECK_INT(t->node[i].best, mask_xy(corners, 4));
        for (int k = 0; k < 4; k++) {
            CHECK_INT(child_score(t, i, corners[2 * k], corners[2 * k + 1]), 0);
            CHECK_INT(child_score(t, i, edges[2 * k], edges[2 * k + 1]), win);
        }
        i = find_xy(t, two, 2);
        CHECK_INT(t->node[i].score, win);
        CHECK_INT(t->node[i].best, mask_xy(two_best, 6));
        CHECK_INT(child_score(t, i, 1, 2), 0);
        tree_delete(t);
    }
}

TEST(t3_to_t5_shortest_victory_plays_the_win)
{
    static const int hist[] = {1, 1, 1, 0, 0, 0, 2, 0};
    Tree *t = tree_new(TREE_BF, SCORING_SV);
    /* T3: by move history (ai_gt4), 〇 at the T1 position has one move */
    CHECK_INT(t->node[find_xy(t, hist, 4)].best, TREE_BIT(2, 2));
    TreeTable table;
    table_of(t, &table);
    /* T4: × after 〇(1,1), ×(1,0), 〇(0,0); T5: 〇 at the T1 position */
    const TreeEntry *e = tree_table_get(&table, tree_key_code("o..xo...."));
    CHECK(e && e->best == TREE_BIT(2, 2));
    e = tree_table_get(&table, tree_key_code("o..xo.x.."));
    CHECK(e && e->best == TREE_BIT(2, 2));
    tree_table_free(&table);
    tree_delete(t);
}

TEST(t6_delaying_defeat)
{
    static const int hist[] = {1, 1, 1, 0, 0, 0};
    static const int six[] = {2, 0, 0, 1, 2, 1, 0, 2, 1, 2, 2, 2};
    for (int s = SCORING_OLD; s <= SCORING_SV; s++) {
        Tree *t = tree_new(TREE_BF, (Scoring)s);
        bool sv = s == SCORING_SV;
        int32_t i = find_xy(t, hist, 3);
        char key[TREE_CELLS + 1];
        tree_code_key(t->node[i].code, key);
        CHECK_STR(key, "o..xo....");
        CHECK_INT(t->node[i].best, sv ? TREE_BIT(2, 2) : mask_xy(six, 6));
        for (int k = 0; k < 6; k++) {
            int x = six[2 * k], y = six[2 * k + 1];
            CHECK_INT(child_score(t, i, x, y), !sv ? 2 : x == 2 && y == 2 ? 4 : 6);
        }
        tree_delete(t);
    }
}

/* ---- tables and JSON ---- */

static const struct {
    const char *file;
    Scoring scoring;
    TreeOrder order; /* the order whose first occurrences give the file's row order */
    bool with_score;
} spec_files[] = {
    {"bestmoves_by_board.json", SCORING_OLD, TREE_DF, false},
    {"bestmoves_by_board_shortest_victory.json", SCORING_SV, TREE_BF, false},
    {"bestmoves_and_score_by_board.json", SCORING_OLD, TREE_DF, true},
    {"bestmoves_and_score_by_board_shortest_victory.json", SCORING_SV, TREE_BF, true},
    {"bestmoves_and_score_by_board_sv_rd.json", SCORING_SV_RD, TREE_BF, true},
};

TEST(tables_equal_the_spec_files)
{
    for (size_t f = 0; f < sizeof spec_files / sizeof spec_files[0]; f++) {
        TreeTable want, got;
        if (!load_data(spec_files[f].file, &want)) {
            tree_table_free(&want);
            continue;
        }
        CHECK_INT(want.n, 5478);
        CHECK_INT(want.has_score, spec_files[f].with_score);
        /* the other order too: its rows differ in order only */
        for (int o = 0; o < 2; o++) {
            Tree *t = tree_new((TreeOrder)o, spec_files[f].scoring);
            table_of(t, &got);
            int same = 0;
            for (int r = 0; r < want.n; r++) {
                const TreeEntry *w = &want.entry[r], *g = tree_table_get(&got, w->code);
                same += g && g->best == w->best && (!want.has_score || g->score == w->score);
            }
            CHECK_INT(same, 5478);
            char diff[256] = "";
            CHECK(tree_table_equal(&got, &want, diff, sizeof diff));
            CHECK_STR(diff, "");
            tree_table_free(&got);
            tree_delete(t);
        }
        tree_table_free(&want);
    }
}

TEST(saved_json_is_the_spec_files_byte_for_byte)
{
    for (size_t f = 0; f < sizeof spec_files / sizeof spec_files[0]; f++) {
        size_t wlen = 0, glen = 0;
        char *want = read_data(spec_files[f].file, &wlen);
        CHECK(want != NULL);
        Tree *t = tree_new(spec_files[f].order, spec_files[f].scoring);
        TreeTable table;
        table_of(t, &table);
        char *got = save_to_memory(&table, spec_files[f].with_score, &glen);
        CHECK_INT(glen, wlen);
        if (want && glen == wlen && memcmp(got, want, wlen) != 0)
            t_fail(__FILE__, __LINE__, "%s: same length, different bytes", spec_files[f].file);
        free(got);
        free(want);
        tree_table_free(&table);
        tree_delete(t);
    }
}

TEST(save_then_parse_round_trip)
{
    for (int s = SCORING_OLD; s <= SCORING_SV_RD; s++)
        for (int shape = 0; shape < 2; shape++) {
            Tree *t = tree_new(TREE_BF, (Scoring)s);
            TreeTable a, b;
            table_of(t, &a);
            size_t len = 0, len2 = 0;
            char *text = save_to_memory(&a, shape, &len), err[256] = "";
            CHECK_INT(tree_table_init(&b), MB_OK);
            CHECK_INT(tree_parse_json(&b, text, len, err, sizeof err), MB_OK);
            CHECK_STR(err, "");
            CHECK_INT(b.n, a.n);
            CHECK_INT(b.has_score, shape);
            CHECK(tree_table_equal(&a, &b, err, sizeof err));
            char *again = save_to_memory(&b, shape, &len2);
            CHECK(len2 == len && memcmp(text, again, len) == 0);
            for (int r = 0; r < a.n; r++) /* rows keep their order */
                if (a.entry[r].code != b.entry[r].code) {
                    CHECK_INT(b.entry[r].code, a.entry[r].code);
                    break;
                }
            free(text);
            free(again);
            tree_table_free(&a);
            tree_table_free(&b);
            tree_delete(t);
        }
}

TEST(scores_keys_and_moves_as_text)
{
    char buf[TREE_SCORE_LEN], key[TREE_CELLS + 1];
    static const struct {
        int score2;
        bool fl;
        const char *want;
    } cases[] = {{2, false, "1"},    {-2, false, "-1"}, {0, false, "0"},    {6, true, "3.0"},
                 {-4, true, "-2.0"}, {0, true, "0"},    {-1, true, "-0.5"}, {1, false, "0.5"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tree_format_score(cases[k].score2, cases[k].fl, buf);
        CHECK_STR(buf, cases[k].want);
    }
    int code = tree_key_code("o..xo.x..");
    tree_code_key(code, key);
    CHECK_STR(key, "o..xo.x..");
    CHECK_INT(tree_key_code("o..xo.x."), -1);
    CHECK_INT(tree_key_code("o..xo.x..."), -1);
    CHECK_INT(tree_key_code("O..xo.x.."), -1);
    CHECK_INT(tree_key_code("........."), 0);
    int moves[TREE_CELLS];
    CHECK_INT(tree_mask_moves(TREE_BIT(1, 0) | TREE_BIT(0, 2) | TREE_BIT(2, 1), moves), 3);
    CHECK_INT(moves[0], mv(1, 0)); /* legal order: row by row */
    CHECK_INT(moves[1], mv(2, 1));
    CHECK_INT(moves[2], mv(0, 2));
}

/* Parse text, expecting failure with exactly `want` (or success if NULL). */
static void expect_parse(const char *text, size_t len, const char *want)
{
    TreeTable t;
    char err[256] = "";
    CHECK_INT(tree_table_init(&t), MB_OK);
    int rc = tree_parse_json(&t, text, len, err, sizeof err);
    if (!want) {
        CHECK_INT(rc, MB_OK);
        CHECK_STR(err, "");
    } else {
        CHECK_INT(rc, MB_ESYNTAX);
        CHECK_STR(err, want);
        CHECK_INT(t.n, 0);
    }
    tree_table_free(&t);
}
#define EXPECT_PARSE(text, want) expect_parse((text), sizeof(text) - 1, (want))

TEST(malformed_json_rejected_with_line_numbers)
{
    EXPECT_PARSE("", "line 1, column 1: expected '{', found the end of the input");
    EXPECT_PARSE("  []", "line 1, column 3: expected '{', found '['");
    EXPECT_PARSE("{\n \"o........\": [[1,1]],\n \"o.......\": []\n}",
                 "line 3, column 2: \"o.......\" is not a board key (9 of '.', 'o', 'x')");
    EXPECT_PARSE("{\r\n\"o........\": [[1,1]],\r\n\"o........\": [[1,1]]}",
                 "line 3, column 1: repeated board key \"o........\"");
    EXPECT_PARSE("{\"o........\": [[0,0]]}",
                 "line 1, column 16: move [0,0] is on a taken square of board o........");
    EXPECT_PARSE("{\".........\":\n  [[1,0],\n   [0,0]]}",
                 "line 3, column 4: move [0,0] of board ......... is out of legal-move "
                 "order or repeated");
    EXPECT_PARSE("{\".........\": [[1,0],[1,0]]}",
                 "line 1, column 22: move [1,0] of board ......... is out of legal-move "
                 "order or repeated");
    EXPECT_PARSE("{\".........\": [[3,0]]}", "line 1, column 17: expected a coordinate 0, 1 or 2");
    EXPECT_PARSE("{\".........\": [[1.0,0]]}",
                 "line 1, column 17: expected a coordinate 0, 1 or 2");
    EXPECT_PARSE("{\".........\": [[1,0]}", "line 1, column 21: expected ',' or ']', found '}'");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": [], \"score\": 1e0}}",
                 "line 1, column 42: exponents are not supported");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": [], \"score\": 0.25}}",
                 "line 1, column 42: scores are multiples of 0.5");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": [], \"score\": 64}}",
                 "line 1, column 42: score out of range");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": [], \"score\": 01}}",
                 "line 1, column 42: numbers do not start with 0");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": [], \"score\": -}}",
                 "line 1, column 42: expected a number");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": [], \"score\": 1.}}",
                 "line 1, column 42: expected a digit after '.'");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": []}}",
                 "line 1, column 31: missing field \"score\"");
    EXPECT_PARSE("{\".........\": {}}", "line 1, column 16: missing field \"bestmoves\"");
    EXPECT_PARSE("{\".........\": {\"bestmoves\": [], \"scor\": 1}}",
                 "line 1, column 33: unknown field \"scor\" (bestmoves or score)");
    EXPECT_PARSE("{\".........\": {\"score\": 0, \"score\": 0}}",
                 "line 1, column 28: repeated field \"score\"");
    EXPECT_PARSE("{\".........\": [],\n \"o........\": {\"bestmoves\": [], \"score\": 0}}",
                 "line 2, column 15: expected a list of moves like the first board's value");
    EXPECT_PARSE("{\".........\": [], }", "line 1, column 19: expected a board key, found '}'");
    EXPECT_PARSE("{} x", "line 1, column 4: unexpected text after the table");
    EXPECT_PARSE("{\"......", "line 1, column 9: unterminated string");
    EXPECT_PARSE("{\"....\\u002e....\": []}",
                 "line 1, column 7: escapes are not supported in a board key");
    EXPECT_PARSE("{\"..........\": []}",
                 "line 1, column 2: \"..........\" is not a board key (9 of '.', 'o', 'x')");
    EXPECT_PARSE("{\"............\": []}", "line 1, column 13: a board key is too long");
    EXPECT_PARSE("{\".........\": [\0]}",
                 "line 1, column 16: expected '[' (a move [x,y]), found byte 0x00");
    /* what is accepted: blanks anywhere, fields in either order, empty table */
    EXPECT_PARSE(" { } ", NULL);
    EXPECT_PARSE("{\n\t\".........\" : { \"score\" : -0.5 , \"bestmoves\" : [ [ 0 , 0 ] ] }\r\n}\n",
                 NULL);
}

TEST(truncated_and_mutated_json_never_crash)
{
    static const char doc[] =
        "{\".........\": {\"bestmoves\": [[0,0],[1,0],[2,0],[0,1],[1,1],[2,1],[0,2],[1,2],"
        "[2,2]], \"score\": -0.5},\n \"o........\": {\"bestmoves\": [[1,1]], \"score\": 0.5},\n"
        " \"o..x.....\": {\"score\": 2.0, \"bestmoves\": [[0,1],[1,1],[0,2]]}}";
    size_t len = sizeof doc - 1;
    expect_parse(doc, len, NULL);
    TreeTable t;
    CHECK_INT(tree_table_init(&t), MB_OK);
    char err[256], *buf = malloc(len);
    int bad = 0;
    for (size_t cut = 0; cut < len; cut++) { /* every proper prefix fails cleanly */
        memcpy(buf, doc, cut);
        bad += tree_parse_json(&t, buf, cut, err, sizeof err) != MB_ESYNTAX ||
               strncmp(err, "line ", 5) != 0 || t.n != 0;
    }
    CHECK_INT(bad, 0);
    Rng r;
    rng_seed(&r, 118);
    static const char alphabet[] = "{}[],:\"0125.-eox \n\\";
    for (int k = 0; k < 20000; k++) { /* one to three bytes changed */
        memcpy(buf, doc, len);
        for (int j = (int)rng_randbelow(&r, 3); j >= 0; j--)
            buf[rng_randbelow(&r, len)] = alphabet[rng_randbelow(&r, sizeof alphabet - 1)];
        int rc = tree_parse_json(&t, buf, len, err, sizeof err);
        bad += rc == MB_OK ? t.n < 1 || t.n > 3 : rc != MB_ESYNTAX || strncmp(err, "line ", 5) != 0;
    }
    CHECK_INT(bad, 0);
    free(buf);
    tree_table_free(&t);
}

TEST(unscored_tree_and_bad_arguments)
{
    Tree t;
    TreeTable table;
    CHECK_INT(tree_build(&t, TREE_DF, NULL), MB_OK);
    CHECK_INT(tree_table_init(&table), MB_OK);
    CHECK_INT(tree_bestmoves_by_board(&t, &table), MB_EINVAL);
    CHECK_INT(tree_score(&t, (Scoring)7), MB_EINVAL);
    CHECK_INT(tree_child(&t, 0, 9), -1);
    int moves[2] = {mv(1, 1), mv(1, 1)};
    CHECK_INT(tree_find(&t, moves, 2), -1);
    /* a table without scores cannot be saved with them */
    size_t len = 0;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    CHECK_INT(tree_save_json(&table, true, f), MB_EINVAL);
    CHECK_INT(tree_save_json(&table, false, f), MB_OK);
    fclose(f);
    CHECK_STR(buf, "{}");
    free(buf);
    tree_table_free(&table);
    tree_free(&t);
    tree_free(&t); /* a freed tree is fine */
}

const TestCase tree_tests[] = {
    {"bf_progress_lines", bf_progress_lines},
    {"df_prints_nothing", df_prints_nothing},
    {"counts_by_depth", counts_by_depth},
    {"leaves_by_depth_and_result", leaves_by_depth_and_result},
    {"distinct_boards", distinct_boards},
    {"links_and_boards_follow_the_engine", links_and_boards_follow_the_engine},
    {"orders_create_the_same_boards", orders_create_the_same_boards},
    {"orders_give_identical_scores", orders_give_identical_scores},
    {"equal_boards_have_equal_results", equal_boards_have_equal_results},
    {"score_histograms", score_histograms},
    {"root", root},
    {"t1_old_table_does_not_win_at_once", t1_old_table_does_not_win_at_once},
    {"t2_after_the_centre", t2_after_the_centre},
    {"t3_to_t5_shortest_victory_plays_the_win", t3_to_t5_shortest_victory_plays_the_win},
    {"t6_delaying_defeat", t6_delaying_defeat},
    {"tables_equal_the_spec_files", tables_equal_the_spec_files},
    {"saved_json_is_the_spec_files_byte_for_byte", saved_json_is_the_spec_files_byte_for_byte},
    {"save_then_parse_round_trip", save_then_parse_round_trip},
    {"scores_keys_and_moves_as_text", scores_keys_and_moves_as_text},
    {"malformed_json_rejected_with_line_numbers", malformed_json_rejected_with_line_numbers},
    {"truncated_and_mutated_json_never_crash", truncated_and_mutated_json_never_crash},
    {"unscored_tree_and_bad_arguments", unscored_tree_and_bad_arguments},
    {0},
};
