/* eval14.c: ai14s in C (eval14.h). */
#include "eval14.h"

#include "markpats.h"

static const Eval14Params defaults = {300, 200, -100, 100, 2, 0.5, -1};


/* The mark on (x, y). */
static Mark at(const Game *g, int x, int y)
{
    return game_get(g, geometry_xy_to_move(game_geom(g), x, y));
}

bool eval14_special(const Game *g)
{
    const Geometry *geo = game_geom(g);
    if (geo->width != 3 || geo->height != 3 || g->move_count != 4) return false;
    if (at(g, 1, 1) != MARK_X) return false;
    bool diag = at(g, 0, 0) == MARK_O && at(g, 2, 2) == MARK_O;
    bool anti = at(g, 2, 0) == MARK_O && at(g, 0, 2) == MARK_O;
    if (!diag && !anti) return false;
    return at(g, 1, 0) == MARK_X || at(g, 0, 1) == MARK_X || at(g, 2, 1) == MARK_X ||
           at(g, 1, 2) == MARK_X;
}

double eval14_score(const Game *g, const Eval14Params *p)
{
    if (!p) p = &defaults;
    if (g->last_turn != MARK_EMPTY && g->status == g->last_turn) return p->victory;
    int k = game_geom(g)->k, w = k + 1;
    int32_t hist[(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
    markpats_of_game(g, hist);
    /* M(a, b, e) = hist[a * (k+1) + b]: a of mine (last_turn), b of theirs */
    int32_t mine_open = k >= 2 ? hist[(k - 1) * w + 0] : 0;  /* M(2,0,1) */
    int32_t their_open = k >= 2 ? hist[0 * w + (k - 1)] : 0; /* M(0,2,1) */
    int32_t mine_one = hist[1 * w + 0];                      /* M(1,0,2) */
    int32_t their_one = hist[0 * w + 1];                     /* M(0,1,2) */
    double score = 0;
    if (their_open > 0)
        score = p->defeat * their_open; /* no return: the terms below add */
    else if (mine_open >= 2)
        return p->sure_victory;
    if (eval14_special(g)) return p->special;
    if (mine_open == 1) score += p->s201;
    score += mine_one * p->s102;
    score += their_one * p->s012;
    return score;
}

double eval14_minimax(const Game *g, const Eval14Params *p)
{
    double s = eval14_score(g, p);
    if (g->turn == MARK_O) s = -s;
    return s + 0.0; /* -0.0 becomes 0 */
}

double eval14_search_eval(Game *g, void *ud) { return eval14_minimax(g, (const Eval14Params *)ud); }
