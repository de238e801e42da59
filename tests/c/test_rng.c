/* test_rng.c: checks that rng.c reproduces CPython's random exactly. */
/* Covers the known values of rng.md §5 and ais.md §2.3, every value and draw
 * count in tests/data/rng_vectors.txt (written by gen_rng_vectors.py),
 * seeding from words and from decimal text, and stream independence; the
 * lazy refill against a textbook one, reseeding and copying mid-refill;
 * rng_seed_mixed against known outputs (computed by a separate Python
 * model of splitmix64 + MT19937) and against an eager textbook stream. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "harness.h"
#include "mberror.h"
#include "rng.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static bool same_state(const Rng *a, const Rng *b)
{
    return a->mti == b->mti && a->end == b->end && a->lazy == b->lazy &&
           memcmp(a->mt, b->mt, sizeof a->mt) == 0;
}

/* A textbook MT19937 stream (whole refills, modulo indices), the reference
 * for the lazy one. */
typedef struct RefMt {
    uint32_t mt[RNG_N];
    int mti;
} RefMt;

static uint32_t ref_next(RefMt *m)
{
    if (m->mti >= RNG_N) {
        for (int k = 0; k < RNG_N; k++) {
            uint32_t y = (m->mt[k] & 0x80000000u) | (m->mt[(k + 1) % RNG_N] & 0x7fffffffu);
            m->mt[k] = m->mt[(k + 397) % RNG_N] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        m->mti = 0;
    }
    uint32_t y = m->mt[m->mti++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* rng_seed_mixed's state, filled eagerly. */
static void ref_mixed(RefMt *m, uint64_t n)
{
    for (int i = 0; i < RNG_N; i++) {
        uint64_t z = (n += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        m->mt[i] = (uint32_t)((z ^ (z >> 31)) >> 32);
    }
    m->mt[0] |= 0x80000000u;
    m->mti = RNG_N;
}

/* Whole file as a NUL-terminated string, or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - 1 - len, f);
        if (len < cap - 1) break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    if (buf) buf[len] = '\0';
    fclose(f);
    return buf;
}

static unsigned long long to_u64(const char *s, bool *ok)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s == '-' || *s == '\0' || *end || errno == ERANGE) *ok = false;
    return v;
}

static long long to_i64(const char *s, bool *ok)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end || errno == ERANGE) *ok = false;
    return v;
}

/* ------------------------------------------------------------------------
 * Known values of rng.md §5
 * ------------------------------------------------------------------------ */

TEST(seed0_first_outputs)
{
    static const uint32_t want[5] = {3626764237u, 1654615998u, 3255389356u, 3823568514u,
                                     1806341205u};
    static const uint32_t hex[5] = {0xd82c07cd, 0x629f6fbe, 0xc2094cac, 0xe3e70682, 0x6baa9455};
    Rng r;
    rng_seed(&r, 0);
    for (int i = 0; i < 5; i++) {
        uint32_t v = rng_genrand32(&r);
        CHECK_U64(v, want[i]);
        CHECK_U64(v, hex[i]);
    }
    CHECK_U64(r.draws, 5);
    rng_seed(&r, 0);
    CHECK_U64(r.draws, 0);
    CHECK_U64(rng_getrandbits(&r, 32), 3626764237u);
}

TEST(seed0_random)
{
    Rng r;
    rng_seed(&r, 0);
    CHECK(rng_random(&r) == 0.8444218515250481);
    CHECK(rng_random(&r) == 0.7579544029403025);
    CHECK(rng_random(&r) == 0.420571580830845);
    CHECK_U64(r.draws, 6);
}

TEST(seed0_choice9)
{
    static const int want[10] = {6, 6, 0, 4, 8, 7, 6, 4, 7, 5};
    Rng r;
    rng_seed(&r, 0);
    /* Worked example: 0xd82c07cd >> 28 = 13 is rejected, then 6. */
    CHECK_INT(rng_choice_index(&r, 9), 6);
    CHECK_U64(r.draws, 2);
    rng_seed(&r, 0);
    for (int i = 0; i < 10; i++) CHECK_INT(rng_choice_index(&r, 9), want[i]);
}

TEST(seed0_choice_shrinking)
{
    static const int want[9] = {6, 6, 0, 2, 4, 3, 1, 1, 0};
    Rng r;
    rng_seed(&r, 0);
    for (int n = 9; n >= 1; n--) CHECK_INT(rng_choice_index(&r, n), want[9 - n]);
    CHECK_U64(r.draws, 17);
}

TEST(seed0_single_choice_draws)
{
    static const int cost[10] = {2, 3, 1, 1, 3, 1, 4, 2, 1, 4};
    Rng r;
    rng_seed(&r, 0);
    for (int i = 0; i < 10; i++) {
        uint64_t before = r.draws;
        CHECK_INT(rng_choice_index(&r, 1), 0);
        CHECK_U64(r.draws - before, cost[i]);
    }
}

TEST(seed_multiword)
{
    Rng r;
    /* python3 -c "import random; random.seed(12345678901234567890);
     * print(random.getrandbits(32))" */
    rng_seed(&r, 12345678901234567890u);
    Rng d;
    CHECK_INT(rng_seed_decimal(&d, "12345678901234567890"), MB_OK);
    CHECK(same_state(&r, &d));
    CHECK_U64(rng_genrand32(&r), rng_genrand32(&d));
}

/* ------------------------------------------------------------------------
 * Edge cases of the API
 * ------------------------------------------------------------------------ */

TEST(no_draw_cases)
{
    Rng r;
    rng_seed(&r, 0);
    CHECK_U64(rng_randbelow(&r, 0), 0);
    CHECK_INT(rng_choice_index(&r, 0), -1);
    CHECK_INT(rng_choice_index(&r, -3), -1);
    CHECK_U64(rng_getrandbits(&r, 0), 0);
    CHECK_INT(rng_randint(&r, 5, 4), 5);
    int v[1] = {7};
    rng_shuffle_ints(&r, v, 1);
    rng_shuffle_ints(&r, v, 0);
    CHECK_INT(v[0], 7);
    CHECK_U64(r.draws, 0);
    CHECK_U64(rng_genrand32(&r), 3626764237u);
}

TEST(getrandbits_wide_layout)
{
    /* k > 32: first output is the low word, second is shifted right. */
    Rng a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    for (int k = 33; k <= 64; k++) {
        uint64_t lo = rng_genrand32(&b), hi = rng_genrand32(&b) >> (64 - k);
        CHECK_U64(rng_getrandbits(&a, k), lo | hi << 32);
    }
    CHECK_U64(a.draws, b.draws);
}

TEST(seed_words)
{
    Rng a, b;
    uint32_t key[3] = {0, 1, 0};
    CHECK_INT(rng_seed_words(&a, key, 0), MB_EINVAL);
    CHECK_INT(rng_seed_words(&a, NULL, 1), MB_EINVAL);
    CHECK_INT(rng_seed_words(&a, key, 1), MB_OK);
    rng_seed(&b, 0);
    CHECK(same_state(&a, &b));
    CHECK_INT(rng_seed_words(&a, key, 2), MB_OK);
    rng_seed(&b, (uint64_t)1 << 32);
    CHECK(same_state(&a, &b));
    /* Words are used as given: a high zero word changes the state. */
    CHECK_INT(rng_seed_words(&a, key, 3), MB_OK);
    CHECK(!same_state(&a, &b));
}

TEST(seed_signed)
{
    Rng a, b;
    rng_seed_i64(&a, -7);
    rng_seed(&b, 7);
    CHECK(same_state(&a, &b));
    rng_seed_i64(&a, INT64_MIN);
    rng_seed(&b, (uint64_t)1 << 63);
    CHECK(same_state(&a, &b));
}

TEST(seed_decimal_agrees)
{
    static const struct {
        const char *text;
        uint64_t n;
    } cases[] = {
        {"0", 0},
        {"-0", 0},
        {"1", 1},
        {"42", 42},
        {"-7", 7},
        {"+7", 7},
        {"  \t 42\n", 42},
        {"000000000000000000000000000042", 42},
        {"1_000_000", 1000000},
        {"4294967295", 4294967295u},
        {"4294967296", 4294967296u},
        {"4294967301", 4294967301u},
        {"999999999", 999999999u},
        {"1000000000", 1000000000u},
        {"1099511627776", (uint64_t)1 << 40},
        {"-9223372036854775808", (uint64_t)1 << 63},
        {"18446744073709551615", UINT64_MAX},
        {"1_8446_7440_7370_9551_615", UINT64_MAX},
        {"12345678901234567890", 12345678901234567890u},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Rng a, b;
        CHECK_INT(rng_seed_decimal(&a, cases[i].text), MB_OK);
        rng_seed(&b, cases[i].n);
        if (!same_state(&a, &b))
            t_fail(__FILE__, __LINE__, "seed_decimal(\"%s\") != seed(%llu)", cases[i].text,
                   (unsigned long long)cases[i].n);
    }
    /* Every uint64 whose digits cross a 9-digit chunk boundary. */
    uint64_t n = 1;
    for (int d = 1; d <= 19; d++, n = n * 10 + (uint64_t)(d % 10)) {
        char text[32];
        Rng a, b;
        snprintf(text, sizeof text, "%llu", (unsigned long long)n);
        CHECK_INT(rng_seed_decimal(&a, text), MB_OK);
        rng_seed(&b, n);
        CHECK(same_state(&a, &b));
    }
}

TEST(seed_decimal_bad)
{
    static const char *bad[] = {"",    "12a", "1__2", "_1",  "1_",  "+",   "-",     " ",
                                "+-1", "1 2", "0x10", "--1", "1.0", "+_1", "\0011", "1e3"};
    Rng r, before;
    rng_seed(&r, 99);
    (void)rng_genrand32(&r);
    before = r;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int err = rng_seed_decimal(&r, bad[i]);
        if (err != MB_ESYNTAX)
            t_fail(__FILE__, __LINE__, "seed_decimal(\"%s\") == %d", bad[i], err);
    }
    CHECK_INT(rng_seed_decimal(&r, NULL), MB_ESYNTAX);
    /* A failed call leaves the generator as it was. */
    CHECK(same_state(&r, &before));
    CHECK_U64(r.draws, before.draws);
}

TEST(independent_streams)
{
    Rng a, b, a2, b2;
    uint32_t va[1500], vb[1500];
    rng_seed(&a2, 0);
    rng_seed(&b2, 42);
    for (int i = 0; i < 1500; i++) va[i] = rng_genrand32(&a2);
    for (int i = 0; i < 1500; i++) vb[i] = rng_genrand32(&b2);
    rng_seed(&a, 0);
    rng_seed(&b, 42);
    for (int i = 0; i < 1500; i++) {
        CHECK_U64(rng_genrand32(&a), va[i]);
        CHECK_U64(rng_genrand32(&b), vb[i]);
        if (i % 7 == 0) { /* a third stream in between */
            Rng c;
            rng_seed(&c, (uint64_t)i);
            (void)rng_genrand32(&c);
        }
    }
    CHECK_U64(a.draws, 1500);
    CHECK_U64(b.draws, 1500);
    /* A copied struct is an independent stream that repeats the original. */
    Rng c = a;
    CHECK_U64(rng_genrand32(&c), rng_genrand32(&a));
}

TEST(randint_ranges)
{
    Rng r;
    rng_seed(&r, 3);
    for (int i = 0; i < 1000; i++) {
        int64_t v = rng_randint(&r, -3, 3);
        CHECK(v >= -3 && v <= 3);
    }
    rng_seed(&r, 3);
    CHECK_INT(rng_randint(&r, 9, 9), 9);
    CHECK(r.draws >= 1); /* width 1 still draws, like randbelow(1) */
}

TEST(lazy_refill_matches_textbook)
{
    /* right after seeding the state is stored whole: the textbook stream
     * starts from it; 2,000 outputs cross three generations */
    Rng r;
    RefMt m;
    rng_seed(&r, 20240601);
    memcpy(m.mt, r.mt, sizeof m.mt);
    m.mti = RNG_N;
    for (int i = 0; i < 2000; i++) {
        uint32_t want = ref_next(&m);
        if (rng_genrand32(&r) != want) {
            CHECK_U64(i, 2000); /* the first output that differs */
            break;
        }
    }
    CHECK_U64(r.draws, 2000);
}

TEST(reseed_and_copy_mid_refill)
{
    /* reseeding a stream whose generation is partly twisted gives the fresh
     * stream; a copy made mid-generation repeats the original */
    Rng a, b;
    rng_seed(&b, 5);
    uint32_t fresh[700];
    for (int i = 0; i < 700; i++) fresh[i] = rng_genrand32(&b);
    rng_seed(&a, 99);
    for (int i = 0; i < 37; i++) (void)rng_genrand32(&a);
    rng_seed(&a, 5);
    for (int i = 0; i < 700; i++) CHECK_U64(rng_genrand32(&a), fresh[i]);
    Rng c = a;
    for (int i = 0; i < 700; i++) CHECK_U64(rng_genrand32(&c), rng_genrand32(&a));
}

TEST(seed_mixed_known)
{
    static const struct {
        uint64_t n;
        uint32_t first, second, at623, at624, at1399;
    } known[] = {
        {0, 189719290u, 4032229626u, 3118827300u, 1872862261u, 971727327u},
        {1, 3972108997u, 1171991484u, 798871078u, 2383461271u, 2863797767u},
        {UINT64_MAX, 1382223331u, 3043212920u, 4066054633u, 2689036048u, 1628482788u},
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        Rng r;
        rng_seed_mixed(&r, known[k].n);
        CHECK_U64(r.draws, 0);
        uint32_t v[1400];
        for (int i = 0; i < 1400; i++) v[i] = rng_genrand32(&r);
        CHECK_U64(v[0], known[k].first);
        CHECK_U64(v[1], known[k].second);
        CHECK_U64(v[623], known[k].at623);
        CHECK_U64(v[624], known[k].at624);
        CHECK_U64(v[1399], known[k].at1399);
        CHECK_U64(r.draws, 1400);
    }
}

TEST(seed_mixed_matches_eager)
{
    /* every output of the lazy seeding equals the eager fill's, for seeds
     * spread over 64 bits; copies made at several points of the first
     * (lazy) generation go on as the original; reseeding mid-way restarts */
    static const uint64_t seeds[] = {2, 12345, 0x8000000000000000u, 0x0123456789abcdefu,
                                     UINT64_MAX - 1};
    static const int copy_at[] = {0, 1, 15, 16, 17, 226, 227, 396, 397, 623, 624};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        Rng r, copies[sizeof copy_at / sizeof copy_at[0]];
        RefMt m;
        rng_seed_mixed(&r, seeds[k]);
        ref_mixed(&m, seeds[k]);
        uint32_t want[1500];
        size_t nc = 0;
        for (int i = 0; i < 1500; i++) {
            if (nc < sizeof copy_at / sizeof copy_at[0] && copy_at[nc] == i) copies[nc++] = r;
            want[i] = ref_next(&m);
            if (rng_genrand32(&r) != want[i]) {
                CHECK_U64(i, 1500);
                break;
            }
        }
        for (size_t c = 0; c < nc; c++)
            for (int i = copy_at[c]; i < copy_at[c] + 700; i++)
                CHECK_U64(rng_genrand32(&copies[c]), want[i]);
        rng_seed_mixed(&r, seeds[k]);
        for (int i = 0; i < 30; i++) CHECK_U64(rng_genrand32(&r), want[i]);
        rng_seed(&r, 0); /* CPython's seeding ends the lazy state */
        CHECK(!r.lazy);
        CHECK_U64(rng_genrand32(&r), 3626764237u); /* rng.md §5 */
    }
}

/* ------------------------------------------------------------------------
 * The vector file
 * ------------------------------------------------------------------------ */

typedef struct VecRun {
    Rng r;
    int line;
    long values; /* values compared */
    char seed_text[800];
} VecRun;

/* Seeds from the text and, where the value fits, cross-checks the integer
 * seeding functions. */
static void vec_seed(VecRun *v, const char *text)
{
    CHECK_INT(rng_seed_decimal(&v->r, text), MB_OK);
    snprintf(v->seed_text, sizeof v->seed_text, "%s", text);
    CHECK_U64(v->r.draws, 0);
    bool ok = true;
    Rng s;
    if (text[0] == '-') {
        long long n = to_i64(text, &ok);
        if (ok) {
            rng_seed_i64(&s, n);
            CHECK(same_state(&s, &v->r));
        }
    } else {
        unsigned long long n = to_u64(text, &ok);
        if (ok) {
            rng_seed(&s, n);
            CHECK(same_state(&s, &v->r));
        }
    }
}

#define VEC_FAIL(v, fmt, ...)                                                                      \
    t_fail(__FILE__, __LINE__, "rng_vectors.txt:%d (seed %.40s): " fmt, (v)->line, (v)->seed_text, \
           __VA_ARGS__)

/* One data line split at " : ": kind, its parameters, and the values. */
typedef struct VecLine {
    const char *kind;
    char **par, **val;
    int npar, nval;
} VecLine;

/* random: doubles compared with ==, parsed by strtod from repr(). */
static bool vec_random(VecRun *v, const VecLine *l)
{
    for (int i = 0; i < l->nval; i++, v->values++) {
        char *end;
        double want = strtod(l->val[i], &end), got = rng_random(&v->r);
        if (*end) return false;
        if (got != want) VEC_FAIL(v, "random #%d = %.17g, want %s", i, got, l->val[i]);
    }
    return true;
}

/* randint A B: signed values. */
static bool vec_randint(VecRun *v, const VecLine *l)
{
    bool ok = l->npar == 2;
    long long a = ok ? to_i64(l->par[0], &ok) : 0;
    long long b = ok ? to_i64(l->par[1], &ok) : 0;
    for (int i = 0; ok && i < l->nval; i++, v->values++) {
        long long want = to_i64(l->val[i], &ok);
        long long got = rng_randint(&v->r, a, b);
        if (ok && got != want) VEC_FAIL(v, "randint #%d = %lld, want %lld", i, got, want);
    }
    return ok;
}

/* shuffle L: the whole line is one shuffle of 0..L-1. */
static bool vec_shuffle(VecRun *v, const VecLine *l)
{
    bool ok = l->npar == 1;
    int n = ok ? (int)to_u64(l->par[0], &ok) : 0;
    int x[64];
    if (!ok || n != l->nval || n > 64) return false;
    for (int j = 0; j < n; j++) x[j] = j;
    rng_shuffle_ints(&v->r, x, n);
    for (int j = 0; ok && j < n; j++, v->values++) {
        long long want = to_i64(l->val[j], &ok);
        if (ok && x[j] != want) VEC_FAIL(v, "shuffle[%d] = %d, want %lld", j, x[j], want);
    }
    return ok;
}

/* The unsigned kinds: one draw of the kind per value. Returns false on a
 * malformed line or an unknown kind. */
static bool vec_unsigned(VecRun *v, const VecLine *l)
{
    const char *k = l->kind;
    bool ok = true;
    for (int i = 0; ok && i < l->nval; i++, v->values++) {
        unsigned long long want = to_u64(l->val[i], &ok), got;
        unsigned long long p0 = l->npar > 0 ? to_u64(l->par[0], &ok) : 0;
        if (!strcmp(k, "genrand32") && l->npar == 0) {
            got = rng_genrand32(&v->r);
        } else if (!strcmp(k, "getrandbits") && l->npar == 1) {
            got = rng_getrandbits(&v->r, (int)p0);
        } else if (!strcmp(k, "randbelow") && l->npar == 1) {
            got = rng_randbelow(&v->r, p0);
        } else if (!strcmp(k, "choice") && l->npar == 1) {
            got = (unsigned long long)rng_choice_index(&v->r, (int)p0);
        } else if (!strcmp(k, "choiceseq") && l->npar == l->nval) {
            int n = (int)to_u64(l->par[i], &ok);
            got = (unsigned long long)rng_choice_index(&v->r, n);
        } else if (!strcmp(k, "choicecost") && l->npar == 1) {
            uint64_t before = v->r.draws;
            (void)rng_choice_index(&v->r, (int)p0);
            got = v->r.draws - before;
        } else {
            return false;
        }
        if (ok && got != want) VEC_FAIL(v, "%s #%d = %llu, want %llu", k, i, got, want);
    }
    return ok;
}

/* One data line: "kind [params] : draws values...". Checks every value,
 * then the draw count since the last seed line. */
static void vec_op(VecRun *v, char **tok, int ntok)
{
    int colon = 0;
    while (colon < ntok && strcmp(tok[colon], ":") != 0) colon++;
    if (colon + 1 >= ntok) {
        VEC_FAIL(v, "%s", "no ':' or no draw count");
        return;
    }
    VecLine l = {tok[0], tok + 1, tok + colon + 2, colon - 1, ntok - colon - 2};
    bool ok = true;
    unsigned long long want_draws = to_u64(tok[colon + 1], &ok);
    if (!strcmp(l.kind, "random"))
        ok = ok && vec_random(v, &l);
    else if (!strcmp(l.kind, "randint"))
        ok = ok && vec_randint(v, &l);
    else if (!strcmp(l.kind, "shuffle"))
        ok = ok && vec_shuffle(v, &l);
    else
        ok = ok && vec_unsigned(v, &l);
    if (!ok) {
        VEC_FAIL(v, "malformed line or unknown kind '%s'", l.kind);
        return;
    }
    if (v->r.draws != want_draws)
        VEC_FAIL(v, "draws = %llu, want %llu", (unsigned long long)v->r.draws, want_draws);
}

TEST(vectors)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/rng_vectors.txt", t_data_dir());
    char *text = read_text(path);
    if (!text) {
        t_fail(__FILE__, __LINE__, "cannot read %s", path);
        return;
    }

    size_t maxtok = 2;
    for (const char *p = text; *p; p++) maxtok += *p == ' ';
    char **tok = malloc(maxtok * sizeof *tok);
    VecRun *v = calloc(1, sizeof *v);
    int seeds = 0, ops = 0;
    if (!tok || !v) {
        t_fail(__FILE__, __LINE__, "%s", "out of memory");
        goto done;
    }

    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        v->line++;
        int ntok = 0;
        for (char *p = line; *p;) {
            while (*p == ' ') *p++ = '\0';
            if (!*p) break;
            tok[ntok++] = p;
            while (*p && *p != ' ') p++;
        }
        if (ntok > 0 && tok[0][0] != '#') {
            if (!strcmp(tok[0], "seed") && ntok == 2) {
                vec_seed(v, tok[1]);
                seeds++;
            } else if (seeds > 0) {
                vec_op(v, tok, ntok);
                ops++;
            } else {
                VEC_FAIL(v, "%s", "data before the first seed line");
            }
        }
        if (!nl) break;
        line = nl + 1;
    }
    /* Guard against a truncated or empty file passing silently. */
    CHECK(seeds >= 100);
    CHECK(ops >= 400);
    CHECK(v->values >= 30000);
    if (getenv("MB_TEST_VERBOSE"))
        printf("rng vectors: %d seeds, %d lines, %ld values\n", seeds, ops, v->values);
done:
    free(v);
    free(tok);
    free(text);
}

const TestCase rng_tests[] = {
    {"seed0_first_outputs", seed0_first_outputs},
    {"seed0_random", seed0_random},
    {"seed0_choice9", seed0_choice9},
    {"seed0_choice_shrinking", seed0_choice_shrinking},
    {"seed0_single_choice_draws", seed0_single_choice_draws},
    {"seed_multiword", seed_multiword},
    {"no_draw_cases", no_draw_cases},
    {"getrandbits_wide_layout", getrandbits_wide_layout},
    {"seed_words", seed_words},
    {"seed_signed", seed_signed},
    {"seed_decimal_agrees", seed_decimal_agrees},
    {"seed_decimal_bad", seed_decimal_bad},
    {"independent_streams", independent_streams},
    {"randint_ranges", randint_ranges},
    {"lazy_refill_matches_textbook", lazy_refill_matches_textbook},
    {"reseed_and_copy_mid_refill", reseed_and_copy_mid_refill},
    {"seed_mixed_known", seed_mixed_known},
    {"seed_mixed_matches_eager", seed_mixed_matches_eager},
    {"vectors", vectors},
    {0},
};
