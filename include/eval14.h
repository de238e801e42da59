/* eval14.h: the series' rule-based evaluator ai14s in C (spec ais.md §4).
 *
 * eval14_score scores a position Q from the point of view of the player who
 * just moved (mover-view), exactly as ai14s with its seven weights:
 *   won                         -> victory (300)
 *   M(0,2,1) > 0                -> score = defeat (-100) * M(0,2,1), go on
 *   else M(2,0,1) >= 2          -> sure_victory (200)
 *   SPECIAL(Q)                  -> special (100)
 *   then score += s201 (2) if M(2,0,1) == 1, + s102 (0.5) * M(1,0,2),
 *        + s012 (-1) * M(0,1,2)
 * where M(a,b,e) counts lines with a marks of the side that just moved, b of
 * the side to move and e empty (markpats.h). SPECIAL: move 4, × on (1,1), 〇
 * on both ends of a diagonal, × on an edge square; it needs a 3x3 board. On
 * other shapes the patterns are read as (k-1,0,1), (0,k-1,1), (1,0,k-1) and
 * (0,1,k-1), and SPECIAL never holds.
 *
 * eval14_minimax is the minimax (o-view) form of ai_by_score's calc_score
 * with minimax = true: the score negated when 〇 is to move. Finished games
 * then score +300 (〇 won), -300 (× won) and 0 (draw). All scores are
 * multiples of 0.5, exact in doubles. Uses game.h and markpats.h. */
#ifndef MB_EVAL14_H
#define MB_EVAL14_H

#include "game.h"

/* The weights of ai12s..ai14s, under the series' parameter names. */
typedef struct Eval14Params {
    double victory, sure_victory, defeat, special, s201, s102, s012;
} Eval14Params;

/* ---- Scores ---- */

/* True if SPECIAL holds for g (3x3 only; false on other shapes). */
bool eval14_special(const Game *g);
/* ai14s of g, mover-view; p NULL means the defaults. */
double eval14_score(const Game *g, const Eval14Params *p);
/* The minimax (o-view) form: eval14_score negated when 〇 is to move. */
double eval14_minimax(const Game *g, const Eval14Params *p);

/* ---- Search callback ---- */

/* eval14_minimax in the shape of the search's eval callback (search.h):
 * ud is a const Eval14Params * or NULL for the defaults. */
double eval14_search_eval(Game *g, void *ud);

#endif
