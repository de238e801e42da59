/* candidates.h: the candidate moves of a position on a big board, ordered by
 * a native threat score: the move generator of the searches' `candidates`
 * option and of game:candidates(d).
 *
 * The candidates at distance d are the empty squares within Chebyshev
 * distance d (max(|dx|, |dy|) <= d) of any mark; on an empty board, the one
 * centre square ((width-1)/2, (height-1)/2); none once the game is over.
 * They come ordered by score, highest first, ties in normative order (y
 * outer, x inner). For P the side to move and Q the other side, the score
 * of a square s is, by tiers (each tier outranks everything below it):
 *   4  s is a win square of P (linefeat.h)
 *   3  s is a win square of Q (a block)
 *   2  s is an open square of P (makes an open k-1)
 *   1  s is an open square of Q
 * plus, within a tier, the line potential of s: the sum over the windows
 * through s of 4^c for a window holding c >= 1 of P's marks and none of Q's
 * (building) and of 4^c for c >= 1 of Q's marks and none of P's
 * (blocking); c is capped at 20.
 * The scores are read from the board's line features, which are switched
 * on for the game when off. Uses game.h and linefeat.h. */
#ifndef MB_CANDIDATES_H
#define MB_CANDIDATES_H

#include <stdint.h>

#include "game.h"

/* The largest distance that means anything (any larger d is the same). */
#define CANDIDATES_MAX_DISTANCE MB_MAX_SIDE

/* The candidates of g at distance d >= 1 into out (capacity ncells), best
 * first; scores (or NULL) receives each one's score. Returns how many, or
 * -1 when the features could not be switched on (out of memory). */
int candidates_generate(Game *g, int d, int *out, int64_t *scores);

#endif
