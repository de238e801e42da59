/* serve_tree.c: the tree explorer of `marubatsu serve`: answers about one
 * node of the full 3x3 game tree (tree.h) as JSON. Each scoring's tree is
 * built on its first request (about 5 ms and 11 MB) and kept; an answer
 * then costs a tree_find and one line per child. */
#include <stdio.h>
#include <string.h>

#include "mberror.h"
#include "notation.h"
#include "serve_tree.h"

static const char *const scoring_names[3] = {"old", "sv", "sv_rd"};

static void error_json(Buf *out, const char *msg)
{
    buf_add(out, "{\"error\": ", 10);
    buf_json_string(out, msg);
    buf_add(out, "}\n", 2);
}

/* The board of a code as rows ["o..", ".x.", "..."], row y holding x = 0..2
 * (the key holds square y + 3x at position y + 3x). */
static void board_rows(Buf *out, int code)
{
    char key[TREE_CELLS + 1];
    tree_code_key(code, key);
    buf_add(out, "[", 1);
    for (int y = 0; y < 3; y++) {
        char row[4] = {key[y], key[y + 3], key[y + 6], 0};
        buf_printf(out, "%s\"%s\"", y ? "," : "", row);
    }
    buf_add(out, "]", 1);
}

static void square_name(int m, char *buf) { notation_excel_format(m / 3, m % 3, buf); }

/* Parse "B2,A1" into engine moves, each legal in turn; the node reached, or
 * -1 after writing the error. */
static int32_t walk(const Tree *t, const char *text, int *moves, int *n, Buf *out)
{
    char msg[160];
    *n = 0;
    int32_t node = 0;
    const char *p = text;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[16];
        int x, y;
        if (*n == TREE_CELLS || len == 0 || len >= sizeof item) {
            snprintf(msg, sizeof msg, "move %d of the move list is %s", *n + 1,
                     *n == TREE_CELLS ? "one too many (a game has at most 9)"
                                      : "not a square like B2");
            error_json(out, msg);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (notation_excel_parse(item, &x, &y) != MB_OK || x > 2 || y > 2) {
            snprintf(msg, sizeof msg,
                     "move %d of the move list (%s) is not a square of the 3x3 board", *n + 1,
                     item);
            error_json(out, msg);
            return -1;
        }
        int m = y + 3 * x;
        int32_t child = tree_child(t, node, m);
        if (child < 0) {
            snprintf(msg, sizeof msg, "move %d of the move list (%s) is illegal: %s", *n + 1, item,
                     tree_status(t, node) != STATUS_PLAYING ? "the game is already over"
                                                            : "the square is occupied");
            error_json(out, msg);
            return -1;
        }
        moves[(*n)++] = m;
        node = child;
        p = comma ? comma + 1 : p + len;
        if (comma && !*p) {
            snprintf(msg, sizeof msg, "the move list ends in a comma");
            error_json(out, msg);
            return -1;
        }
    }
    return node;
}

/* "score": the node's score as the series prints it, "best": its best moves. */
static void node_fields(Buf *out, const Tree *t, int32_t i, bool float_style)
{
    const TreeNode *nd = &t->node[i];
    const TreeBoard *bd = &t->board[nd->code];
    char score[TREE_SCORE_LEN], sq[16];
    tree_format_score(nd->score, float_style, score);
    buf_add(out, "\"board\": ", 9);
    board_rows(out, nd->code);
    buf_printf(
        out,
        ", \"status\": \"%s\", \"turn\": \"%s\", \"score\": \"%s\", \"nodes\": %d, \"best\": [",
        status_name((Status)bd->status), bd->turn == MARK_O ? "o" : "x", score, (int)bd->nodes);
    int best[TREE_CELLS], nb = tree_mask_moves(nd->best, best);
    for (int j = 0; j < nb; j++) {
        square_name(best[j], sq);
        buf_printf(out, "%s\"%s\"", j ? ", " : "", sq);
    }
    buf_add(out, "]", 1);
}

void serve_trees_init(ServeTrees *st)
{
    memset(st, 0, sizeof *st);
    pthread_mutex_init(&st->lock, NULL);
}

/* Build one scoring's tree unless built; false when out of memory. Once
 * built, a tree is only read, so readers need no lock after this. */
static bool build(ServeTrees *st, Scoring s)
{
    pthread_mutex_lock(&st->lock);
    if (!st->built[s]) {
        Tree *t = &st->tree[s];
        int rc = tree_build(t, TREE_DF, NULL);
        if (rc == MB_OK) rc = tree_score(t, s);
        if (rc == MB_OK) {
            st->built[s] = true;
        } else {
            tree_free(t);
            memset(t, 0, sizeof *t);
        }
    }
    bool ok = st->built[s];
    pthread_mutex_unlock(&st->lock);
    return ok;
}

void serve_trees_prebuild(ServeTrees *st, Scoring s) { build(st, s); }

int serve_tree_answer(ServeTrees *st, const char *moves, const char *scoring, Buf *out)
{
    int s = -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(scoring ? scoring : "sv", scoring_names[i]) == 0) s = i;
    if (s < 0) {
        error_json(out, "scoring must be old, sv or sv_rd");
        return 400;
    }
    Tree *t = &st->tree[s];
    if (!build(st, (Scoring)s)) {
        error_json(out, "out of memory building the game tree");
        return 500;
    }
    int path[TREE_CELLS], n;
    int32_t node = walk(t, moves ? moves : "", path, &n, out);
    if (node < 0) return 400;
    bool float_style = s != SCORING_OLD;
    char sq[16];
    buf_printf(out, "{\"scoring\": \"%s\", \"path\": [", scoring_names[s]);
    for (int j = 0; j < n; j++) {
        square_name(path[j], sq);
        buf_printf(out, "%s\"%s\"", j ? ", " : "", sq);
    }
    buf_printf(out, "], \"depth\": %d, \"depth_counts\": [", n);
    for (int d = 0; d < TREE_DEPTHS - 1; d++)
        buf_printf(out, "%s%d", d ? ", " : "", (int)t->depth_count[d]);
    buf_printf(out, "], \"total\": %d,\n \"node\": {", (int)t->n);
    node_fields(out, t, node, float_style);
    buf_add(out, "},\n \"children\": [", 17);
    const TreeNode *nd = &t->node[node];
    for (int c = 0; c < nd->nkids; c++) {
        int32_t k = t->kids[nd->kids + c];
        int m = t->node[k].move;
        square_name(m, sq);
        bool best = (nd->best & TREE_BIT(m / 3, m % 3)) != 0;
        buf_printf(out, "%s\n  {\"move\": \"%s\", \"is_best\": %s, ", c ? "," : "", sq,
                   best ? "true" : "false");
        node_fields(out, t, k, float_style);
        buf_add(out, "}", 1);
    }
    buf_add(out, "]}\n", 3);
    return out->oom ? 500 : 200;
}

void serve_trees_free(ServeTrees *st)
{
    for (int i = 0; i < 3; i++) tree_free(&st->tree[i]);
    pthread_mutex_destroy(&st->lock);
    memset(st, 0, sizeof *st);
}
