/* bare.c: the naive references of make bench (see bare.h). Squares are
 * row-major bits (x + y*w), which is also the engine's legal-move order, so
 * a random game draws the same squares from the same stream. */
#include "bare.h"

#include "rng.h"

typedef struct Bare {
    int ncells, depth;
    uint64_t full;
    uint64_t lines_thru[64][16]; /* the lines through each square */
    int nthru[64];
    uint64_t nodes, finished;
} Bare;

static void setup(Bare *b, int w, int h, int k)
{
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    b->ncells = w * h;
    b->full = b->ncells == 64 ? ~0ull : (1ull << b->ncells) - 1;
    for (int i = 0; i < 64; i++) b->nthru[i] = 0;
    for (int d = 0; d < (k == 1 ? 1 : 4); d++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int ex = x + (k - 1) * dirs[d][0], ey = y + (k - 1) * dirs[d][1];
                if (ex < 0 || ex >= w || ey >= h) continue;
                uint64_t mask = 0;
                for (int j = 0; j < k; j++) mask |= 1ull << (x + j * dirs[d][0] + (y + j * dirs[d][1]) * w);
                for (int j = 0; j < k; j++) {
                    int sq = x + j * dirs[d][0] + (y + j * dirs[d][1]) * w;
                    if (b->nthru[sq] < 16) b->lines_thru[sq][b->nthru[sq]++] = mask;
                }
            }
}

static int wins(const Bare *b, uint64_t mine, int sq)
{
    for (int t = 0; t < b->nthru[sq]; t++)
        if ((mine & b->lines_thru[sq][t]) == b->lines_thru[sq][t]) return 1;
    return 0;
}

static void walk(Bare *b, uint64_t mover, uint64_t other, int ply)
{
    uint64_t empty = b->full & ~(mover | other);
    while (empty) {
        int sq = __builtin_ctzll(empty);
        empty &= empty - 1;
        uint64_t mine = mover | 1ull << sq;
        b->nodes++;
        if (wins(b, mine, sq) || ply + 1 == b->ncells)
            b->finished++;
        else if (ply + 1 < b->depth)
            walk(b, other, mine, ply + 1);
    }
}

void bare_perft(int w, int h, int k, int depth, uint64_t *nodes, uint64_t *finished)
{
    static Bare b;
    setup(&b, w, h, k);
    b.depth = depth;
    b.nodes = 1;
    b.finished = 0;
    if (depth > 0) walk(&b, 0, 0, 0);
    *nodes = b.nodes;
    *finished = b.finished;
}

uint64_t bare_pairs(int pairs)
{
    static Bare b;
    setup(&b, 3, 3, 3);
    Rng r;
    rng_seed(&r, 0);
    for (int i = 0; i < 2 * pairs; i++) {
        uint64_t p[2] = {0, 0};
        for (int n = 0, turn = 0; n < 9; n++, turn ^= 1) {
            uint64_t empty = b.full & ~(p[0] | p[1]);
            int pick = rng_choice_index(&r, 9 - n);
            while (pick--) empty &= empty - 1;
            int sq = __builtin_ctzll(empty);
            p[turn] |= 1ull << sq;
            if (n >= 4 && wins(&b, p[turn], sq)) break;
        }
    }
    return r.draws;
}
