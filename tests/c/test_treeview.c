/* test_treeview.c: checks treeview.c (SVG, DOT and text views of a subtree
 * of the game tree): for the root at depth 1 and 2 and the position after
 * "B2" at depth 1 and 2, the SVG is well-formed XML (`xmllint --noout`,
 * skipped with a message when xmllint is absent) and holds one board group
 * per node of the subtree (1 + 9, 1 + 9 + 72, 1 + 8, 1 + 8 + 56) with the
 * expected boards, best and principal-line edges; the DOT has as many nodes
 * and is accepted by `dot -Tsvg` (skipped when dot is absent); the text
 * view of the empty board; bad arguments rejected with MB_EINVAL. */
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "treeview.h"

static Tree *scored_tree(void)
{
    Tree *t = malloc(sizeof *t);
    CHECK_INT(tree_build(t, TREE_DF, NULL), MB_OK);
    CHECK_INT(tree_score(t, SCORING_OLD), MB_OK);
    return t;
}

static void tree_delete(Tree *t)
{
    tree_free(t);
    free(t);
}

/* The whole of a file as a string (NULL if unreadable); free it. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t r; (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += r;
        if (n + 1 == cap) buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int occurrences(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
    return n;
}

static bool have(const char *tool)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

static bool run_ok(const char *fmt, const char *path)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, fmt, path);
    return system(cmd) == 0;
}

/* A fresh temporary file name (the file exists, empty). */
static void temp_path(char *path, size_t len)
{
    snprintf(path, len, "/tmp/mb_treeview_XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
}

/* Write the SVG and DOT of the subtree at `start` to depth `depth` and
 * check them: `boards` nodes, `key` among the boards. */
static void check_views(const Tree *t, int32_t start, int depth, int boards, const char *key)
{
    char path[64];
    temp_path(path, sizeof path);
    CHECK_INT(treeview_count(t, start, depth), boards);

    /* SVG */
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(treeview_write_svg(t, start, depth, false, f), MB_OK);
    fclose(f);
    char *svg = slurp(path);
    CHECK(svg != NULL);
    if (svg) {
        CHECK_INT(occurrences(svg, "<g class=\"board\""), boards);
        char want[64];
        snprintf(want, sizeof want, "data-key=\"%s\"", key);
        CHECK(strstr(svg, want) != NULL);
        CHECK(strncmp(svg, "<?xml", 5) == 0);
        CHECK_INT(occurrences(svg, " pv\""), depth); /* the principal line's edges */
        CHECK(occurrences(svg, "class=\"edge best") >= depth);
        CHECK_INT(occurrences(svg, "<g class=\"edge"), boards - 1);
        free(svg);
    }
    if (have("xmllint"))
        CHECK(run_ok("xmllint --noout %s", path));
    else
        fprintf(stderr, "treeview: xmllint not installed, XML check skipped\n");

    /* DOT */
    f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(treeview_write_dot(t, start, depth, false, f), MB_OK);
    fclose(f);
    char *dot = slurp(path);
    CHECK(dot != NULL);
    if (dot) {
        CHECK_INT(occurrences(dot, "fillcolor="), boards);
        CHECK_INT(occurrences(dot, " -> "), boards - 1);
        CHECK(depth == 0 || strstr(dot, "style=bold") != NULL);
        free(dot);
    }
    if (have("dot"))
        CHECK(run_ok("dot -Tsvg %s > /dev/null", path));
    else
        fprintf(stderr, "treeview: graphviz (dot) not installed, DOT check skipped\n");
    remove(path);
}

TEST(root_depth_1_and_2)
{
    Tree *t = scored_tree();
    check_views(t, 0, 1, 10, "o........");
    check_views(t, 0, 2, 82, "ox.......");
    check_views(t, 0, 0, 1, ".........");
    tree_delete(t);
}

TEST(after_b2)
{
    Tree *t = scored_tree();
    int b2 = 1 + 3 * 1; /* x 1, y 1 */
    int32_t i = tree_find(t, &b2, 1);
    CHECK(i > 0);
    if (i > 0) {
        check_views(t, i, 1, 9, "x...o....");
        check_views(t, i, 2, 1 + 8 + 56, "x..oo....");
    }
    tree_delete(t);
}

TEST(finished_game_is_one_board)
{
    Tree *t = scored_tree();
    /* o A1, x A2, o B1, x B2, o C1: o wins on the top row */
    int moves[] = {0, 1, 3, 4, 6};
    int32_t i = tree_find(t, moves, 5);
    CHECK(i > 0);
    if (i > 0) CHECK_INT(treeview_count(t, i, 3), 1);
    tree_delete(t);
}

TEST(text_view)
{
    Tree *t = scored_tree();
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK_INT(treeview_write_text(t, 0, 1, false, f), MB_OK);
    fclose(f);
    CHECK_STR(text, "score 0, o to move\n"
                    "A1 0 *\nB1 0 *\nC1 0 *\nA2 0 *\nB2 0 *\nC2 0 *\nA3 0 *\nB3 0 *\n"
                    "C3 0 *\n");
    free(text);
    tree_delete(t);
}

TEST(bad_arguments)
{
    Tree *t = scored_tree();
    FILE *f = fopen("/dev/null", "wb");
    CHECK_INT(treeview_write_svg(t, 0, TREEVIEW_MAX_DEPTH + 1, false, f), MB_EINVAL);
    CHECK_INT(treeview_write_dot(t, 0, -1, false, f), MB_EINVAL);
    CHECK_INT(treeview_write_text(t, t->n, 1, false, f), MB_EINVAL);
    CHECK_INT(treeview_write_svg(t, -1, 1, false, f), MB_EINVAL);
    CHECK_INT(treeview_count(t, 0, TREEVIEW_MAX_DEPTH + 1), 0);
    t->scored = false;
    CHECK_INT(treeview_write_dot(t, 0, 1, false, f), MB_EINVAL);
    fclose(f);
    tree_delete(t);
}

const TestCase treeview_tests[] = {
    {"root_depth_1_and_2", root_depth_1_and_2},
    {"after_b2", after_b2},
    {"finished_game_is_one_board", finished_game_is_one_board},
    {"text_view", text_view},
    {"bad_arguments", bad_arguments},
    {0},
};
