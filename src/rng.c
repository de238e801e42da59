/* rng.c: MT19937 with CPython's seeding and derived functions (docs/series/rng.md).
 * All state arithmetic is on uint32_t and wraps modulo 2^32 on purpose. */
#include "rng.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mberror.h"

#define MT_M        397
#define MT_MATRIX_A 0x9908b0dfu
#define MT_UPPER    0x80000000u
#define MT_LOWER    0x7fffffffu

/* Seeds whose words fit here are converted without malloc (about 600
 * decimal digits). */
#define RNG_STACK_WORDS 64

/* ------------------------------------------------------------------------
 * Core generator
 * ------------------------------------------------------------------------ */

/* init_genrand(s): the linear-congruential fill that init_by_array starts
 * from. */
static void rng_init_genrand(Rng *r, uint32_t s)
{
    uint32_t *mt = r->mt;
    mt[0] = s;
    for (int i = 1; i < RNG_N; i++)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    r->mti = RNG_N;
}

/* init_by_array(key[0..len-1]): CPython's seeding. Step 2 runs max(624, len)
 * times so every key word is mixed in; step 3 scrambles once more; mt[0] is
 * then forced non-zero so the state can never be all zero. */
static void rng_init_by_array(Rng *r, const uint32_t *key, int len)
{
    uint32_t *mt = r->mt;
    int i = 1, j = 0;

    /* Step 1. base state: init_genrand(19650218), the same words for every
     * seed, so computed once and copied (a third of the seeding's work; a
     * tournament seeds once per game) */
    static uint32_t base[RNG_N];
    static bool have_base = false;
    if (!have_base) {
        rng_init_genrand(r, 19650218u);
        memcpy(base, mt, sizeof base);
        have_base = true;
    } else {
        memcpy(mt, base, sizeof base);
    }

    /* Step 2. mix in the key */
    for (int k = RNG_N > len ? RNG_N : len; k > 0; k--) {
        uint32_t p = mt[i - 1] ^ (mt[i - 1] >> 30);
        mt[i] = (mt[i] ^ (p * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= RNG_N) {
            mt[0] = mt[RNG_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }

    /* Step 3. second scramble */
    for (int k = RNG_N - 1; k > 0; k--) {
        uint32_t p = mt[i - 1] ^ (mt[i - 1] >> 30);
        mt[i] = (mt[i] ^ (p * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= RNG_N) {
            mt[0] = mt[RNG_N - 1];
            i = 1;
        }
    }

    /* Step 4. */
    mt[0] = 0x80000000u;
    r->mti = r->end = RNG_N;
    r->lazy = false;
    r->draws = 0;
}

/* Word i of rng_seed_mixed(n)'s state: splitmix64 output i + 1, each a
 * bijective mix of n + (i + 1) * golden gamma. */
static uint32_t rng_mixed_word(uint64_t n, int i)
{
    uint64_t z = n + (uint64_t)(i + 1) * 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    uint32_t w = (uint32_t)((z ^ (z >> 31)) >> 32);
    return i == 0 ? w | 0x80000000u : w; /* never the all-zero state */
}

/* One twist step: new mt[k] from mt[k], mt[k1] (= k+1) and mt[km] (= k+397,
 * all mod 624). */
static inline uint32_t rng_twist(uint32_t a, uint32_t b, uint32_t m)
{
    uint32_t y = (a & MT_UPPER) | (b & MT_LOWER);
    return m ^ (y >> 1) ^ (-(y & 1u) & MT_MATRIX_A);
}

/* MT19937's tempering of y in place: one word, or four as a GCC vector
 * (the same operators apply to both). */
#define MT_TEMPER(y)                                                                               \
    do {                                                                                           \
        (y) ^= (y) >> 11;                                                                          \
        (y) ^= ((y) << 7) & 0x9d2c5680u;                                                           \
        (y) ^= ((y) << 15) & 0xefc60000u;                                                          \
        (y) ^= (y) >> 18;                                                                          \
    } while (0)

_Static_assert(RNG_CHUNK % 4 == 0 && RNG_N % RNG_CHUNK == 0 && RNG_BATCH % 4 == 0 &&
                   RNG_N % RNG_BATCH == 0,
               "chunks are whole groups of four words");

#if defined(__GNUC__)
/* Four words at a time (SSE2 on x86-64, NEON on ARM, plain code elsewhere,
 * through the compiler's vector extension): the same arithmetic lane by
 * lane. */
typedef uint32_t Quad __attribute__((vector_size(16)));

static inline Quad quad_load(const uint32_t *p)
{
    Quad v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void quad_store(uint32_t *p, Quad v) { memcpy(p, &v, sizeof v); }

/* Words k..k+3 of the state, their indices taken mod 624. */
static inline Quad quad_wrap(const uint32_t *mt, int k)
{
    Quad v = {mt[k % RNG_N], mt[(k + 1) % RNG_N], mt[(k + 2) % RNG_N], mt[(k + 3) % RNG_N]};
    return v;
}

/* MT19937's tempering, four words at once. */
static inline Quad temper_quad(Quad y)
{
    MT_TEMPER(y);
    return y;
}

/* Twist words [k, stop) of the state, k and stop multiples of 4, and
 * temper them into out: group k reads mt[k+1..k+4] (old; mt[0] is new for
 * the last group) and mt[k+397..k+400 mod 624] (old below k = 227, new
 * from there on), all loaded before the group is stored, as the one-word
 * loop reads them. */
static void twist_quads(uint32_t *mt, uint32_t *out, int k, int stop)
{
    for (; k < stop; k += 4) {
        Quad b = k + 4 < RNG_N ? quad_load(mt + k + 1) : quad_wrap(mt, k + 1);
        Quad m = k + 3 < RNG_N - MT_M ? quad_load(mt + k + MT_M)
                 : k >= RNG_N - MT_M  ? quad_load(mt + k + MT_M - RNG_N)
                                      : quad_wrap(mt, k + MT_M);
        Quad y = (quad_load(mt + k) & MT_UPPER) | (b & MT_LOWER);
        Quad w = m ^ (y >> 1) ^ (-(y & 1u) & MT_MATRIX_A);
        quad_store(mt + k, w);
        quad_store(out + k, temper_quad(w));
    }
}

/* out[k..stop) = the tempered state words. */
static void temper_quads(const uint32_t *mt, uint32_t *out, int k, int stop)
{
    for (; k < stop; k += 4) quad_store(out + k, temper_quad(quad_load(mt + k)));
}
#else
/* MT19937's tempering of one state word into an output. */
static inline uint32_t rng_temper(uint32_t y)
{
    MT_TEMPER(y);
    return y;
}

/* The same one word at a time. */
static void twist_quads(uint32_t *mt, uint32_t *out, int k, int stop)
{
    for (; k < stop; k++) {
        int k1 = k + 1 < RNG_N ? k + 1 : 0, km = k + MT_M < RNG_N ? k + MT_M : k + MT_M - RNG_N;
        mt[k] = rng_twist(mt[k], mt[k1], mt[km]);
        out[k] = rng_temper(mt[k]);
    }
}

static void temper_quads(const uint32_t *mt, uint32_t *out, int k, int stop)
{
    for (; k < stop; k++) out[k] = rng_temper(mt[k]);
}
#endif

/* Twists mt[end..end+RNG_BATCH-1] (RNG_CHUNK while lazy) in place, in
 * order, and tempers them into out. New mt[k] needs old mt[k] and mt[k+1] (not yet twisted) and
 * mt[k+397 mod 624] (old below k = 227, already new from there on; mt[0]
 * is new for k = 623): exactly the reference algorithm's words, so
 * twisting lazily, a chunk at a time, changes no output. */
void rng_refill(Rng *r)
{
    uint32_t *mt = r->mt;
    if (r->end >= RNG_N) r->mti = r->end = 0; /* a new generation */
    int k = r->end, batch = r->lazy ? RNG_CHUNK : RNG_BATCH;
    int stop = k + batch < RNG_N ? k + batch : RNG_N;
    if (r->lazy) {
        /* the old words are rng_seed_mixed's, computed where needed */
        uint64_t n = r->mix;
        for (int j = k; j < stop; j++) {
            uint32_t b = j + 1 < RNG_N ? rng_mixed_word(n, j + 1) : mt[0];
            uint32_t m = j < RNG_N - MT_M ? rng_mixed_word(n, j + MT_M) : mt[j + MT_M - RNG_N];
            mt[j] = rng_twist(rng_mixed_word(n, j), b, m);
        }
        if (stop == RNG_N) r->lazy = false;
        temper_quads(mt, r->out, k, stop);
    } else {
        twist_quads(mt, r->out, k, stop);
    }
    r->end = stop;
}

/* ------------------------------------------------------------------------
 * Seeding
 * ------------------------------------------------------------------------ */

void rng_seed(Rng *r, uint64_t n)
{
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    rng_init_by_array(r, key, key[1] ? 2 : 1);
}

void rng_seed_i64(Rng *r, int64_t n)
{
    /* |n| computed in unsigned arithmetic, so INT64_MIN works too. */
    uint64_t u = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
    rng_seed(r, u);
}

void rng_seed_mixed(Rng *r, uint64_t n)
{
    r->mix = n;
    r->lazy = true;
    r->mti = r->end = RNG_N; /* the seeded words are the "old" generation */
    r->draws = 0;
}

int rng_seed_words(Rng *r, const uint32_t *key, int len)
{
    if (!key || len < 1) return MB_EINVAL;
    rng_init_by_array(r, key, len);
    return MB_OK;
}

/* The whitespace Python's int() strips, restricted to ASCII C isspace. */
static int rng_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int rng_is_digit(char c) { return c >= '0' && c <= '9'; }

/* Validates Python int() syntax for base 10: [ws][+|-]digits[ws], where
 * digits may hold single underscores between two digits. Sets *first to the
 * first digit and returns the number of digits, or -1 on bad text. */
static long rng_scan_decimal(const char *s, const char **first, const char **end)
{
    long nd = 0;
    while (rng_is_space(*s)) s++;
    if (*s == '+' || *s == '-') s++;
    if (!rng_is_digit(*s)) return -1;
    *first = s;
    for (;;) {
        if (rng_is_digit(*s)) {
            if (nd == LONG_MAX) return -1;
            nd++;
            s++;
        } else if (*s == '_' && rng_is_digit(s[1])) {
            s++;
        } else {
            break;
        }
    }
    *end = s;
    while (rng_is_space(*s)) s++;
    return *s == '\0' ? nd : -1;
}

/* Decimal to base 2^32, least significant word first. Digits are taken in
 * chunks of up to nine (10^9 < 2^32): w = w * 10^len + chunk. Returns the
 * number of words with the high zero words stripped (at least one). */
static int rng_decimal_to_words(const char *s, const char *end, uint32_t *w)
{
    int nw = 1;
    w[0] = 0;
    while (s < end) {
        uint32_t chunk = 0, mul = 1;
        for (int c = 0; c < 9 && s < end; s++) {
            if (*s == '_') continue;
            chunk = chunk * 10u + (uint32_t)(*s - '0');
            mul *= 10u;
            c++;
        }
        uint64_t carry = chunk;
        for (int i = 0; i < nw; i++) {
            uint64_t t = (uint64_t)w[i] * mul + carry;
            w[i] = (uint32_t)t;
            carry = t >> 32;
        }
        if (carry) w[nw++] = (uint32_t)carry;
    }
    return nw;
}

/* The text is checked before anything changes, so on MB_ESYNTAX (or
 * MB_ENOMEM) the generator keeps its previous state. Each chunk of nine
 * digits adds under 30 bits, so (digits + 8) / 9 + 1 words always suffice. */
int rng_seed_decimal(Rng *r, const char *text)
{
    const char *first = NULL, *end = NULL;
    if (!text) return MB_ESYNTAX;
    long nd = rng_scan_decimal(text, &first, &end);
    if (nd < 0) return MB_ESYNTAX;

    size_t cap = (size_t)(nd + 8) / 9 + 1;
    if (cap > (size_t)INT_MAX || cap > SIZE_MAX / sizeof(uint32_t)) return MB_ENOMEM;
    uint32_t stack[RNG_STACK_WORDS];
    uint32_t *w = stack;
    if (cap > RNG_STACK_WORDS) {
        w = malloc(cap * sizeof *w);
        if (!w) return MB_ENOMEM;
    }
    int nw = rng_decimal_to_words(first, end, w);
    rng_init_by_array(r, w, nw);
    if (w != stack) free(w);
    return MB_OK;
}

/* ------------------------------------------------------------------------
 * Derived functions
 * ------------------------------------------------------------------------ */

/* Bit length of n >= 1. */
static int rng_bitlen64(uint64_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    return 64 - __builtin_clzll(n);
#else
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
#endif
}

uint64_t rng_randbelow_wide(Rng *r, uint64_t n)
{
    if (n <= 0xffffffffu) return rng_randbelow(r, n);
    int k = rng_bitlen64(n);
    uint64_t v;
    do v = rng_getrandbits(r, k);
    while (v >= n);
    return v;
}

double rng_random(Rng *r)
{
    uint32_t a = rng_genrand32(r) >> 5;
    uint32_t b = rng_genrand32(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* randbelow(2^64), which CPython does with getrandbits(65): three words,
 * the third reduced to its top bit; accepted when that bit is 0. */
static uint64_t rng_randbelow_2p64(Rng *r)
{
    for (;;) {
        uint64_t lo = rng_genrand32(r);
        uint64_t hi = rng_genrand32(r);
        if ((rng_genrand32(r) >> 31) == 0) return lo | hi << 32;
    }
}

/* a + off in two's complement without signed overflow. */
static int64_t rng_add_offset(int64_t a, uint64_t off)
{
    uint64_t u = (uint64_t)a + off;
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)~u - 1;
}

int64_t rng_randint(Rng *r, int64_t a, int64_t b)
{
    if (b < a) return a;
    uint64_t width = (uint64_t)b - (uint64_t)a + 1u; /* 0 means 2^64 */
    uint64_t off = width ? rng_randbelow(r, width) : rng_randbelow_2p64(r);
    return rng_add_offset(a, off);
}

void rng_shuffle_ints(Rng *r, int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_randbelow(r, (uint64_t)i + 1u);
        int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}
