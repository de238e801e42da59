/* wincheck.h: the six full-scan win checks of the series' part 34, kept as
 * selectable variants for tests and benchmarks (the engine's own judge is the
 * last-move check of game.c).
 *
 *   0 original   one Boolean expression listing the 8 lines (3x3 only)
 *   1 concat     each line's marks joined and compared with "ooo" (3x3 only)
 *   2 table      8 rows of x1 y1 x2 y2 x3 y3 (3x3 only)
 *   3 coords     8 lines written as Excel strings "A1,B1,C1" (3x3 only)
 *   4 generated  the coordinate lists generated from the shape (any board)
 *   5 step       each line as a first square plus a step (any board)
 *
 * All read the board through board_get, whatever its back-end, and scan
 * every line, not only those through the last move. Uses board.h. */
#ifndef MB_WINCHECK_H
#define MB_WINCHECK_H

#include <stdbool.h>

#include "game.h"

#define WINCHECK_ALGOS 6

/* True if the algorithm applies to this shape (0..3 need 3x3 with k = 3). */
bool wincheck_applies(const Geometry *g, int algo);
/* The algorithm's short name ("original", ..., "step"). */
const char *wincheck_name(int algo);
/* Does `player` hold a full line? MB_EALGO in *err if the algorithm does not
 * apply (and false). */
bool wincheck_is_winner(const Board *b, int algo, Mark player, int *err);
/* Part 34's judge: 〇 wins, else × wins, else draw if no square is empty,
 * else playing. Returns STATUS_PLAYING with *err = MB_EALGO if it does not
 * apply. */
Status wincheck_judge(const Board *b, int algo, int *err);

#endif
