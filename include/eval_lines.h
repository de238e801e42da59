/* eval_lines.h: a static evaluator for boards of any size and k that reads
 * the line features (linefeat.h) instead of scanning the board: the C
 * evaluator "lines" of the αβ searches.
 *
 * Its minimax (o-view) value of a position, with P the side to move and Q
 * the other side:
 *   〇 has won            +EVAL_LINES_WIN     × has won  -EVAL_LINES_WIN
 *   a draw                 0
 *   P has a win square     +-EVAL_LINES_SURE (P wins with its next move)
 *   Q has two or more win squares  -+EVAL_LINES_SURE / 2 (P cannot block both)
 *   otherwise  sum over j = 1 .. k-1 of 4^(j-1) * (W_o(j) - W_x(j)), where
 *              W_p(j) is the number of windows holding j of p's marks and
 *              none of the other side's; plus 4^(k-1) for each open square of
 *              P and minus 4^(k-2) for each of Q (weights capped at 4^20).
 * The game's features must be on (linefeat_enable); when they are off the
 * value is computed from a fresh recount (correct, slow).
 * Uses game.h and linefeat.h. */
#ifndef MB_EVAL_LINES_H
#define MB_EVAL_LINES_H

#include "game.h"

#define EVAL_LINES_WIN  1e9
#define EVAL_LINES_SURE 1e8

/* The o-view value of g (above). */
double eval_lines(Game *g);
/* eval_lines in the shape of the search's callback (search.h); ud unused. */
double eval_lines_search_eval(Game *g, void *ud);

#endif
