/* tt.c: the transposition table (tt.h): exact below its limit, with
 * bucket replacement at it. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "mberror.h"
#include "symmetry.h"
#include "zobrist.h"

#define TT_MAX_KEYBYTES 256 /* (MB_MAX_CELLS + 3) / 4 */

void tt_init(TT *t)
{
    memset(t, 0, sizeof *t);
    t->gen = 1;
}

void tt_clear(TT *t)
{
    t->count = 0;
    t->full = false;
    if (++t->gen == 0) { /* after 2^32 clears: forget the old stamps */
        if (t->slots) memset(t->slots, 0, t->cap * sizeof *t->slots);
        t->gen = 1;
    }
}

void tt_free(TT *t)
{
    size_t max_cap = t->max_cap;
    free(t->slots);
    free(t->keys);
    tt_init(t);
    t->max_cap = max_cap;
}

void tt_set_limit(TT *t, size_t bytes)
{
    size_t cap = 0;
    if (bytes) {
        cap = TT_MIN_LIMIT_SLOTS;
        while (cap * 2 * sizeof(TTSlot) <= bytes && cap < ((size_t)1 << 40)) cap *= 2;
    }
    if (cap && t->cap > cap) tt_free(t);
    t->max_cap = cap;
}

size_t tt_bytes(const TT *t, size_t cap)
{
    return cap * (sizeof(TTSlot) + (t->ncells > TT_PACKED_MAX_CELLS ? t->keybytes : 0));
}

size_t tt_count(const TT *t) { return t->count; }

/* The first size: TT_INITIAL_SLOTS, or the limit when smaller. */
static size_t first_cap(const TT *t)
{
    return t->max_cap && t->max_cap < TT_INITIAL_SLOTS ? t->max_cap : TT_INITIAL_SLOTS;
}

size_t tt_cap_for(const TT *t, size_t more)
{
    size_t need = t->count + more;
    if (need * 2 <= t->cap) return t->cap;
    if (t->max_cap && t->cap >= t->max_cap) return t->cap;
    size_t ncap = t->cap ? t->cap * 2 : first_cap(t);
    while (need * 2 > ncap) ncap *= 2;
    /* the last growth goes from a quarter of the limit to all of it */
    if (t->max_cap && ncap * 2 >= t->max_cap) ncap = t->max_cap;
    return ncap;
}

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

/* The slot holding k, or the free slot where it would go (packed mode);
 * *found: whether it holds k. */
static inline size_t find64(const TT *t, uint64_t k, bool *found)
{
    size_t i = tt_slot64(t->slots, t->cap - 1, t->shift, t->gen, k);
    *found = t->slots[i].gen == t->gen;
    return i;
}

/* The same for byte keys. */
static size_t find_bytes(const TT *t, const uint8_t *k, bool *found)
{
    size_t mask = t->cap - 1, i = (size_t)(hash_bytes(k, t->keybytes) >> t->shift);
    while (t->slots[i].gen == t->gen) {
        if (memcmp(t->keys + i * t->keybytes, k, t->keybytes) == 0) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
    *found = false;
    return i;
}

/* Grow to tt_cap_for's size for `more` new keys (at most the limit), then
 * move the stored keys over. On failure the table is unchanged. */
static int grow(TT *t, size_t more)
{
    size_t ncap = tt_cap_for(t, more);
    bool packed = packed_mode(t->ncells);
    TTSlot *slots = calloc(ncap, sizeof *slots);
    uint8_t *keys = packed ? NULL : malloc(ncap * t->keybytes);
    if (!slots || (!packed && !keys)) {
        free(slots);
        free(keys);
        return MB_ENOMEM;
    }
    TT old = *t;
    t->slots = slots;
    t->keys = keys;
    t->cap = ncap;
    t->shift = 64;
    for (size_t c = ncap; c > 1; c >>= 1) t->shift--;
    for (size_t j = 0; j < old.cap; j++) {
        if (old.slots[j].gen != old.gen) continue;
        bool found;
        size_t i = packed ? find64(t, old.slots[j].key, &found)
                          : find_bytes(t, old.keys + j * old.keybytes, &found);
        t->slots[i] = old.slots[j];
        if (!packed) memcpy(t->keys + i * t->keybytes, old.keys + j * old.keybytes, t->keybytes);
    }
    free(old.slots);
    free(old.keys);
    return MB_OK;
}

/* Checks before storing `more` keys of n squares: the first key of an
 * empty table fixes the length (dropping memory of another layout), and
 * room is made, as far as the limit allows (the caller then checks the
 * room: at the limit there may be none). MB_OK, MB_EINVAL or MB_ENOMEM. */
static int prepare_store(TT *t, int n, size_t more)
{
    if (t->count == 0 && t->ncells != n) {
        /* Zobrist keys take one word each, as packed keys do */
        if (n != TT_HASHED_KEYS && (n < 1 || (size_t)(n + 3) / 4 > TT_MAX_KEYBYTES))
            return MB_EINVAL;
        if (t->cap &&
            ((size_t)(n + 3) / 4 != t->keybytes || packed_mode(n) != packed_mode(t->ncells)))
            tt_free(t);
        t->ncells = n;
        t->keybytes = n == TT_HASHED_KEYS ? sizeof(uint64_t) : (size_t)(n + 3) / 4;
    }
    if (n != t->ncells) return MB_EINVAL;
    if (tt_cap_for(t, more) != t->cap) return grow(t, more);
    return MB_OK;
}

/* Write an entry into slot i (a new key when !found: counted, stamped;
 * the caller sets its key). */
static inline void put(TT *t, size_t i, bool found, double lower, double upper, int move)
{
    TTSlot *sl = &t->slots[i];
    if (!found) {
        t->count++;
        sl->gen = t->gen;
    }
    sl->lower = lower;
    sl->upper = upper;
    sl->move = (int16_t)move;
    sl->depth = 0;
}

static inline void get(const TT *t, size_t i, TTEntry *out)
{
    out->lower = t->slots[i].lower;
    out->upper = t->slots[i].upper;
    out->move = t->slots[i].move;
}

/* Write an entry into slot sl (its key included). */
static inline void set_slot(TTSlot *sl, uint32_t gen, uint64_t key, double lower, double upper,
                            int move, int depth)
{
    sl->gen = gen;
    sl->key = key;
    sl->lower = lower;
    sl->upper = upper;
    sl->move = (int16_t)move;
    sl->depth = (uint16_t)depth;
}

/* Store one one-word key in a table at its limit (tt.h, "The limit"):
 * its own slot, a free slot of its bucket while a quarter of the table is
 * left, else in place of the deeper entry of its bucket; dropped when its
 * home slot is free (a key there would leave a gap). */
static void store_at_limit(TT *t, uint64_t key, int move, double lower, double upper, int depth)
{
    size_t mask = t->cap - 1, home = tt_home(key, t->shift), next = (home + 1) & mask;
    size_t i = tt_slot64(t->slots, mask, t->shift, t->gen, key);
    TTSlot *sl = &t->slots[i], *a = &t->slots[home], *b = &t->slots[next];
    if (sl->gen == t->gen) { /* the key is there */
        set_slot(sl, t->gen, key, lower, upper, move, sl->depth);
        return;
    }
    t->full = true;
    if ((i == home || i == next) && t->count < t->cap / 4 * 3) {
        set_slot(sl, t->gen, key, lower, upper, move, depth);
        t->count++;
        return;
    }
    if (a->gen != t->gen) return; /* home free, no room: dropped */
    TTSlot *victim = a;
    if (b->gen == t->gen) { /* keep the entry nearer the root */
        bool packed = t->ncells != TT_HASHED_KEYS;
        int da = packed ? __builtin_popcountll(a->key) : a->depth;
        int db = packed ? __builtin_popcountll(b->key) : b->depth;
        if (db >= da) victim = b;
    }
    set_slot(victim, t->gen, key, lower, upper, move, depth);
}

int tt_store_packed_n(TT *t, int ncells, const uint64_t *keys, const int *moves, int n,
                      double lower, double upper, int depth)
{
    if (!packed_mode(ncells)) return MB_EINVAL;
    if (depth < 0) depth = 0;
    if (depth > UINT16_MAX) depth = UINT16_MAX;
    if (tt_store_room_n(t, ncells, keys, moves, n, lower, upper, depth)) return MB_OK;
    int rc = prepare_store(t, ncells, (size_t)n);
    if (rc) return rc;
    if (tt_store_room_n(t, ncells, keys, moves, n, lower, upper, depth)) return MB_OK;
    for (int j = 0; j < n; j++) store_at_limit(t, keys[j], moves[j], lower, upper, depth);
    return MB_OK;
}

int tt_store_packed(TT *t, int ncells, uint64_t key, double lower, double upper, int move)
{
    return tt_store_packed_n(t, ncells, &key, &move, 1, lower, upper, 0);
}

bool tt_probe(const TT *t, const char *key, TTEntry *out)
{
    if (t->count == 0 || (int)strlen(key) != t->ncells) return false;
    if (packed_mode(t->ncells))
        return tt_probe_packed(t, t->ncells, tt_pack64(key, t->ncells), out);
    uint8_t k[TT_MAX_KEYBYTES];
    pack_key(key, t->ncells, k, t->keybytes);
    bool found;
    size_t i = find_bytes(t, k, &found);
    if (!found) return false;
    get(t, i, out);
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
    bool found;
    size_t i = find_bytes(t, k, &found);
    if (!found && (t->count + 1) * 2 > t->cap) { /* at the limit: dropped */
        t->full = true;
        return MB_OK;
    }
    put(t, i, found, lower, upper, move);
    if (!found) memcpy(t->keys + i * t->keybytes, k, t->keybytes);
    return MB_OK;
}

/* ---- A position's keys: its own and its symmetric images ---- */

/* What mark c on square m adds to a key of a board of n squares. */
static uint64_t mark_value(int n, int m, unsigned c)
{
    return n <= TT_PACKED_MAX_CELLS ? tt_key_add(0, m, c) : zobrist_value(m, c);
}

uint64_t tt_position_key(const Game *g)
{
    int n = game_geom(g)->ncells;
    uint64_t key = 0;
    for (int m = 0; m < n; m++) {
        unsigned c = game_get(g, m); /* the mark is its code */
        if (c) key ^= mark_value(n, m, c);
    }
    return key;
}

int tt_images_init(TTImages *im, const Geometry *geo)
{
    memset(im, 0, sizeof *im);
    int ids[SYM_COUNT];
    int n = geo->ncells, nsym = symmetry_list(geo, ids);
    size_t cells = (size_t)nsym * (size_t)n;
    im->move = malloc(cells * sizeof *im->move);
    im->add = calloc(2 * cells, sizeof *im->add);
    if (!im->move || !im->add) {
        tt_images_free(im);
        return MB_ENOMEM;
    }
    im->ncells = n;
    im->nsym = nsym;
    im->key_cells = tt_key_cells(n);
    im->width = geo->width;
    im->height = geo->height;
    for (int i = 0; i < nsym; i++)
        for (int m = 0; m < n; m++) {
            /* image i's square m reads square src of the position */
            int sx, sy;
            symmetry_source(geo, ids[i], geo->x_of[m], geo->y_of[m], &sx, &sy);
            int src = geometry_xy_to_move(geo, sx, sy);
            im->move[m * nsym + i] = symmetry_move(geo, ids[i], m);
            if (src >= 0 && src < n)
                for (unsigned c = 1; c <= 2; c++)
                    im->add[(src * 2 + (int)c - 1) * nsym + i] = mark_value(n, m, c);
        }
    return MB_OK;
}

void tt_images_free(TTImages *im)
{
    free(im->move);
    free(im->add);
    memset(im, 0, sizeof *im);
}

void tt_images_keys(const TTImages *im, const Game *g, uint64_t *keys)
{
    for (int i = 0; i < im->nsym; i++) keys[i] = 0;
    for (int m = 0; m < im->ncells; m++) {
        unsigned c = game_get(g, m);
        if (!c) continue;
        const uint64_t *add = tt_images_add(im, m, c);
        for (int i = 0; i < im->nsym; i++) keys[i] ^= add[i];
    }
}
