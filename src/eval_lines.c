/* eval_lines.c: the line-feature evaluator (eval_lines.h). */
#include "eval_lines.h"

#include "linefeat.h"

/* 4^min(e, 20). */
static double weight(int e)
{
    if (e < 0) return 0;
    return (double)((int64_t)1 << (2 * (e < 20 ? e : 20)));
}

/* The value with the features f of g's board. */
static double value(Game *g, LineFeat *f)
{
    const Board *b = &g->board;
    int k = b->geom->k;
    Mark p = g->turn, q = mark_other(p);
    double sign = p == MARK_O ? 1 : -1;
    const int16_t *w, *o;
    int nwp = 0, nop = 0, nwq = 0, noq = 0;
    /* a win square needs a window of k-1 marks: the threat scan only then */
    if (k >= 2 && linefeat_window_count(f, p, k - 1) > 0)
        linefeat_threats(f, b, p, &w, &nwp, &o, &nop);
    if (nwp > 0) return sign * EVAL_LINES_SURE;
    if (k >= 2 && linefeat_window_count(f, q, k - 1) > 0)
        linefeat_threats(f, b, q, &w, &nwq, &o, &noq);
    if (nwq >= 2) return -sign * EVAL_LINES_SURE / 2;
    if (k >= 3 && linefeat_window_count(f, p, k - 2) > 0)
        linefeat_threats(f, b, p, &w, &nwp, &o, &nop);
    if (k >= 3 && linefeat_window_count(f, q, k - 2) > 0)
        linefeat_threats(f, b, q, &w, &nwq, &o, &noq);
    double s = 0;
    for (int j = 1; j < k; j++)
        s += weight(j - 1) *
             (linefeat_window_count(f, MARK_O, j) - linefeat_window_count(f, MARK_X, j));
    s += sign * (weight(k - 1) * nop - weight(k - 2) * noq);
    return s;
}

double eval_lines(Game *g)
{
    switch (g->status) {
    case STATUS_O: return EVAL_LINES_WIN;
    case STATUS_X: return -EVAL_LINES_WIN;
    case STATUS_DRAW: return 0;
    default: break;
    }
    if (g->board.feat) return value(g, g->board.feat);
    /* off: a fresh recount on a copy, so the game's own setting stays */
    Game c;
    if (game_copy(&c, g) != 0 || linefeat_enable(&c.board) != 0) {
        game_free(&c);
        return 0;
    }
    double v = value(&c, c.board.feat);
    game_free(&c);
    return v;
}

double eval_lines_search_eval(Game *g, void *ud)
{
    (void)ud;
    return eval_lines(g);
}
