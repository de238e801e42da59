/* perft.h: counting the game tree by depth (perft), through the engine's own
 * move, judge and unmove, as a regression test and benchmark of all three.
 *
 * From the game's current position, nodes[d] is the number of positions
 * reached after d more plies and finished[d] how many of them are finished
 * games; finished positions are not expanded. nodes[0] is 1, the root. On
 * 3x3 the totals are the series' 549,946 nodes with 255,168 finished games.
 * Uses game.h. */
#ifndef MB_PERFT_H
#define MB_PERFT_H

#include <stdint.h>

#include "game.h"

/* Called after each move at the root: done of total root moves counted. */
typedef void (*PerftProgress)(void *ud, int done, int total);

/* Count to `depth` plies (0 <= depth <= empty squares) into nodes[0..depth]
 * and finished[0..depth]. The game is restored before returning. MB_OK,
 * MB_EINVAL (bad depth) or MB_ENOMEM. progress may be NULL. */
int perft_run(Game *g, int depth, uint64_t *nodes, uint64_t *finished, PerftProgress progress,
              void *ud);

#endif
