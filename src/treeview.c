/* treeview.c: SVG, DOT and text views of a subtree of the game tree
 * (treeview.h). Layout of the SVG: one row per level, the deepest boards
 * drawn (leaves of the view) side by side in depth-first order, each parent
 * centred above its first and last child. */
#include <inttypes.h>

#include "mberror.h"
#include "treeview.h"

#define CELL   14         /* a square of a board */
#define BOARD  (3 * CELL) /* a board */
#define SLOT   60         /* horizontal room of a leaf */
#define LEVEL  110        /* vertical room of a level */
#define MARGIN 20

/* The view's principal line: pv[d] is the node at level d below the start
 * (the first best move each time), -1 past its end. */
typedef struct View {
    const Tree *t;
    int depth;
    bool float_style;
    FILE *f;
    int32_t pv[TREEVIEW_MAX_DEPTH + 1];
    int next_slot;
} View;

static bool is_best(const Tree *t, int32_t parent, int32_t child)
{
    int m = t->node[child].move;
    return (t->node[parent].best & TREE_BIT(m / 3, m % 3)) != 0;
}

static void move_name(int m, char *buf)
{
    buf[0] = (char)('A' + m / 3);
    buf[1] = (char)('1' + m % 3);
    buf[2] = '\0';
}

/* Fill colours: o wins (red), draws (grey), x wins (blue); stronger for
 * faster wins in the shortest-victory schemes, paler for sv_rd's +-0.5. */
static const char *fill_colour(int score2)
{
    if (score2 >= 4) return "#ef9a9a";
    if (score2 >= 2) return "#ffcdd2";
    if (score2 == 1) return "#fdecec";
    if (score2 == 0) return "#e0e0e0";
    if (score2 == -1) return "#e8f1fc";
    if (score2 >= -3) return "#bbdefb";
    return "#90caf9";
}

static int valid(const Tree *t, int32_t start, int depth)
{
    return t && t->scored && start >= 0 && start < t->n && depth >= 0 &&
           depth <= TREEVIEW_MAX_DEPTH;
}

static void principal_line(View *v, int32_t start)
{
    int32_t i = start;
    for (int d = 0; d <= TREEVIEW_MAX_DEPTH; d++) {
        v->pv[d] = i;
        if (i < 0) continue;
        int moves[TREE_CELLS];
        const TreeNode *n = &v->t->node[i];
        i = (d < v->depth && n->best && tree_mask_moves(n->best, moves) > 0)
                ? tree_child(v->t, i, moves[0])
                : -1;
    }
}

static int64_t count(const Tree *t, int32_t i, int depth)
{
    int64_t n = 1;
    if (depth > 0)
        for (int k = 0; k < t->node[i].nkids; k++)
            n += count(t, t->kids[t->node[i].kids + k], depth - 1);
    return n;
}

int64_t treeview_count(const Tree *t, int32_t start, int depth)
{
    if (!valid(t, start, depth)) return 0;
    return count(t, start, depth);
}

static int leaves(const Tree *t, int32_t i, int depth)
{
    if (depth == 0 || t->node[i].nkids == 0) return 1;
    int n = 0;
    for (int k = 0; k < t->node[i].nkids; k++)
        n += leaves(t, t->kids[t->node[i].kids + k], depth - 1);
    return n;
}

/* ---- SVG ---- */

/* One board with its top-left corner at (x, y). */
static void svg_board(View *v, int32_t i, int level, int x, int y)
{
    const TreeNode *n = &v->t->node[i];
    FILE *f = v->f;
    char key[TREE_CELLS + 1], score[TREE_SCORE_LEN], mv[4] = "";
    tree_code_key(n->code, key);
    tree_format_score(n->score, v->float_style, score);
    if (n->move != TREE_NO_MOVE) move_name(n->move, mv);
    bool on_pv = v->pv[level] == i;
    fprintf(f,
            "<g class=\"board\" id=\"n%" PRId32 "\" data-key=\"%s\" data-move=\"%s\""
            " data-score=\"%s\">\n",
            i, key, mv, score);
    fprintf(f, "<title>%s%s score %s%s</title>\n", mv[0] ? mv : "start", mv[0] ? ":" : "", score,
            on_pv ? " (principal line)" : "");
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\""
            " stroke-width=\"%d\"/>\n",
            x, y, BOARD, BOARD, fill_colour(n->score), on_pv ? "#b71c1c" : "#424242",
            on_pv ? 3 : 1);
    if (n->move != TREE_NO_MOVE)
        fprintf(f,
                "<rect class=\"last\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
                " fill=\"#fff59d\"/>\n",
                x + CELL * (n->move / 3) + 1, y + CELL * (n->move % 3) + 1, CELL - 2, CELL - 2);
    for (int k = 1; k < 3; k++)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#757575\"/>"
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#757575\"/>\n",
                x + k * CELL, y, x + k * CELL, y + BOARD, x, y + k * CELL, x + BOARD, y + k * CELL);
    for (int m = 0; m < TREE_CELLS; m++) {
        int cx = x + CELL * (m / 3) + CELL / 2, cy = y + CELL * (m % 3) + CELL / 2;
        if (key[m] == 'o')
            fprintf(f,
                    "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"none\" stroke=\"#c62828\""
                    " stroke-width=\"2\"/>\n",
                    cx, cy);
        else if (key[m] == 'x')
            fprintf(f,
                    "<path d=\"M%d %dl8 8M%d %dl8 -8\" stroke=\"#1565c0\""
                    " stroke-width=\"2\"/>\n",
                    cx - 4, cy - 4, cx - 4, cy + 4);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>\n",
            x + BOARD / 2, y + BOARD + 11, score);
    fputs("</g>\n", f);
}

/* Draw node i and what is below it; returns its centre's x. */
static int svg_node(View *v, int32_t i, int level)
{
    const Tree *t = v->t;
    const TreeNode *n = &t->node[i];
    int cx[TREE_CELLS], nk = level < v->depth ? n->nkids : 0;
    for (int k = 0; k < nk; k++) cx[k] = svg_node(v, t->kids[n->kids + k], level + 1);
    int x = nk ? (cx[0] + cx[nk - 1]) / 2 : MARGIN + SLOT * v->next_slot++ + SLOT / 2;
    int y = MARGIN + LEVEL * level;
    for (int k = 0; k < nk; k++) {
        int32_t c = t->kids[n->kids + k];
        bool best = is_best(t, i, c), pv = v->pv[level] == i && v->pv[level + 1] == c;
        int x1 = x, y1 = y + BOARD + 15, x2 = cx[k], y2 = y + LEVEL - 3;
        char mv[4];
        move_name(t->node[c].move, mv);
        fprintf(v->f,
                "<g class=\"edge%s%s\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
                " stroke=\"%s\" stroke-width=\"%d\"/>",
                best ? " best" : "", pv ? " pv" : "", x1, y1, x2, y2, pv ? "#b71c1c" : "#616161",
                pv     ? 4
                : best ? 3
                       : 1);
        fprintf(v->f,
                "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\""
                " fill=\"%s\">%s</text></g>\n",
                (x1 + 2 * x2) / 3, (y1 + 2 * y2) / 3 - 3, pv ? "#b71c1c" : "#212121", mv);
    }
    svg_board(v, i, level, x - BOARD / 2, y);
    return x;
}

static int finish(FILE *f) { return ferror(f) ? MB_EIO : MB_OK; }

int treeview_write_svg(const Tree *t, int32_t start, int depth, bool float_style, FILE *f)
{
    if (!valid(t, start, depth)) return MB_EINVAL;
    View v = {.t = t, .depth = depth, .float_style = float_style, .f = f};
    principal_line(&v, start);
    /* the deepest level drawn: follow any path (finished games end early) */
    int deepest = 0;
    for (int d = 0; d <= depth; d++)
        if (count(t, start, d) > (d ? count(t, start, d - 1) : 0)) deepest = d;
    int width = 2 * MARGIN + SLOT * leaves(t, start, depth);
    int height = 2 * MARGIN + LEVEL * deepest + BOARD + 15;
    char key[TREE_CELLS + 1];
    tree_code_key(t->node[start].code, key);
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
            " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
            "<title>marubatsu game tree below %s, depth %d</title>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height, key, depth);
    svg_node(&v, start, 0);
    fputs("</svg>\n", f);
    return finish(f);
}

/* ---- DOT ---- */

static void dot_node(View *v, int32_t i, int level)
{
    const Tree *t = v->t;
    const TreeNode *n = &t->node[i];
    char key[TREE_CELLS + 1], score[TREE_SCORE_LEN];
    tree_code_key(n->code, key);
    tree_format_score(n->score, v->float_style, score);
    fprintf(v->f, "  n%" PRId32 " [label=\"", i);
    for (int y = 0; y < 3; y++) fprintf(v->f, "%c%c%c\\n", key[y], key[y + 3], key[y + 6]);
    fprintf(v->f, "%s\", fillcolor=\"%s\"%s];\n", score, fill_colour(n->score),
            v->pv[level] == i ? ", color=\"#b71c1c\", penwidth=3" : "");
    if (level >= v->depth) return;
    for (int k = 0; k < n->nkids; k++) {
        int32_t c = t->kids[n->kids + k];
        char mv[4];
        move_name(t->node[c].move, mv);
        bool best = is_best(t, i, c), pv = v->pv[level] == i && v->pv[level + 1] == c;
        fprintf(v->f, "  n%" PRId32 " -> n%" PRId32 " [label=\"%s\"%s%s];\n", i, c, mv,
                best ? ", style=bold, penwidth=2.5" : "", pv ? ", color=\"#b71c1c\"" : "");
    }
    for (int k = 0; k < n->nkids; k++) dot_node(v, t->kids[n->kids + k], level + 1);
}

int treeview_write_dot(const Tree *t, int32_t start, int depth, bool float_style, FILE *f)
{
    if (!valid(t, start, depth)) return MB_EINVAL;
    View v = {.t = t, .depth = depth, .float_style = float_style, .f = f};
    principal_line(&v, start);
    fprintf(f, "digraph marubatsu {\n"
               "  node [shape=box, style=filled, fontname=\"Courier\"];\n"
               "  edge [fontname=\"Helvetica\", fontsize=10];\n");
    dot_node(&v, start, 0);
    fputs("}\n", f);
    return finish(f);
}

/* ---- text ---- */

static void text_node(View *v, int32_t i, int level)
{
    const Tree *t = v->t;
    const TreeNode *n = &t->node[i];
    for (int k = 0; k < n->nkids; k++) {
        int32_t c = t->kids[n->kids + k];
        char mv[4], score[TREE_SCORE_LEN];
        move_name(t->node[c].move, mv);
        tree_format_score(t->node[c].score, v->float_style, score);
        fprintf(v->f, "%*s%s %s%s\n", 2 * level, "", mv, score, is_best(t, i, c) ? " *" : "");
        if (level + 1 < v->depth) text_node(v, c, level + 1);
    }
}

int treeview_write_text(const Tree *t, int32_t start, int depth, bool float_style, FILE *f)
{
    if (!valid(t, start, depth)) return MB_EINVAL;
    View v = {.t = t, .depth = depth, .float_style = float_style, .f = f};
    const TreeBoard *b = &t->board[t->node[start].code];
    char score[TREE_SCORE_LEN];
    tree_format_score(t->node[start].score, float_style, score);
    static const char *const over[] = {"", "game over, o wins", "game over, x wins",
                                       "game over, draw"};
    fprintf(f, "score %s, %s\n", score,
            b->status != STATUS_PLAYING ? over[b->status]
            : b->turn == MARK_O         ? "o to move"
                                        : "x to move");
    if (depth > 0) text_node(&v, start, 0);
    return finish(f);
}
