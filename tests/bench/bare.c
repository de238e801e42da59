/* bare.c: the naive references of make bench (see bare.h). Squares are
 * row-major bits (x + y*w), which is also the engine's legal-move order, so
 * a random game draws the same squares from the same stream, and a search
 * visits the same children in the same order. */
#include "bare.h"

#include <math.h>

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
                for (int j = 0; j < k; j++)
                    mask |= 1ull << (x + j * dirs[d][0] + (y + j * dirs[d][1]) * w);
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

/* The 8 lines of 3x3 as bit masks. */
static const uint64_t line3[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

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

/* The same games with nothing but what they need: a table of the empty
 * squares of each 9-bit empty mask in bit order, and one bit per mask
 * telling whether it holds a line. The engine's rows are compared with
 * this loop too: the issue asks for the hot path within 2x of bare C. */
uint64_t bare_pairs_tight(int pairs)
{
    static uint8_t nth[512][9], has_line[512];
    for (int m = 0; m < 512; m++) {
        int c = 0;
        for (int sq = 0; sq < 9; sq++)
            if (m >> sq & 1) nth[m][c++] = (uint8_t)sq;
        has_line[m] = 0;
        for (int l = 0; l < 8; l++)
            if (((uint64_t)m & line3[l]) == line3[l]) has_line[m] = 1;
    }
    Rng r;
    rng_seed(&r, 0);
    for (int i = 0; i < 2 * pairs; i++) {
        unsigned p[2] = {0, 0}, empty = 0777;
        for (int n = 0; n < 9; n++) {
            unsigned bit = 1u << nth[empty][rng_choice_index(&r, 9 - n)];
            empty ^= bit;
            p[n & 1] |= bit;
            if (has_line[p[n & 1]]) break;
        }
    }
    return r.draws;
}

/* ---- ai_abs_dls on 3x3: ai14s flat, the table under the 8 images ---- */

/* One slot of the table: the key (〇's 9 bits, then ×'s) and the bounds;
 * in use when its generation is the table's. */
typedef struct BareSlot {
    uint32_t key, gen;
    double lower, upper;
} BareSlot;

#define BARE_SLOTS 8192 /* a power of two; 3,219 keys at most */

typedef struct BareDls {
    Bare b;                /* the 8 lines (setup) */
    uint32_t add[9][2][8]; /* mark c on square sq, as it reads in image i */
    BareSlot slot[BARE_SLOTS];
    uint32_t gen;
    uint64_t nodes, leaves;
} BareDls;


/* ai14s in the minimax (〇) view, for p[last] just moved, p[turn] to move;
 * `won`: last's move won. */
static double bare_eval14(const uint64_t *p, int turn, int nmarks, int won)
{
    int last = turn ^ 1;
    double s = 0;
    if (won) {
        s = 300;
    } else {
        int mine_open = 0, their_open = 0, mine_one = 0, their_one = 0;
        for (int l = 0; l < 8; l++) {
            int a = __builtin_popcountll(p[last] & line3[l]);
            int z = __builtin_popcountll(p[turn] & line3[l]);
            mine_open += a == 2 && z == 0;
            their_open += a == 0 && z == 2;
            mine_one += a == 1 && z == 0;
            their_one += a == 0 && z == 1;
        }
        /* SPECIAL: move 4, × in the centre, 〇 on both ends of a diagonal,
         * × on an edge */
        uint64_t o = p[0], x = p[1];
        int special =
            nmarks == 4 && (x & 0020) && ((o & 0401) == 0401 || (o & 0104) == 0104) && (x & 0252);
        if (their_open > 0)
            s = -100.0 * their_open;
        else if (mine_open >= 2)
            s = 200;
        if (their_open > 0 || mine_open < 2) {
            if (special)
                s = 100;
            else
                s += (mine_open == 1 ? 2 : 0) + 0.5 * mine_one - their_one;
        }
    }
    return (turn == 0 ? -s : s) + 0.0;
}

/* The table: the slot of key, or the free slot where it goes. */
static BareSlot *bare_find(BareDls *d, uint32_t key)
{
    uint32_t i = (uint32_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 51);
    while (d->slot[i].gen == d->gen && d->slot[i].key != key) i = (i + 1) & (BARE_SLOTS - 1);
    return &d->slot[i];
}

/* Fail-soft αβ, 〇 maximising, at `depth` below the root's children (leaf
 * at a finished game or depth 8), keys: the position's 8 images, [0] its
 * own. p: the planes of 〇 and ×, turn 0 for 〇. */
static double bare_dls(BareDls *d, uint64_t *p, int turn, int nmarks, int won, int depth,
                       double alpha, double beta, const uint32_t *keys)
{
    d->nodes++;
    if (won || nmarks == 9 || depth == 8) {
        d->leaves++;
        return bare_eval14(p, turn, nmarks, won);
    }
    double lower = -INFINITY, upper = INFINITY;
    BareSlot *e = bare_find(d, keys[0]);
    if (e->gen == d->gen) {
        if (e->lower == e->upper) return e->lower;
        if (e->upper <= alpha) return e->upper;
        if (e->lower >= beta) return e->lower;
        lower = e->lower;
        upper = e->upper;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    }
    double alpha0 = alpha, beta0 = beta;
    double score = turn == 0 ? -INFINITY : INFINITY;
    uint32_t child[8];
    for (uint64_t empty = 0777 & ~(p[0] | p[1]); empty; empty &= empty - 1) {
        int sq = __builtin_ctzll(empty);
        p[turn] |= 1ull << sq;
        int cwon = nmarks + 1 >= 5 && wins(&d->b, p[turn], sq);
        for (int i = 0; i < 8; i++) child[i] = keys[i] | d->add[sq][turn][i];
        double v = bare_dls(d, p, turn ^ 1, nmarks + 1, cwon, depth + 1, alpha, beta, child);
        p[turn] &= ~(1ull << sq);
        if (turn == 0) {
            if (v > score) score = v;
            if (score >= beta) break;
            if (score > alpha) alpha = score;
        } else {
            if (v < score) score = v;
            if (score <= alpha) break;
            if (score < beta) beta = score;
        }
    }
    if (score <= alpha0)
        upper = score;
    else if (score < beta0)
        lower = upper = score;
    else
        lower = score;
    for (int i = 0; i < 8; i++) {
        BareSlot *sl = bare_find(d, keys[i]);
        sl->key = keys[i];
        sl->gen = d->gen;
        sl->lower = lower;
        sl->upper = upper;
    }
    return score;
}

void bare_abs_dls(uint64_t *nodes, uint64_t *leaves)
{
    static BareDls d;
    if (d.gen == 0) {
        setup(&d.b, 3, 3, 3);
        /* image i of square (x, y): the 4 rotations, each also mirrored */
        for (int sq = 0; sq < 9; sq++)
            for (int i = 0; i < 8; i++) {
                int x = sq % 3, y = sq / 3;
                if (i & 4) x = 2 - x;
                for (int r = 0; r < (i & 3); r++) {
                    int t = x;
                    x = 2 - y;
                    y = t;
                }
                for (int c = 0; c < 2; c++) d.add[sq][c][i] = 1u << (x + 3 * y + 9 * c);
            }
    }
    d.gen++; /* a fresh table for the call, shared by the root's children */
    d.nodes = d.leaves = 0;
    uint64_t p[2] = {0, 0};
    for (int sq = 0; sq < 9; sq++) {
        p[0] = 1ull << sq;
        uint32_t keys[8];
        for (int i = 0; i < 8; i++) keys[i] = d.add[sq][0][i];
        bare_dls(&d, p, 1, 1, 0, 0, -INFINITY, INFINITY, keys);
    }
    *nodes = d.nodes;
    *leaves = d.leaves;
}
