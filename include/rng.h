/* rng.h: the engine's random number stream, bit for bit the one of CPython's
 * `random` module (MT19937 with CPython's integer seeding and its derived
 * functions getrandbits, _randbelow, choice, random, randint and shuffle).
 *
 * The unit owns the generator state (Rng) and nothing else: callers embed an
 * Rng by value wherever a stream lives, so two streams never interfere. It
 * uses only the C library and mberror.h. Nothing here prints or allocates,
 * except rng_seed_decimal, which mallocs scratch space for the words of seeds
 * over about 600 digits and frees it before returning. See spec/rng.md.
 *
 * The hot path (rng_genrand32, rng_getrandbits with k <= 32, rng_randbelow
 * and rng_choice_index for n < 2^32) is inline; the state refill and the
 * wide cases are ordinary functions in rng.c.
 *
 * The refill is lazy: the state words are twisted RNG_CHUNK at a time, just
 * before they are drawn (each word's twist needs only words twisted before
 * it or not yet, so the outputs are the textbook ones). A stream that draws
 * a few numbers per seeding, as a tournament game's does, twists a few words
 * instead of 624. rng_seed_mixed is lazier still: it stores only its seed,
 * and the seeded words are computed where the first twist needs them. */
#ifndef MB_RNG_H
#define MB_RNG_H

#include <stdbool.h>
#include <stdint.h>

#define RNG_N 624    /* MT19937 state words */
#define RNG_CHUNK 16 /* words twisted per rng_refill */

typedef struct Rng {
    uint32_t mt[RNG_N]; /* MT19937 state */
    int mti;            /* next word of mt to temper; mti <= end */
    int end;            /* mt[0..end-1] are twisted, mt[end..] not yet */
    uint64_t draws;     /* 32-bit outputs consumed since the last seeding */
    uint64_t mix;       /* rng_seed_mixed's seed, while lazy */
    bool lazy;          /* mt[end..] are rng_seed_mixed's words, not stored */
} Rng;

/* --- Seeding (each resets draws to 0) ---------------------------------- */

/* CPython random.seed(n) for an integer n >= 0. */
void rng_seed(Rng *r, uint64_t n);
/* CPython random.seed(n) for a negative n (the sign is ignored, as |n|). */
void rng_seed_i64(Rng *r, int64_t n);
/* init_by_array(key[0..len-1]) exactly as given; MB_EINVAL if len < 1. */
int rng_seed_words(Rng *r, const uint32_t *key, int len);
/* Seed from decimal text of any length, Python int() syntax with ASCII
 * whitespace, sign ignored; MB_ESYNTAX (state unchanged) or MB_ENOMEM. */
int rng_seed_decimal(Rng *r, const char *text);
/* The project's own seeding (not CPython's), for many short streams: word i
 * of the state is the splitmix64 output i + 1 from n (its top 32 bits), the
 * top bit of word 0 set so the state is never all zero. O(1): the words are
 * computed when first needed. The tournaments seed each game's streams so. */
void rng_seed_mixed(Rng *r, uint64_t n);

/* --- Raw stream --------------------------------------------------------- */

/* Twist the next RNG_CHUNK state words, first starting a new generation
 * if all 624 are drawn (called by rng_genrand32 when mti reaches end). */
void rng_refill(Rng *r);
/* Next 32-bit output of the stream (CPython getrandbits(32)). */
static inline uint32_t rng_genrand32(Rng *r);
/* CPython getrandbits(k), 1 <= k <= 64; k < 1 gives 0, k > 64 acts as 64. */
static inline uint64_t rng_getrandbits(Rng *r, int k);

/* --- Derived functions -------------------------------------------------- */

/* CPython _randbelow(n): uniform in [0, n); n == 0 returns 0, no draws. */
static inline uint64_t rng_randbelow(Rng *r, uint64_t n);
/* rng_randbelow for n >= 2^32 (the out-of-line part of rng_randbelow). */
uint64_t rng_randbelow_wide(Rng *r, uint64_t n);
/* Index for CPython choice() over n items; -1 without drawing if n < 1. */
static inline int rng_choice_index(Rng *r, int n);
/* CPython random(): a 53-bit double in [0, 1), two outputs. */
double rng_random(Rng *r);
/* CPython randint(a, b) = a + randbelow(b - a + 1); a without drawing if
 * b < a (CPython raises). The full int64 range works. */
int64_t rng_randint(Rng *r, int64_t a, int64_t b);
/* CPython shuffle() of v[0..n-1]: i = n-1..1, swap v[i], v[randbelow(i+1)]. */
void rng_shuffle_ints(Rng *r, int *v, int n);

/* --- Inline definitions ------------------------------------------------- */

static inline uint32_t rng_genrand32(Rng *r)
{
    if (r->mti >= r->end) rng_refill(r);
    uint32_t y = r->mt[r->mti++];
    r->draws++;
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* Words are filled least significant first; the last word keeps its top
 * (remaining) bits, as CPython does for k > 32. */
static inline uint64_t rng_getrandbits(Rng *r, int k)
{
    if (k < 1) return 0;
    if (k <= 32) return rng_genrand32(r) >> (32 - k);
    if (k > 64) k = 64;
    uint64_t lo = rng_genrand32(r);
    uint64_t hi = rng_genrand32(r) >> (64 - k);
    return lo | hi << 32;
}

/* Number of binary digits of n, 1 <= n < 2^32 (helper of rng_randbelow). */
static inline int rng_bitlen32(uint32_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return 32 - __builtin_clz(n);
#else
    int k = 0;
    while (n) { k++; n >>= 1; }
    return k;
#endif
}

static inline uint64_t rng_randbelow(Rng *r, uint64_t n)
{
    if (n == 0) return 0;
    if (n > 0xffffffffu) return rng_randbelow_wide(r, n);
    uint32_t m = (uint32_t)n;
    int shift = 32 - rng_bitlen32(m); /* k = bit length of n, not n-1 */
    uint32_t v;
    do v = rng_genrand32(r) >> shift; while (v >= m);
    return v;
}

static inline int rng_choice_index(Rng *r, int n)
{
    if (n < 1) return -1;
    return (int)rng_randbelow(r, (uint64_t)n);
}

#endif
