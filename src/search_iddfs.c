/* search_iddfs.c: iterative deepening over the root driver, ai_ab_iddfs and
 * ai_pvs_iddfs (search.h; spec ais.md §8, search.md §5). */
#include <string.h>

#include "candidates.h"
#include "search.h"


int search_iddfs(Search *s, const SearchIddfsOptions *o, Rng *rng, SearchIter *iters, int cap,
                 SearchIddfsResult *out)
{
    Game *g = s->game;
    double t0 = clock_now();
    int saved_depth = s->maxdepth;
    bool saved_use_tt = s->use_tt;
    const TT *saved_mo = s->tt_for_mo;
    bool share = o->share_tt || o->moveordering;
    s->use_tt = o->use_tt || o->moveordering;
    TT *prev = &s->tt_prev; /* the previous depth's table, for move ordering only */
    tt_clear(prev);
    if (o->moveordering) { /* two tables: half the limit each */
        tt_set_limit(&s->tt, s->hash / 2);
        tt_set_limit(prev, s->hash / 2);
    }
    s->tt_for_mo = o->moveordering ? prev : NULL;
    if (o->timelimit >= 0)
        search_set_timelimit(s, o->timelimit);
    else
        s->has_deadline = false;

    int moves[MB_MAX_CELLS];
    int nlegal = s->candidates ? candidates_generate(g, s->candidates, moves, NULL)
                               : game_legal_moves(g, moves);
    out->niter = 0;
    out->timed_out = false;
    out->bestmove = nlegal > 0 ? moves[0] : MOVE_NONE;
    int ncells = game_geom(g)->ncells;
    int rc = SEARCH_OK;
    for (int d = 0; d < ncells - g->move_count && out->niter < cap; d++) {
        SearchIter *it = &iters[out->niter];
        s->maxdepth = d;
        rc = search_root(s, share, rng, &it->root);
        if (rc == SEARCH_TIMEOUT) {
            out->timed_out = true;
            rc = SEARCH_OK;
            break;
        }
        if (rc) break;
        it->depth = d;
        it->tt_size = tt_count(&s->tt);
        it->tt_full = s->tt.full;
        if (share) {
            it->npv = search_pv(g, &s->tt, it->root.bestmove, it->pv);
        } else {
            it->npv = 1;
            it->pv[0] = it->root.bestmove;
        }
        out->bestmove = it->root.bestmove;
        out->niter++;
        if (o->moveordering) { /* this depth's table orders the next one */
            TT t = *prev;
            *prev = s->tt;
            s->tt = t;
            tt_clear(&s->tt);
        }
    }
    if (o->moveordering && out->niter > 0 && rc == SEARCH_OK && !out->timed_out) {
        TT t = *prev; /* leave the last completed table in s->tt */
        *prev = s->tt;
        s->tt = t;
    }
    tt_free(prev);
    tt_set_limit(&s->tt, s->hash);
    tt_set_limit(prev, s->hash);
    s->maxdepth = saved_depth;
    s->use_tt = saved_use_tt;
    s->tt_for_mo = saved_mo;
    out->time = clock_now() - t0;
    return rc;
}
