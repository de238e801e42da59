/* eval_lines.h: a static evaluator for boards of any size and k that reads
 * the line features (linefeat.h) instead of scanning the board: the C
 * evaluator "lines" of the αβ searches.
 *
 * Its minimax (o-view) value of a position, with P the side to move and Q
 * the other side, and the weights w (EvalLinesWeights; the defaults in
 * brackets):
 *   〇 has won            +EVAL_LINES_WIN     × has won  -EVAL_LINES_WIN
 *   a draw                 0
 *   P has a win square     +-w.sure_win [10^8] (P wins with its next move)
 *   Q has two or more win squares  -+w.sure_loss [5*10^7] (P cannot block
 *                          both)
 *   otherwise  sum over j = 1 .. k-1 of B(j-1) * (W_o(j) - W_x(j)), where
 *              W_p(j) is the number of windows holding j of p's marks and
 *              none of the other side's and B(e) = w.base^min(e, 20) [4^e];
 *              plus w.open_mover * B(k-1) [1] for each open square of P and
 *              minus w.open_other * B(k-2) [1] for each of Q.
 * The game's features must be on (linefeat_enable); when they are off the
 * value is computed from a fresh recount (correct, slow).
 * Uses game.h and linefeat.h. */
#ifndef MB_EVAL_LINES_H
#define MB_EVAL_LINES_H

#include "game.h"

#define EVAL_LINES_WIN  1e9
#define EVAL_LINES_SURE 1e8 /* the default sure_win (sure_loss: half of it) */

/* The weights of the evaluation (above). */
typedef struct EvalLinesWeights {
    double base;       /* the factor from one level of window to the next */
    double open_mover; /* times B(k-1): each open square of the side to move */
    double open_other; /* times B(k-2): each open square of the other side */
    double sure_win;   /* the side to move has a win square */
    double sure_loss;  /* the other side has two or more win squares */
} EvalLinesWeights;

/* The ranges eval_lines_check_weights accepts (bounds included). */
#define EVAL_LINES_BASE_MIN 1.0
#define EVAL_LINES_BASE_MAX 16.0
#define EVAL_LINES_OPEN_MAX 64.0           /* open_mover, open_other: 0 .. this */
#define EVAL_LINES_SURE_MAX EVAL_LINES_WIN /* sure_win, sure_loss: 0 .. this */

/* The default weights: base 4, open_mover 1, open_other 1, sure_win 10^8,
 * sure_loss 5*10^7. */
EvalLinesWeights eval_lines_default_weights(void);
/* NULL when every weight of w is in its range, else the name of the first
 * one that is not ("base", "open_mover", ...). NaN is out of every range. */
const char *eval_lines_check_weights(const EvalLinesWeights *w);

/* The o-view value of g (above) with the default weights. */
double eval_lines(Game *g);
/* The same with the weights w (NULL: the defaults; w checked by the
 * caller). */
double eval_lines_weighted(Game *g, const EvalLinesWeights *w);
/* eval_lines_weighted in the shape of the search's callback (search.h): ud
 * is a const EvalLinesWeights * (it must outlive the search) or NULL for
 * the defaults. */
double eval_lines_search_eval(Game *g, void *ud);

#endif
