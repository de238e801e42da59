/* tt.c: the exact, unbounded transposition table (tt.h). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "mberror.h"

#define TT_MAX_KEYBYTES 256 /* (MB_MAX_CELLS + 3) / 4 */

void tt_init(TT *t) { memset(t, 0, sizeof *t); }

void tt_clear(TT *t)
{
    if (t->used) memset(t->used, 0, t->cap);
    t->count = 0;
}

void tt_free(TT *t)
{
    free(t->used);
    free(t->keys);
    free(t->entries);
    tt_init(t);
}

size_t tt_count(const TT *t) { return t->count; }

/* Pack a key of n characters into 2 bits a square: '.' 0, 'o' 1, 'x' 2. */
static void pack_key(const char *key, int n, uint8_t *out, size_t nbytes)
{
    memset(out, 0, nbytes);
    for (int i = 0; i < n; i++) {
        unsigned c = key[i] == 'o' ? 1u : key[i] == 'x' ? 2u : 0u;
        out[i >> 2] = (uint8_t)(out[i >> 2] | c << ((i & 3) * 2));
    }
}

/* FNV-1a over the packed bytes, then a final mix for the low bits. */
static size_t hash_key(const uint8_t *k, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (size_t)h;
}

/* The slot holding k, or the empty slot where it would go. */
static size_t find_slot(const TT *t, const uint8_t *k)
{
    size_t mask = t->cap - 1, i = hash_key(k, t->keybytes) & mask;
    while (t->used[i] && memcmp(t->keys + i * t->keybytes, k, t->keybytes) != 0)
        i = (i + 1) & mask;
    return i;
}

bool tt_probe(const TT *t, const char *key, TTEntry *out)
{
    if (t->count == 0 || (int)strlen(key) != t->ncells) return false;
    uint8_t k[TT_MAX_KEYBYTES];
    pack_key(key, t->ncells, k, t->keybytes);
    size_t i = find_slot(t, k);
    if (!t->used[i]) return false;
    *out = t->entries[i];
    return true;
}

/* Double the slots (or make the first 64), re-inserting every key. */
static int grow(TT *t)
{
    size_t ncap = t->cap ? t->cap * 2 : 64;
    TT n = *t;
    n.cap = ncap;
    n.used = calloc(ncap, 1);
    n.keys = malloc(ncap * t->keybytes);
    n.entries = malloc(ncap * sizeof *n.entries);
    if (!n.used || !n.keys || !n.entries) {
        free(n.used);
        free(n.keys);
        free(n.entries);
        return MB_ENOMEM;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i]) continue;
        size_t j = find_slot(&n, t->keys + i * t->keybytes);
        n.used[j] = 1;
        memcpy(n.keys + j * t->keybytes, t->keys + i * t->keybytes, t->keybytes);
        n.entries[j] = t->entries[i];
    }
    free(t->used);
    free(t->keys);
    free(t->entries);
    *t = n;
    return MB_OK;
}

int tt_store(TT *t, const char *key, double lower, double upper, int move)
{
    int n = (int)strlen(key);
    if (t->count == 0 && t->ncells != n) {
        if (n < 1 || (size_t)(n + 3) / 4 > TT_MAX_KEYBYTES) return MB_EINVAL;
        if (t->cap && (size_t)(n + 3) / 4 != t->keybytes) tt_free(t);
        t->ncells = n;
        t->keybytes = (size_t)(n + 3) / 4;
    }
    if (n != t->ncells) return MB_EINVAL;
    if ((t->count + 1) * 2 > t->cap) {
        int rc = grow(t);
        if (rc) return rc;
    }
    uint8_t k[TT_MAX_KEYBYTES];
    pack_key(key, n, k, t->keybytes);
    size_t i = find_slot(t, k);
    if (!t->used[i]) {
        t->used[i] = 1;
        memcpy(t->keys + i * t->keybytes, k, t->keybytes);
        t->count++;
    }
    t->entries[i] = (TTEntry){lower, upper, move};
    return MB_OK;
}
