/* rng.h: the engine's random number stream, bit for bit the one of CPython's
 * `random` module (MT19937 with CPython's integer seeding and its derived
 * functions getrandbits, _randbelow, choice, random, randint and shuffle).
 *
 * The unit owns the generator state (Rng) and nothing else: callers embed an
 * Rng by value wherever a stream lives, so two streams never interfere. It
 * uses only the C library and mberror.h. Nothing here prints or allocates,
 * except rng_seed_decimal, which mallocs scratch space for the words of seeds
 * over about 600 digits and frees it before returning. See docs/series/rng.md.
 *
 * The hot path (rng_genrand32, rng_getrandbits with k <= 32, rng_randbelow
 * and rng_choice_index for n < 2^32) is inline; the state refill and the
 * wide cases are ordinary functions in rng.c.
 *
 * The refill is lazy: the state words are twisted RNG_BATCH at a time, just
 * before they are drawn, and tempered there into a buffer of outputs, four
 * words an instruction where the compiler has vectors (each word's twist
 * needs only words twisted before it or not yet, so the outputs are the
 * textbook ones). A stream that draws a few numbers per seeding, as a
 * tournament game's does, twists a third of the 624 words. rng_seed_mixed
 * is lazier still: it stores only its seed, and the seeded words are
 * computed where the first twist needs them, RNG_CHUNK at a time. */
#ifndef MB_RNG_H
#define MB_RNG_H

#include <stdbool.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define RNG_N 624 /* MT19937 state words */
#define RNG_CHUNK                                                                                  \
    16                /* words twisted per rng_refill of rng_seed_mixed's
                        first generation (each costs three splitmix64s) */
#define RNG_BATCH 208 /* words twisted per rng_refill otherwise */

typedef struct Rng {
    uint32_t mt[RNG_N];  /* MT19937 state */
    uint32_t out[RNG_N]; /* the outputs: mt[0..end-1] tempered */
    int mti;             /* next output to draw; mti <= end */
    int end;             /* mt[0..end-1] are twisted, mt[end..] not yet */
    uint64_t draws;      /* 32-bit outputs consumed since the last seeding */
    uint64_t mix;        /* rng_seed_mixed's seed, while lazy */
    bool lazy;           /* mt[end..] are rng_seed_mixed's words, not stored */
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

/* Twist the next RNG_BATCH (RNG_CHUNK) state words and temper them into out, first
 * starting a new generation if all 624 are drawn (called by rng_genrand32
 * when mti reaches end). */
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
    r->draws++;
    return r->out[r->mti++];
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
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
#endif
}

/* Bit j set when o[j] >> shift < m, j = 0..3 (shift >= 1). */
static inline unsigned rng_below4(const uint32_t *o, int shift, uint32_t m)
{
#if defined(__SSE2__)
    /* the shifted words are below 2^31: the signed comparison is right */
    __m128i v =
        _mm_srl_epi32(_mm_loadu_si128((const __m128i *)(const void *)o), _mm_cvtsi32_si128(shift));
    __m128i lt = _mm_cmplt_epi32(v, _mm_set1_epi32((int)m));
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(lt));
#else
    return (unsigned)(o[0] >> shift < m) | (unsigned)(o[1] >> shift < m) << 1 |
           (unsigned)(o[2] >> shift < m) << 2 | (unsigned)(o[3] >> shift < m) << 3;
#endif
}

/* CPython's rejection loop draws getrandbits(k) until one is below n. With
 * four outputs buffered, the four tests are made at once without a branch
 * and the first success is taken (the draws after it stay unread): the
 * same outputs consumed, without the mispredicted branch a draw that a
 * loop test on random data costs. */
static inline uint64_t rng_randbelow(Rng *r, uint64_t n)
{
    if (n == 0) return 0;
    if (n > 0xffffffffu) return rng_randbelow_wide(r, n);
    uint32_t m = (uint32_t)n;
    int shift = 32 - rng_bitlen32(m); /* k = bit length of n, not n-1 */
    for (;;) {
        int i = r->mti;
        if (r->end - i < 4 || shift == 0) { /* the buffer's end, or n >= 2^31: one by one */
            uint32_t v = rng_genrand32(r) >> shift;
            if (v < m) return v;
            continue;
        }
        const uint32_t *o = r->out + i;
        unsigned ok = rng_below4(o, shift, m);
        /* the lowest set bit of ok (1..15) from a table of 2-bit entries */
        int used = ok ? (int)((0x12131210u >> (2 * ok)) & 3) + 1 : 4;
        r->mti = i + used;
        r->draws += (uint64_t)used;
        if (ok) return o[used - 1] >> shift;
    }
}

static inline int rng_choice_index(Rng *r, int n)
{
    if (n < 1) return -1;
    return (int)rng_randbelow(r, (uint64_t)n);
}

#endif
