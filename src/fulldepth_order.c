/* fulldepth_order.c: the move ordering of ai_abs_all / ai_scout / ai_mtdf
 * with ai_for_mo = ai14s (spec ais.md §7.2). ai14s is an ai_by_score AI:
 * its score_by_move holds, in legal order, eval14_score of each child
 * (mover-view, i.e. from the side to move at the node), and its first best
 * move with rand=False is the first child with the largest score. */
#include "fulldepth.h"

#include "eval14.h"

/* See fulldepth.h. */
void fulldepth_order_moves(Game *g, FullDepthOrder order, int *moves, int n)
{
    if (order == FULL_ORDER_NONE || n < 2) return;
    double sc[MB_MAX_CELLS];
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        sc[i] = eval14_score(g, NULL);
        game_unmove(g);
    }
    if (order == FULL_ORDER_AI14S_SWAP) {
        int b = 0;
        for (int i = 1; i < n; i++)
            if (sc[i] > sc[b]) b = i;
        int t = moves[0];
        moves[0] = moves[b];
        moves[b] = t;
        return;
    }
    /* stable insertion sort, score descending: ties keep legal order */
    for (int i = 1; i < n; i++) {
        int m = moves[i];
        double v = sc[i];
        int j = i;
        while (j > 0 && sc[j - 1] < v) {
            sc[j] = sc[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        sc[j] = v;
        moves[j] = m;
    }
}
