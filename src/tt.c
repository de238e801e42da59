/* tt.c: the exact, unbounded transposition table (tt.h). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "mberror.h"

#define TT_MAX_KEYBYTES 256 /* (MB_MAX_CELLS + 3) / 4 */

void tt_init(TT *t) { memset(t, 0, sizeof *t); }

void tt_clear(TT *t) { t->count = 0; }

void tt_free(TT *t)
{
    free(t->index);
    free(t->dense);
    free(t->keys);
    tt_init(t);
}

size_t tt_count(const TT *t) { return t->count; }

static bool packed_mode(int ncells) { return ncells <= TT_PACKED_MAX_CELLS; }

/* Pack a key of n characters into 2 bits a square: '.' 0, 'o' 1, 'x' 2. */
static void pack_key(const char *key, int n, uint8_t *out, size_t nbytes)
{
    memset(out, 0, nbytes);
    for (int i = 0; i < n; i++) {
        unsigned c = tt_code(key[i]);
        out[i >> 2] = (uint8_t)(out[i >> 2] | c << ((i & 3) * 2));
    }
}

uint64_t tt_pack64(const char *key, int n)
{
    uint64_t k = 0;
    for (int i = 0; i < n; i++) k = tt_key_add(k, i, tt_code(key[i]));
    return k;
}

/* FNV-1a over the packed bytes, then a final mix. */
static uint64_t hash_bytes(const uint8_t *k, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h;
}

/* Fibonacci hashing of a packed word: the product's top bits. */
static size_t home64(const TT *t, uint64_t k)
{
    return (size_t)((k * 0x9e3779b97f4a7c15ull) >> t->shift);
}

/* Position in dense of the key using slot i, or -1 when the slot is free. */
static long slot_pos(const TT *t, size_t i)
{
    uint32_t p = t->index[i];
    return p < t->count && t->dense[p].slot == i ? (long)p : -1;
}

/* The slot holding k, or the free slot where it would go (packed mode);
 * *pos: its dense position or -1. */
static size_t find64(const TT *t, uint64_t k, long *pos)
{
    size_t mask = t->cap - 1, i = home64(t, k);
    long p;
    while ((p = slot_pos(t, i)) >= 0 && t->dense[p].key != k) i = (i + 1) & mask;
    *pos = p;
    return i;
}

/* The same for byte keys. */
static size_t find_bytes(const TT *t, const uint8_t *k, long *pos)
{
    size_t mask = t->cap - 1, i = (size_t)(hash_bytes(k, t->keybytes) >> t->shift);
    long p;
    while ((p = slot_pos(t, i)) >= 0 && memcmp(t->keys + (size_t)p * t->keybytes, k, t->keybytes) != 0)
        i = (i + 1) & mask;
    *pos = p;
    return i;
}

/* Double the slots (or make the first TT_INITIAL_SLOTS) until `need` keys
 * keep the table at most half full, then re-index the stored keys. */
static int grow(TT *t, size_t need)
{
    size_t ncap = t->cap ? t->cap : TT_INITIAL_SLOTS;
    while (need * 2 > ncap) ncap *= 2;
    bool packed = packed_mode(t->ncells);
    uint32_t *index = calloc(ncap, sizeof *index);
    TTSlot *dense = realloc(t->dense, ncap / 2 * sizeof *dense);
    if (dense) t->dense = dense;
    uint8_t *keys = packed ? NULL : realloc(t->keys, ncap / 2 * t->keybytes);
    if (keys) t->keys = keys;
    if (!index || !dense || (!packed && !keys)) {
        free(index);
        return MB_ENOMEM;
    }
    free(t->index);
    t->index = index;
    t->cap = ncap;
    t->shift = 64;
    for (size_t c = ncap; c > 1; c >>= 1) t->shift--;
    size_t n = t->count;
    t->count = 0;
    for (size_t p = 0; p < n; p++) { /* re-insert in order: slot_pos sees 0..p-1 */
        long q;
        size_t i = packed ? find64(t, t->dense[p].key, &q)
                          : find_bytes(t, t->keys + p * t->keybytes, &q);
        t->index[i] = (uint32_t)p;
        t->dense[p].slot = (uint32_t)i;
        t->count = p + 1;
    }
    return MB_OK;
}

/* Checks before storing `more` keys of n squares: the first key of an
 * empty table fixes the length (dropping memory of another layout), and
 * room is made. MB_OK, MB_EINVAL or MB_ENOMEM. */
static int prepare_store(TT *t, int n, size_t more)
{
    if (t->count == 0 && t->ncells != n) {
        if (n < 1 || (size_t)(n + 3) / 4 > TT_MAX_KEYBYTES) return MB_EINVAL;
        if (t->cap && ((size_t)(n + 3) / 4 != t->keybytes || packed_mode(n) != packed_mode(t->ncells)))
            tt_free(t);
        t->ncells = n;
        t->keybytes = (size_t)(n + 3) / 4;
    }
    if (n != t->ncells) return MB_EINVAL;
    if ((t->count + more) * 2 > t->cap) return grow(t, t->count + more);
    return MB_OK;
}

/* Put an entry at dense position p (or a new one when p < 0) for slot i;
 * the new one's key is set by the caller. Returns its position. */
static size_t put(TT *t, size_t i, long p, double lower, double upper, int move)
{
    size_t q = p >= 0 ? (size_t)p : t->count++;
    if (p < 0) {
        t->index[i] = (uint32_t)q;
        t->dense[q].slot = (uint32_t)i;
    }
    t->dense[q].lower = lower;
    t->dense[q].upper = upper;
    t->dense[q].move = move;
    return q;
}

static void get(const TT *t, long p, TTEntry *out)
{
    out->lower = t->dense[p].lower;
    out->upper = t->dense[p].upper;
    out->move = t->dense[p].move;
}

bool tt_probe_packed(const TT *t, int ncells, uint64_t key, TTEntry *out)
{
    if (t->count == 0 || ncells != t->ncells || !packed_mode(ncells)) return false;
    long p;
    find64(t, key, &p);
    if (p < 0) return false;
    get(t, p, out);
    return true;
}

int tt_store_packed_n(TT *t, int ncells, const uint64_t *keys, const int *moves, int n,
                      double lower, double upper)
{
    if (!packed_mode(ncells)) return MB_EINVAL;
    int rc = prepare_store(t, ncells, (size_t)n);
    if (rc) return rc;
    for (int j = 0; j < n; j++) {
        long p;
        size_t i = find64(t, keys[j], &p);
        t->dense[put(t, i, p, lower, upper, moves[j])].key = keys[j];
    }
    return MB_OK;
}

int tt_store_packed(TT *t, int ncells, uint64_t key, double lower, double upper, int move)
{
    return tt_store_packed_n(t, ncells, &key, &move, 1, lower, upper);
}

bool tt_probe(const TT *t, const char *key, TTEntry *out)
{
    if (t->count == 0 || (int)strlen(key) != t->ncells) return false;
    if (packed_mode(t->ncells)) return tt_probe_packed(t, t->ncells, tt_pack64(key, t->ncells), out);
    uint8_t k[TT_MAX_KEYBYTES];
    pack_key(key, t->ncells, k, t->keybytes);
    long p;
    find_bytes(t, k, &p);
    if (p < 0) return false;
    get(t, p, out);
    return true;
}

int tt_store(TT *t, const char *key, double lower, double upper, int move)
{
    int n = (int)strlen(key);
    if (packed_mode(n)) return tt_store_packed(t, n, tt_pack64(key, n), lower, upper, move);
    int rc = prepare_store(t, n, 1);
    if (rc) return rc;
    uint8_t k[TT_MAX_KEYBYTES];
    pack_key(key, n, k, t->keybytes);
    long p;
    size_t i = find_bytes(t, k, &p);
    size_t q = put(t, i, p, lower, upper, move);
    if (p < 0) memcpy(t->keys + q * t->keybytes, k, t->keybytes);
    return MB_OK;
}
