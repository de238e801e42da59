/* zobrist.h: 64-bit Zobrist keys of positions on any board.
 *
 * The key of a position is the XOR, over its occupied squares, of
 * zobrist_value(m, mark): a fixed function of the move index m (y + x*height)
 * and the mark (MARK_O or MARK_X), the splitmix64 finaliser of
 * ZOBRIST_SEED + (2m + mark - 1) * 0x9E3779B97F4A7C15. So the keys are the
 * same in every run, process and build, and the empty board's key is 0. The
 * side to move is not part of the key: in a game it follows from the marks.
 * Two different positions share a key with probability about 2^-64 per
 * pair; the transposition tables that use these keys (tt.h) accept that.
 * Uses only stdint.h. */
#ifndef MB_ZOBRIST_H
#define MB_ZOBRIST_H

#include <stdint.h>

#define ZOBRIST_SEED 0x6D617275626174ULL /* "marubat" in ASCII */

/* The key of mark (1 or 2) on move m. */
static inline uint64_t zobrist_value(int m, unsigned mark)
{
    uint64_t z = ZOBRIST_SEED + (uint64_t)(2 * m + (int)mark - 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
