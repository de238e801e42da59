/* markpats.h: mark patterns, the series' count_markpats.
 *
 * The pattern of a line is (marks of last_turn, marks of turn, empty squares)
 * on its k squares. count_markpats returns the histogram of patterns over
 * every line as a dense (k+1) x (k+1) array indexed [last*(k+1) + turn] (the
 * empty count is k - last - turn), never a hash map. With line counters the
 * histogram is kept up to date by every move and reading it costs O(k^2);
 * without them the lines are scanned. Both give the same numbers.
 * Uses game.h. */
#ifndef MB_MARKPATS_H
#define MB_MARKPATS_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* Entries of a histogram for this shape: (k+1)^2. */
static inline int markpats_size(const Geometry *g) { return (g->k + 1) * (g->k + 1); }

/* The histogram for (turn, last_turn) into hist (markpats_size entries).
 * last_turn MARK_EMPTY (move 0) is read as the side not to move. */
void markpats_count(const Board *b, Mark turn, Mark last_turn, int32_t *hist);
/* The same, by scanning the lines even when counters are kept. */
void markpats_count_scan(const Board *b, Mark turn, Mark last_turn, int32_t *hist);
/* count_markpats of a game: its own turn and last_turn. */
void markpats_of_game(const Game *g, int32_t *hist);
/* The series' printed form: one "(last, turn, empty): lines" per line for
 * every non-zero entry, sorted; returns the length (-1 if it does not fit). */
int markpats_format(const Geometry *g, const int32_t *hist, char *buf, size_t len);

#endif
