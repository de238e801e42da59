/* board_bits.c: the bitboard back-end, one bit plane per mark (like the
 * series' NpBoolBoard planes). Bits are row-major (bit = x + y*width), so
 * walking the set bits of the empty mask yields the normative legal-move
 * order. Boards up to 64 squares use one word per plane; larger ones use
 * nwords words, with the same code. */
#include "board_backends.h"

bool bits_wins_scan(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    if (g->thru_mask) {
        uint64_t plane = b->plane[player][0];
        for (int t = g->thru_start[m], end = g->thru_start[m + 1]; t < end; t++)
            if ((plane & g->thru_mask[t]) == g->thru_mask[t]) return true;
        return false;
    }
    int nw = g->nwords;
    const uint64_t *plane = b->plane[player];
    for (int t = g->thru_start[m]; t < g->thru_start[m + 1]; t++) {
        const uint64_t *mask = &g->line_mask[g->thru[t] * nw];
        int w = 0;
        while (w < nw && (plane[w] & mask[w]) == mask[w]) w++;
        if (w == nw) return true;
    }
    return false;
}

void bits_scan_line_counts(const Board *b, int32_t *hist)
{
    const Geometry *g = b->geom;
    int nw = g->nwords, k = g->k;
    for (int i = 0; i < g->nlines; i++) {
        const uint64_t *mask = &g->line_mask[i * nw];
        int o = 0, x = 0;
        for (int w = 0; w < nw; w++) {
            o += __builtin_popcountll(b->plane[MARK_O][w] & mask[w]);
            x += __builtin_popcountll(b->plane[MARK_X][w] & mask[w]);
        }
        hist[o * (k + 1) + x]++;
    }
}
