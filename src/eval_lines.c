/* eval_lines.c: the line-feature evaluator (eval_lines.h). */
#include "eval_lines.h"

#include "linefeat.h"

static const EvalLinesWeights DEFAULTS = {
    .base = 4,
    .open_mover = 1,
    .open_other = 1,
    .sure_win = EVAL_LINES_SURE,
    .sure_loss = EVAL_LINES_SURE / 2,
};

EvalLinesWeights eval_lines_default_weights(void) { return DEFAULTS; }

/* lo <= v <= hi, false for NaN */
static bool in(double v, double lo, double hi) { return v >= lo && v <= hi; }

const char *eval_lines_check_weights(const EvalLinesWeights *w)
{
    if (!in(w->base, EVAL_LINES_BASE_MIN, EVAL_LINES_BASE_MAX)) return "base";
    if (!in(w->open_mover, 0, EVAL_LINES_OPEN_MAX)) return "open_mover";
    if (!in(w->open_other, 0, EVAL_LINES_OPEN_MAX)) return "open_other";
    if (!in(w->sure_win, 0, EVAL_LINES_SURE_MAX)) return "sure_win";
    if (!in(w->sure_loss, 0, EVAL_LINES_SURE_MAX)) return "sure_loss";
    return NULL;
}

/* base^min(e, 20), 0 for e < 0: by products, so that the default base 4
 * gives exact powers of two */
static double weight(double base, int e)
{
    if (e < 0) return 0;
    double v = 1;
    for (int i = 0; i < e && i < 20; i++) v *= base;
    return v;
}

/* The value with the features f of g's board and the weights w. */
static double value(Game *g, LineFeat *f, const EvalLinesWeights *w)
{
    const Board *b = &g->board;
    int k = b->geom->k;
    Mark p = g->turn, q = mark_other(p);
    double sign = p == MARK_O ? 1 : -1;
    const int16_t *ws, *os;
    int nwp = 0, nop = 0, nwq = 0, noq = 0;
    /* a win square needs a window of k-1 marks: the threat scan only then */
    if (k >= 2 && linefeat_window_count(f, p, k - 1) > 0)
        linefeat_threats(f, b, p, &ws, &nwp, &os, &nop);
    if (nwp > 0) return sign * w->sure_win;
    if (k >= 2 && linefeat_window_count(f, q, k - 1) > 0)
        linefeat_threats(f, b, q, &ws, &nwq, &os, &noq);
    if (nwq >= 2) return -sign * w->sure_loss;
    if (k >= 3 && linefeat_window_count(f, p, k - 2) > 0)
        linefeat_threats(f, b, p, &ws, &nwp, &os, &nop);
    if (k >= 3 && linefeat_window_count(f, q, k - 2) > 0)
        linefeat_threats(f, b, q, &ws, &nwq, &os, &noq);
    double s = 0, level = 1; /* level: B(j-1) */
    for (int j = 1; j < k; j++) {
        s += level * (linefeat_window_count(f, MARK_O, j) - linefeat_window_count(f, MARK_X, j));
        if (j <= 20) level *= w->base;
    }
    s += sign * (w->open_mover * weight(w->base, k - 1) * nop -
                 w->open_other * weight(w->base, k - 2) * noq);
    return s;
}

double eval_lines_weighted(Game *g, const EvalLinesWeights *w)
{
    if (!w) w = &DEFAULTS;
    switch (g->status) {
    case STATUS_O: return EVAL_LINES_WIN;
    case STATUS_X: return -EVAL_LINES_WIN;
    case STATUS_DRAW: return 0;
    default: break;
    }
    if (g->board.feat) return value(g, g->board.feat, w);
    /* off: a fresh recount on a copy, so the game's own setting stays */
    Game c;
    if (game_copy(&c, g) != 0 || linefeat_enable(&c.board) != 0) {
        game_free(&c);
        return 0;
    }
    double v = value(&c, c.board.feat, w);
    game_free(&c);
    return v;
}

double eval_lines(Game *g) { return eval_lines_weighted(g, NULL); }

double eval_lines_search_eval(Game *g, void *ud) { return eval_lines_weighted(g, ud); }
