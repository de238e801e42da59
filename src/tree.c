/* tree.c: the full game tree, its scores and board tables (see tree.h).
 *
 * Layout: nodes in one array in creation order, child links in another.
 * Breadth-first creates a whole level from the one before, so every level
 * is a contiguous run of ids and a node's children are consecutive;
 * depth-first creates in preorder. In both, a child's id is larger than
 * its parent's, so one pass from the last node to the root scores
 * children before parents (the series' nodelist_by_score animation order
 * is not kept: it only drives its GUI). */
#include "tree.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "mberror.h"

static const int pow3[TREE_CELLS] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561};

/* The mark on move m of board `code`. */
static int code_mark(int code, int m) { return code / pow3[m] % 3; }

/* ---- Building ---- */

/* Record board `code` (g's position) and, once each, every board reachable
 * from it: what the engine's move, judge and legal moves say about it, and
 * how many nodes its subtree has, so that the tree is allocated once. */
static int32_t learn_boards(TreeBoard *boards, Game *g, int code)
{
    TreeBoard *b = &boards[code];
    if (b->known) return b->nodes;
    int moves[TREE_CELLS];
    b->known = 1;
    b->status = g->status;
    b->turn = g->turn;
    b->nmoves = (uint8_t)game_legal_moves(g, moves);
    b->nodes = 1;
    for (int i = 0; i < b->nmoves; i++) {
        b->moves[i] = (uint8_t)moves[i];
        game_move(g, moves[i]);
        b->nodes += learn_boards(boards, g, code + b->turn * pow3[moves[i]]);
        game_unmove(g);
    }
    return b->nodes;
}

/* Append the child of node `parent` made by move m. */
static int32_t add_node(Tree *t, int32_t parent, int m)
{
    const TreeNode *p = &t->node[parent];
    int32_t id = t->n++;
    TreeNode *c = &t->node[id];
    c->parent = parent;
    c->kids = 0;
    c->code = (uint16_t)(p->code + t->board[p->code].turn * pow3[m]);
    c->best = 0;
    c->score = 0;
    c->move = (uint8_t)m;
    c->depth = (uint8_t)(p->depth + 1);
    c->nkids = 0;
    t->depth_count[c->depth]++;
    return id;
}

/* Give node i its links: kids[first .. first + nmoves), filled by the caller. */
static int32_t take_links(Tree *t, int32_t *nlinks, int32_t i)
{
    TreeNode *p = &t->node[i];
    p->kids = *nlinks;
    p->nkids = t->board[p->code].nmoves;
    *nlinks += p->nkids;
    return p->kids;
}

/* The series' progress lines of the breadth-first build (tree.md §2): one
 * per level, or the total when depth < 0. The only printing in the module. */
static void print_progress(FILE *f, int depth, int32_t count)
{
    if (!f) return;
    if (depth >= 0)
        fprintf(f, "%6d depth %d node created\n", (int)count, depth);
    else
        fprintf(f, "total node num = %d\n", (int)count);
}

/* Breadth-first: each level from the one before, until a level is empty. */
static void build_bf(Tree *t, FILE *progress)
{
    int32_t nlinks = 0, start = 0;
    for (int d = 0;; d++) {
        int32_t end = t->n;
        for (int32_t i = start; i < end; i++) {
            if (mb_interrupted()) return;
            const TreeBoard *b = &t->board[t->node[i].code];
            int32_t first = take_links(t, &nlinks, i);
            for (int k = 0; k < b->nmoves; k++) t->kids[first + k] = add_node(t, i, b->moves[k]);
        }
        print_progress(progress, d + 1, t->n - end);
        start = end;
        if (t->n == end) {
            t->ndepths = d + 2;
            break;
        }
    }
    print_progress(progress, -1, t->n);
}

/* Depth-first preorder: each child is created, then its subtree. */
static void build_df(Tree *t, int32_t *nlinks, int32_t i)
{
    if (mb_interrupted()) return;
    const TreeBoard *b = &t->board[t->node[i].code];
    int32_t first = take_links(t, nlinks, i);
    for (int k = 0; k < b->nmoves; k++) {
        int32_t c = add_node(t, i, b->moves[k]);
        t->kids[first + k] = c;
        build_df(t, nlinks, c);
    }
}

int tree_build(Tree *t, TreeOrder order, FILE *progress)
{
    /* Step 1. the boards, from the engine */
    memset(t, 0, sizeof *t);
    t->order = order;
    t->board = calloc(TREE_NCODES, sizeof *t->board);
    if (!t->board) return MB_ENOMEM;
    GameOptions opt = game_default_options();
    Game g;
    char err[128];
    int rc = game_init(&g, &opt, err, sizeof err);
    if (rc != MB_OK) {
        game_free(&g);
        return rc;
    }
    int32_t total = learn_boards(t->board, &g, 0);
    game_free(&g);

    /* Step 2. the arrays, at their final size, and the root */
    t->node = malloc((size_t)total * sizeof *t->node);
    t->kids = malloc((size_t)total * sizeof *t->kids);
    if (!t->node || !t->kids) return MB_ENOMEM;
    t->n = 1;
    t->node[0] = (TreeNode){-1, 0, 0, 0, 0, TREE_NO_MOVE, 0, 0};
    t->depth_count[0] = 1;

    /* Step 3. the nodes, in the order asked */
    if (order == TREE_BF) {
        build_bf(t, progress);
    } else {
        int32_t nlinks = 0;
        build_df(t, &nlinks, 0);
        t->ndepths = TREE_DEPTHS - 1;
    }
    return mb_interrupted() ? MB_EINTR : MB_OK;
}

void tree_free(Tree *t)
{
    free(t->node);
    free(t->kids);
    free(t->board);
    memset(t, 0, sizeof *t);
}

/* ---- Scoring ---- */

/* Twice the score of a finished game at `depth` (tree.md §5). */
static int leaf_score(Scoring s, Status st, int depth)
{
    if (st == STATUS_DRAW) return 0;
    if (s == SCORING_OLD) return st == STATUS_O ? 2 : -2;
    return st == STATUS_O ? 11 - depth : depth - 10;
}

/* Score node i, whose children are scored, and set its best moves: the
 * children with the best score for the side to move. For sv_rd, sv/lo/hi
 * hold each node's sv score before the draw rewrite and the smallest and
 * largest leaf score below it (else they are NULL); the minimax uses the sv
 * scores, the best moves the rewritten ones, and the rewrite (ais.md §10)
 * is node by node, not propagated. */
static void score_node(Tree *t, int32_t i, Scoring scoring, int8_t *sv, int8_t *lo, int8_t *hi)
{
    TreeNode *p = &t->node[i];
    bool maximise = p->depth % 2 == 0;
    int v = maximise ? -128 : 127, best = v, l = 127, h = -128;
    unsigned mask = 0;
    if (p->nkids == 0) v = l = h = leaf_score(scoring, tree_status(t, i), p->depth);
    for (int k = 0; k < p->nkids; k++) {
        int32_t c = t->kids[p->kids + k];
        const TreeNode *q = &t->node[c];
        int s = sv ? sv[c] : q->score;
        if (maximise ? s > v : s < v) v = s;
        if (maximise ? q->score > best : q->score < best) {
            best = q->score;
            mask = TREE_BIT(q->move / 3, q->move % 3);
        } else if (q->score == best) {
            mask |= TREE_BIT(q->move / 3, q->move % 3);
        }
        if (sv && lo[c] < l) l = lo[c];
        if (sv && hi[c] > h) h = hi[c];
    }
    p->score = (int8_t)v;
    p->best = (uint16_t)mask;
    if (!sv) return;
    sv[i] = (int8_t)v, lo[i] = (int8_t)l, hi[i] = (int8_t)h;
    if (v == 0) p->score = maximise ? (l < 0 ? -1 : 0) : (h > 0 ? 1 : 0);
}

int tree_score(Tree *t, Scoring scoring)
{
    if (scoring != SCORING_OLD && scoring != SCORING_SV && scoring != SCORING_SV_RD)
        return MB_EINVAL;
    int8_t *sv = NULL;
    if (scoring == SCORING_SV_RD && !(sv = malloc(3 * (size_t)t->n))) return MB_ENOMEM;
    /* children before parents: every child's id is larger than its parent's */
    for (int32_t i = t->n - 1; i >= 0; i--) {
        if ((i & 4095) == 0 && mb_interrupted()) {
            free(sv);
            return MB_EINTR;
        }
        score_node(t, i, scoring, sv, sv ? sv + t->n : NULL, sv ? sv + 2 * (size_t)t->n : NULL);
    }
    free(sv);
    t->scored = true;
    t->scoring = scoring;
    return MB_OK;
}

/* ---- Reading ---- */

int32_t tree_child(const Tree *t, int32_t i, int m)
{
    const TreeNode *p = &t->node[i];
    for (int k = 0; k < p->nkids; k++)
        if (t->node[t->kids[p->kids + k]].move == m) return t->kids[p->kids + k];
    return -1;
}

int32_t tree_find(const Tree *t, const int *moves, int n)
{
    int32_t i = t->n > 0 ? 0 : -1;
    for (int k = 0; k < n && i >= 0; k++) i = tree_child(t, i, moves[k]);
    return i;
}

void tree_stats(const Tree *t, TreeStats *s)
{
    uint8_t seen[TREE_NCODES] = {0};
    memset(s, 0, sizeof *s);
    s->nodes = t->n;
    for (int32_t i = 0; i < t->n; i++) {
        const TreeNode *p = &t->node[i];
        Status st = tree_status(t, i);
        s->by_depth[p->depth]++;
        if (st != STATUS_PLAYING) {
            s->leaves++;
            s->leaves_by[p->depth][st]++;
            s->wins[st]++;
        }
        if (!seen[p->code]) {
            seen[p->code] = 1;
            s->boards++;
            s->finished_boards += st != STATUS_PLAYING;
        }
    }
}

/* ---- Boards, moves and scores as text ---- */

void tree_code_key(int code, char *buf)
{
    for (int m = 0; m < TREE_CELLS; m++) buf[m] = ".ox"[code_mark(code, m)];
    buf[TREE_CELLS] = '\0';
}

int tree_key_code(const char *key)
{
    int code = 0;
    for (int m = 0; m < TREE_CELLS; m++) {
        const char *c = key[m] ? strchr(".ox", key[m]) : NULL;
        if (!c) return -1;
        code += (int)(c - ".ox") * pow3[m];
    }
    return key[TREE_CELLS] == '\0' ? code : -1;
}

int tree_mask_moves(unsigned mask, int *moves)
{
    int n = 0;
    for (int b = 0; b < TREE_CELLS; b++)
        if (mask & (1u << b)) moves[n++] = b / 3 + 3 * (b % 3); /* y + 3x */
    return n;
}

void tree_format_score(int score2, bool float_style, char *buf)
{
    if (score2 % 2 != 0 || (float_style && score2 != 0))
        snprintf(buf, TREE_SCORE_LEN, "%.1f", score2 / 2.0);
    else
        snprintf(buf, TREE_SCORE_LEN, "%d", score2 / 2);
}

/* ---- Tables ---- */

/* Empty t's rows. */
static void table_clear(TreeTable *t)
{
    t->n = 0;
    t->has_score = t->float_scores = false;
    memset(t->index, 0xff, TREE_NCODES * sizeof *t->index);
}

int tree_table_init(TreeTable *t)
{
    memset(t, 0, sizeof *t);
    t->entry = malloc(TREE_NCODES * sizeof *t->entry);
    t->index = malloc(TREE_NCODES * sizeof *t->index);
    if (!t->entry || !t->index) {
        tree_table_free(t);
        return MB_ENOMEM;
    }
    table_clear(t);
    return MB_OK;
}

void tree_table_free(TreeTable *t)
{
    free(t->entry);
    free(t->index);
    memset(t, 0, sizeof *t);
}

/* Append a row for a code not yet in t. */
static void table_add(TreeTable *t, int code, unsigned best, int score2)
{
    t->index[code] = (int16_t)t->n;
    t->entry[t->n++] = (TreeEntry){(uint16_t)code, (uint16_t)best, (int8_t)score2};
}

int tree_bestmoves_by_board(const Tree *tree, TreeTable *t)
{
    if (!tree->scored) return MB_EINVAL;
    table_clear(t);
    for (int32_t i = 0; i < tree->n; i++) {
        const TreeNode *p = &tree->node[i];
        if (t->index[p->code] < 0) table_add(t, p->code, p->best, p->score);
    }
    t->has_score = true;
    t->float_scores = tree->scoring != SCORING_OLD;
    return MB_OK;
}

const TreeEntry *tree_table_get(const TreeTable *t, int code)
{
    if (code < 0 || code >= TREE_NCODES || t->index[code] < 0) return NULL;
    return &t->entry[t->index[code]];
}

/* Best moves as "[[x,y],...]" into buf (at most 56 bytes). */
static void format_moves(unsigned mask, char *buf)
{
    char *p = buf;
    *p++ = '[';
    for (int b = 0; b < TREE_CELLS; b++)
        if (mask & (1u << b)) p += sprintf(p, "%s[%d,%d]", p > buf + 1 ? "," : "", b % 3, b / 3);
    strcpy(p, "]");
}

/* Describe how row e of table a differs from row f of table b (NULL when
 * b lacks the board); false if they agree. */
static bool row_diff(const TreeTable *a, const TreeEntry *e, const TreeTable *b, const TreeEntry *f,
                     char *diff, size_t len)
{
    char key[TREE_CELLS + 1], m1[64], m2[64], s1[TREE_SCORE_LEN], s2[TREE_SCORE_LEN];
    tree_code_key(e->code, key);
    if (!f) {
        snprintf(diff, len, "board %s is missing from the second table", key);
        return true;
    }
    if (e->best != f->best) {
        format_moves(e->best, m1);
        format_moves(f->best, m2);
        snprintf(diff, len, "board %s: best moves %s vs %s", key, m1, m2);
        return true;
    }
    if (a->has_score && b->has_score && e->score != f->score) {
        tree_format_score(e->score, a->float_scores, s1);
        tree_format_score(f->score, b->float_scores, s2);
        snprintf(diff, len, "board %s: score %s vs %s", key, s1, s2);
        return true;
    }
    return false;
}

bool tree_table_equal(const TreeTable *a, const TreeTable *b, char *diff, size_t difflen)
{
    for (int r = 0; r < a->n; r++) {
        const TreeEntry *e = &a->entry[r];
        if (row_diff(a, e, b, tree_table_get(b, e->code), diff, difflen)) return false;
    }
    for (int r = 0; r < b->n; r++)
        if (!tree_table_get(a, b->entry[r].code)) {
            char key[TREE_CELLS + 1];
            tree_code_key(b->entry[r].code, key);
            snprintf(diff, difflen, "board %s is only in the second table", key);
            return false;
        }
    return true;
}

/* ---- JSON: writing ---- */

static void put_moves(FILE *f, unsigned mask)
{
    char buf[64];
    format_moves(mask, buf);
    fputs(buf, f);
}

int tree_save_json(const TreeTable *t, bool with_score, FILE *f)
{
    if (with_score && !t->has_score) return MB_EINVAL;
    char key[TREE_CELLS + 1], score[TREE_SCORE_LEN];
    putc('{', f);
    for (int r = 0; r < t->n; r++) {
        const TreeEntry *e = &t->entry[r];
        tree_code_key(e->code, key);
        fprintf(f, "%s\"%s\":", r ? "," : "", key);
        if (!with_score) {
            put_moves(f, e->best);
            continue;
        }
        fputs("{\"bestmoves\":", f);
        put_moves(f, e->best);
        tree_format_score(e->score, t->float_scores, score);
        fprintf(f, ",\"score\":%s}", score);
    }
    putc('}', f);
    return ferror(f) ? MB_EIO : MB_OK;
}

/* ---- JSON: reading ---- */

typedef struct Parser {
    const char *p, *end, *line_start;
    int line;
    int shape; /* of the values: -1 not seen yet, 0 move lists, 1 objects */
    bool floats;
    char *err;
    size_t errlen;
} Parser;

/* Record an error at the current position; returns false. */
static bool fail(Parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Parser *ps, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->err)
        snprintf(ps->err, ps->errlen, "line %d, column %d: %s", ps->line,
                 (int)(ps->p - ps->line_start) + 1, msg);
    return false;
}

static void skip_ws(Parser *ps)
{
    for (; ps->p < ps->end; ps->p++) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
    }
}

/* Skip blanks, then consume `c` or fail naming `what` was expected. */
static bool expect(Parser *ps, char c, const char *what)
{
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == c) {
        ps->p++;
        return true;
    }
    if (ps->p >= ps->end) return fail(ps, "expected %s, found the end of the input", what);
    unsigned char f = (unsigned char)*ps->p;
    if (f >= 0x20 && f < 0x7f) return fail(ps, "expected %s, found '%c'", what, f);
    return fail(ps, "expected %s, found byte 0x%02x", what, f);
}

/* True (and consumed) if the next non-blank is c. */
static bool accept(Parser *ps, char c)
{
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == c) {
        ps->p++;
        return true;
    }
    return false;
}

/* A string of at most cap - 1 plain characters (no escapes) into buf. */
static bool read_string(Parser *ps, char *buf, size_t cap, const char *what)
{
    if (!expect(ps, '"', what)) return false;
    size_t n = 0;
    for (; ps->p < ps->end && *ps->p != '"'; ps->p++) {
        unsigned char c = (unsigned char)*ps->p;
        if (c == '\\') return fail(ps, "escapes are not supported in %s", what);
        if (c < 0x20) return fail(ps, "control character in %s", what);
        if (n + 1 >= cap) return fail(ps, "%s is too long", what);
        buf[n++] = (char)c;
    }
    if (ps->p >= ps->end) return fail(ps, "unterminated string");
    ps->p++;
    buf[n] = '\0';
    return true;
}

/* One coordinate: 0, 1 or 2. */
static bool read_coord(Parser *ps, int *v)
{
    skip_ws(ps);
    const char *q = ps->p;
    if (q < ps->end && *q >= '0' && *q <= '2' &&
        !(q + 1 < ps->end && strchr("0123456789.eE", q[1]) && q[1])) {
        *v = *q - '0';
        ps->p++;
        return true;
    }
    return fail(ps, "expected a coordinate 0, 1 or 2");
}

/* A best-move list [[x,y],...] for board `code` into *mask. */
static bool read_moves(Parser *ps, int code, unsigned *mask)
{
    char key[TREE_CELLS + 1];
    tree_code_key(code, key);
    *mask = 0;
    if (!expect(ps, '[', "'[' (a list of moves)")) return false;
    if (accept(ps, ']')) return true;
    int last = -1;
    do {
        int x, y;
        skip_ws(ps);
        const char *at = ps->p;
        if (!expect(ps, '[', "'[' (a move [x,y])") || !read_coord(ps, &x) ||
            !expect(ps, ',', "','") || !read_coord(ps, &y) || !expect(ps, ']', "']'"))
            return false;
        const char *after = ps->p;
        ps->p = at; /* report the move's errors at its start */
        if (code_mark(code, y + 3 * x) != MARK_EMPTY)
            return fail(ps, "move [%d,%d] is on a taken square of board %s", x, y, key);
        if (x + 3 * y <= last)
            return fail(ps, "move [%d,%d] of board %s is out of legal-move order or repeated", x, y,
                        key);
        last = x + 3 * y;
        *mask |= TREE_BIT(x, y);
        ps->p = after;
    } while (accept(ps, ','));
    return expect(ps, ']', "',' or ']'");
}

/* A score: -?(0|[1-9][0-9]*)(.[0-9]+)?, a multiple of 0.5 in [-63.5, 63.5]. */
static bool read_score(Parser *ps, int *score2)
{
    skip_ws(ps);
    const char *q = ps->p, *e = ps->end;
    bool neg = q < e && *q == '-';
    q += neg;
    if (q >= e || *q < '0' || *q > '9') return fail(ps, "expected a number");
    long v = 0;
    if (*q == '0' && q + 1 < e && q[1] >= '0' && q[1] <= '9')
        return fail(ps, "numbers do not start with 0");
    for (; q < e && *q >= '0' && *q <= '9'; q++)
        if ((v = v * 10 + (*q - '0')) > 63) return fail(ps, "score out of range");
    int half = 0;
    if (q < e && *q == '.') {
        ps->floats = true;
        if (++q >= e || *q < '0' || *q > '9') return fail(ps, "expected a digit after '.'");
        half = *q == '5';
        if (*q != '0' && *q != '5') return fail(ps, "scores are multiples of 0.5");
        for (q++; q < e && *q >= '0' && *q <= '9'; q++)
            if (*q != '0') return fail(ps, "scores are multiples of 0.5");
    }
    if (q < e && (*q == 'e' || *q == 'E')) return fail(ps, "exponents are not supported");
    ps->p = q;
    *score2 = (int)(neg ? -(2 * v + half) : 2 * v + half);
    return true;
}

/* The value {"bestmoves": [...], "score": S}, fields in either order. */
static bool read_object(Parser *ps, int code, TreeEntry *e)
{
    bool have[2] = {false, false};
    unsigned mask = 0;
    int score2 = 0;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') return fail(ps, "missing field \"bestmoves\"");
    do {
        char name[16];
        skip_ws(ps);
        const char *at = ps->p;
        if (!read_string(ps, name, sizeof name, "a field name")) return false;
        int f = strcmp(name, "bestmoves") == 0 ? 0 : strcmp(name, "score") == 0 ? 1 : -1;
        if (f < 0 || have[f]) {
            ps->p = at; /* report it at the name */
            return fail(
                ps, f < 0 ? "unknown field \"%s\" (bestmoves or score)" : "repeated field \"%s\"",
                name);
        }
        have[f] = true;
        if (!expect(ps, ':', "':'")) return false;
        if (f == 0 ? !read_moves(ps, code, &mask) : !read_score(ps, &score2)) return false;
    } while (accept(ps, ','));
    skip_ws(ps);
    if (!have[0] || !have[1])
        return fail(ps, "missing field \"%s\"", have[0] ? "score" : "bestmoves");
    if (!expect(ps, '}', "',' or '}'")) return false;
    *e = (TreeEntry){(uint16_t)code, (uint16_t)mask, (int8_t)score2};
    return true;
}

/* One value of either shape, which must be the shape of the first. */
static bool read_value(Parser *ps, int code, TreeEntry *e)
{
    skip_ws(ps);
    int shape = ps->p < ps->end && *ps->p == '{' ? 1 : 0;
    if (ps->shape >= 0 && shape != ps->shape)
        return fail(ps, "expected %s like the first board's value",
                    ps->shape ? "an object" : "a list of moves");
    ps->shape = shape;
    if (shape == 0) {
        unsigned mask;
        if (!read_moves(ps, code, &mask)) return false;
        *e = (TreeEntry){(uint16_t)code, (uint16_t)mask, 0};
        return true;
    }
    ps->p++;
    return read_object(ps, code, e);
}

/* One "KEY": VALUE pair into t. */
static bool read_row(Parser *ps, TreeTable *t)
{
    char key[TREE_CELLS + 2];
    skip_ws(ps);
    const char *at = ps->p;
    if (!read_string(ps, key, sizeof key, "a board key")) return false;
    int code = tree_key_code(key);
    if (code < 0 || t->index[code] >= 0) {
        ps->p = at; /* report it at the key */
        return fail(ps,
                    code < 0 ? "\"%s\" is not a board key (9 of '.', 'o', 'x')"
                             : "repeated board key \"%s\"",
                    key);
    }
    TreeEntry e = {0, 0, 0};
    if (!expect(ps, ':', "':'") || !read_value(ps, code, &e)) return false;
    table_add(t, code, e.best, e.score);
    return true;
}

int tree_parse_json(TreeTable *t, const char *text, size_t len, char *err, size_t errlen)
{
    Parser ps = {text, text + len, text, 1, -1, false, err, errlen};
    table_clear(t);
    bool ok = expect(&ps, '{', "'{'");
    if (ok && !accept(&ps, '}')) {
        do ok = read_row(&ps, t);
        while (ok && accept(&ps, ','));
        ok = ok && expect(&ps, '}', "',' or '}'");
    }
    if (ok) {
        skip_ws(&ps);
        if (ps.p < ps.end) ok = fail(&ps, "unexpected text after the table");
    }
    if (!ok) {
        table_clear(t);
        return MB_ESYNTAX;
    }
    t->has_score = ps.shape == 1;
    t->float_scores = ps.floats;
    return MB_OK;
}

int tree_load_json(TreeTable *t, FILE *f, char *err, size_t errlen)
{
    enum { LIMIT = 64 << 20 };
    size_t cap = 1 << 18, len = 0, got;
    char *buf = malloc(cap);
    if (!buf) return MB_ENOMEM;
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len < cap) continue;
        char *p = cap < LIMIT ? realloc(buf, cap * 2) : NULL;
        if (!p) {
            free(buf);
            table_clear(t);
            if (cap < LIMIT) return MB_ENOMEM;
            if (err) snprintf(err, errlen, "the file is larger than %d MB", LIMIT >> 20);
            return MB_ESYNTAX;
        }
        buf = p;
        cap *= 2;
    }
    int rc = MB_OK;
    if (ferror(f)) {
        if (err) snprintf(err, errlen, "read error: %s", strerror(errno));
        table_clear(t);
        rc = MB_ESYNTAX;
    } else {
        rc = tree_parse_json(t, buf, len, err, errlen);
    }
    free(buf);
    return rc;
}
