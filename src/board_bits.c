/* board_bits.c: the bitboard back-end, one bit plane per mark (like the
 * series' NpBoolBoard planes). Bits are row-major (bit = x + y*width), so
 * walking the set bits of the empty mask yields the normative legal-move
 * order. Boards up to 64 squares use one word per plane; larger ones use
 * nwords words, with the same code. */
#include "board_backends.h"

#include <string.h>

/* Bits set in v: the CPU's instruction when the build targets it, else a
 * branch-free count (faster than the C library's generic fallback). */
static inline int popcount64(uint64_t v)
{
#ifdef __POPCNT__
    return __builtin_popcountll(v);
#else
    v -= (v >> 1) & 0x5555555555555555ULL;
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((v * 0x0101010101010101ULL) >> 56);
#endif
}

bool bits_word_wins_scan(const Geometry *g, uint64_t plane, int m)
{
    for (int t = g->thru_start[m], end = g->thru_start[m + 1]; t < end; t++)
        if ((plane & g->thru_mask[t]) == g->thru_mask[t]) return true;
    return false;
}

bool bits_wins_scan(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    if (g->thru_mask) return bits_word_wins_scan(g, b->plane[player][0], m);
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

int bits_empty_squares_wide(const Board *b, int *out)
{
    const Geometry *g = b->geom;
    const uint64_t *o = b->plane[MARK_O], *x = b->plane[MARK_X];
    int n = 0;
    for (int w = 0; w < g->nwords; w++) {
        const int16_t *move_of = g->move_of + w * 64;
        for (uint64_t empty = g->full_mask[w] & ~(o[w] | x[w]); empty; empty &= empty - 1)
            out[n++] = move_of[__builtin_ctzll(empty)];
    }
    return n;
}

bool bits_wins_call(const Board *b, Mark player, int m)
{
    return bits_wins_scan(b, player, m) && (!b->geom->exact || board_exact_run(b, player, m));
}

void bits_scan_line_counts(const Board *b, Mark first, int32_t *hist)
{
    const Geometry *g = b->geom;
    int nw = g->nwords, k1 = g->k + 1;
    const uint64_t *a = b->plane[first], *z = b->plane[mark_other_(first)];
    if (nw == 1) {
        uint64_t pa = a[0], pz = z[0];
        const uint64_t *mask = g->line_mask;
        for (int i = 0; i < g->nlines; i++)
            hist[popcount64(pa & mask[i]) * k1 + popcount64(pz & mask[i])]++;
        return;
    }
    for (int i = 0; i < g->nlines; i++) {
        const uint64_t *mask = &g->line_mask[i * nw];
        int na = 0, nz = 0;
        for (int w = 0; w < nw; w++) {
            na += popcount64(a[w] & mask[w]);
            nz += popcount64(z[w] & mask[w]);
        }
        hist[na * k1 + nz]++;
    }
}

/* The storage: nwords words of 〇's plane, then nwords of ×'s. */
size_t bits_storage(const Geometry *g) { return (size_t)g->nwords * 2 * sizeof(uint64_t); }

void bits_attach(Board *b, void *mem)
{
    b->plane[0] = NULL;
    b->plane[MARK_O] = mem;
    b->plane[MARK_X] = b->plane[MARK_O] + b->geom->nwords;
}

void bits_clear(Board *b) { memset(b->plane[MARK_O], 0, bits_storage(b->geom)); }

void bits_key(const Board *b, char *buf)
{
    for (int m = 0; m < b->geom->ncells; m++) buf[m] = board_mark_char(bits_get(b, m));
}
