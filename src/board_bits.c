/* board_bits.c: the bitboard back-end, one bit plane per mark (like the
 * series' NpBoolBoard planes). Bits are row-major (bit = x + y*width), so
 * walking the set bits of the empty mask yields the normative legal-move
 * order. Boards up to 64 squares use one word per plane; larger ones use
 * nwords words, with the same code. */
#include "board_backends.h"

int bits_empty_squares(const Board *b, int *out)
{
    const Geometry *g = b->geom;
    int nw = g->nwords, n = 0;
    for (int w = 0; w < nw; w++) {
        uint64_t empty = g->full_mask[w] & ~(b->planes[w] | b->planes[nw + w]);
        while (empty) {
            out[n++] = g->move_of[w * 64 + __builtin_ctzll(empty)];
            empty &= empty - 1;
        }
    }
    return n;
}

void bits_scan_line_counts(const Board *b, int32_t *hist)
{
    const Geometry *g = b->geom;
    int nw = g->nwords, k = g->k;
    for (int i = 0; i < g->nlines; i++) {
        const uint64_t *mask = &g->line_mask[i * nw];
        int o = 0, x = 0;
        for (int w = 0; w < nw; w++) {
            o += __builtin_popcountll(b->planes[w] & mask[w]);
            x += __builtin_popcountll(b->planes[nw + w] & mask[w]);
        }
        hist[o * (k + 1) + x]++;
    }
}
