/* tt.h: the transposition table of the αβ search (spec search.md §3.2).
 *
 * The table maps a board key (board_to_str: ncells characters '.', 'o', 'x'
 * in move order) to an entry (lower bound, upper bound, best move). Keys are
 * stored packed, 2 bits a square ('.' 0, 'o' 1, 'x' 2; square i at bits
 * 2i, 2i+1) and compared in full, so the map is exact: every stored key is
 * found again and no two keys collide. Storing an existing key overwrites
 * it. The open-addressing hash table (linear probing) doubles whenever it
 * is half full, up to its limit (tt_set_limit: none by default, the
 * searches give theirs from their `hash` option). The bounds may be -inf /
 * +inf.
 *
 * The limit. Below it the table is exact, as above. A table whose next
 * doubling would pass it stops growing (its last growth goes from a
 * quarter of the limit to the whole, so that the old and new arrays
 * together hold at most 1.25 times the limit, for the rehash), and a key
 * that then finds no room replaces another: the slot at the key's home
 * and the one after it form its bucket, and the new entry takes the place
 * of the deeper of the two (the farther from the search's root, with less
 * search below it; the later slot on a tie), so that the entries near the
 * root stay while the deep ones, the many, replace each other. A new key
 * may also take a free slot of its bucket until three quarters of the
 * table are in use, and is dropped when its home slot is free past that
 * (nothing may leave a gap in a run of linear probing). A replacement only
 * loses an entry: every entry found is still an exact bound, so a search
 * stays correct and only searches more nodes. tt.full tells that it
 * happened since the last clear. The depth: a packed key's marks (its
 * bits set: the position's move count); a Zobrist key's entry keeps the
 * caller's (plies from the search's start, set when the key is stored
 * first: one position lies at one depth of a search, and a table holds one
 * search, the searches clearing it between theirs). Either orders a
 * table's entries alike.
 * A 3x3 table never comes near the smallest limit (5,478 positions,
 * 16,384 slots of 32 bytes at most), so it stays exact whatever the
 * limit: the series' node counts.
 *
 * Boards of at most TT_PACKED_MAX_CELLS squares (every board up to 5x5...
 * 4x8) keep their keys as one uint64_t; tt_probe_packed / tt_store_packed
 * take such a key directly (the search builds it without any string).
 * Each slot holds its key and entry together with the generation it was
 * written in; a slot is in use only when its generation is the table's, so
 * tt_clear (a new generation) is O(1) and keeps the memory, and a probe
 * reads one slot per step; the first store presizes TT_INITIAL_SLOTS
 * slots.
 *
 * The header also owns what every search does with the table: the packing
 * of keys (one definition of the layout, for the αβ search and for the
 * series' searchers alike) and the bound logic of a probe (the cut) and of
 * a store (which bound a result sets).
 *
 * And it owns the keys a search stores a position under: the position's
 * own key (tt_position_key) and the keys of its symmetric images
 * (TTImages: the images of every mark and move, a position's image keys
 * from scratch or a child's from its parent's, and the store of one result
 * under every image), for the αβ search and the series' searchers alike.
 *
 * A TT belongs to whoever embeds it (the Search struct, search.h); nothing
 * here is global. Uses mberror.h; its keys read games (game.h), their
 * symmetries (symmetry.h) and Zobrist values (zobrist.h). */
#ifndef MB_TT_H
#define MB_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>

#include "mberror.h"

#define TT_PACKED_MAX_CELLS 32   /* keys of one uint64_t: 2 bits a square */
#define TT_HASHED_KEYS      (-1) /* the key length of a table of Zobrist keys */
#define TT_INITIAL_SLOTS    8192 /* 3x3 depth 8 shared: 3,219 keys, no growth */
#define TT_MIN_LIMIT_SLOTS  1024 /* the smallest limit (tt_set_limit) */
#define TT_DEFAULT_HASH_MB  64   /* the searches' default limit (their `hash`) */

/* One entry: the bounds of a position's minimax value, and its best move. */
typedef struct TTEntry {
    double lower, upper;
    int move;
} TTEntry;

/* One slot: its packed word (packed mode), its entry, its depth (the
 * replacement's measure), and the generation it was written in (in use
 * when it is the table's). 32 bytes. */
typedef struct TTSlot {
    uint64_t key;
    double lower, upper;
    int16_t move;
    uint16_t depth; /* Zobrist keys only (a packed key holds its marks) */
    uint32_t gen;
} TTSlot;

typedef struct TT {
    int ncells;      /* key length in characters (0 until the first store) */
    size_t keybytes; /* packed key size: (ncells + 3) / 4 */
    size_t cap;      /* slots, a power of two (0: nothing allocated) */
    unsigned shift;  /* 64 - log2(cap): the hash's top bits pick the slot */
    size_t count;    /* keys stored (slots of the current generation) */
    uint32_t gen;    /* the current generation (>= 1) */
    size_t max_cap;  /* the limit in slots (a power of two), 0: none */
    bool full;       /* since the last clear, a key found no room (it
                        replaced another entry or was dropped) */
    TTSlot *slots;   /* cap slots */
    uint8_t *keys;   /* cap * keybytes byte keys (slot i's at i * keybytes),
                         for larger boards */
} TT;

/* ---- Life cycle ---- */

/* Make an empty table without a limit (allocates nothing until the first
 * store). */
void tt_init(TT *t);
/* Forget every entry, keeping the memory (O(1)). */
void tt_clear(TT *t);
/* Release the memory; the table is empty and usable again afterwards (its
 * limit kept). */
void tt_free(TT *t);
/* Limit the table to `bytes` (0: no limit): the largest power of two of
 * slots that fits, at least TT_MIN_LIMIT_SLOTS. A table already larger is
 * freed (call this between searches). */
void tt_set_limit(TT *t, size_t bytes);
/* The bytes a table of `cap` slots holds. */
size_t tt_bytes(const TT *t, size_t cap);

/* ---- Access ---- */

/* Look up a board key (ncells characters, NUL-terminated). True and *out
 * filled when it is stored; false otherwise (*out untouched). */
bool tt_probe(const TT *t, const char *key, TTEntry *out);
/* Store (lower, upper, move) under key, overwriting any previous entry
 * (depth 0; at the limit, a new key is dropped). MB_OK, MB_ENOMEM (table
 * unchanged) or MB_EINVAL (a key of another length than the keys already
 * stored). */
int tt_store(TT *t, const char *key, double lower, double upper, int move);
/* Number of keys stored. */
size_t tt_count(const TT *t);
/* The slots t will have once `more` new keys are stored: t->cap, or the
 * larger size it grows to (every key rehashed: time spent in one store),
 * never past the limit. */
size_t tt_cap_for(const TT *t, size_t more);

/* ---- Packed keys (ncells <= TT_PACKED_MAX_CELLS) ---- */

/* tt_probe of the key of ncells squares packed in `key` (the layout above);
 * false when the table holds keys of another length. Inline (below): the
 * searches probe once a node. */
static inline bool tt_probe_packed(const TT *t, int ncells, uint64_t key, TTEntry *out);
/* tt_store of a packed key of ncells squares; same results as tt_store
 * (depth 0). */
int tt_store_packed(TT *t, int ncells, uint64_t key, double lower, double upper, int move);
/* tt_store_packed of keys[0 .. n-1] in turn, with moves[i] for keys[i]
 * (the symmetric images of one position: a later equal key overwrites),
 * at `depth` (0..65535: plies from the search's start, the smaller kept
 * first at the limit). */
int tt_store_packed_n(TT *t, int ncells, const uint64_t *keys, const int *moves, int n,
                      double lower, double upper, int depth);

/* ---- Zobrist keys (any board) ----
 * A table may instead hold 64-bit Zobrist keys (zobrist.h) of boards of any
 * size: pass TT_HASHED_KEYS as ncells to tt_probe_packed and
 * tt_store_packed(_n). Such a table is exact up to the keys' collisions
 * (about 2^-64 per pair of positions); the string functions do not find
 * its keys. tt_key_cells gives what the searches pass: packed keys up to
 * TT_PACKED_MAX_CELLS squares (the series' exact keys, whose node counts
 * are asserted), Zobrist keys beyond. */
static inline int tt_key_cells(int ncells)
{
    return ncells <= TT_PACKED_MAX_CELLS ? ncells : TT_HASHED_KEYS;
}

/* ---- Packing keys (the layout above) ---- */

/* The 2-bit code of a key character: '.' 0, 'o' 1, 'x' 2, which are also
 * the values of the marks MARK_EMPTY, MARK_O, MARK_X. */
static inline unsigned tt_code(char c) { return c == 'o' ? 1u : c == 'x' ? 2u : 0u; }
/* A packed key with mark code `code` added on square sq (empty before). */
static inline uint64_t tt_key_add(uint64_t key, int sq, unsigned code)
{
    return key | (uint64_t)code << (2 * sq);
}
/* The packed word of a board key of n <= TT_PACKED_MAX_CELLS characters. */
uint64_t tt_pack64(const char *key, int n);

/* ---- Slots of one-word keys (packed or Zobrist), inline ---- */

/* Fibonacci hashing of a one-word key: the product's top bits. */
static inline size_t tt_home(uint64_t key, unsigned shift)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> shift);
}
/* The slot of `slots` (cap = mask + 1, hashed by shift, generation gen)
 * holding key, or the free slot where it would go: in use (slots[i].gen ==
 * gen) exactly when the key is there. The arguments are copies of the
 * table's fields, so that a loop of stores keeps them in registers. */
static inline size_t tt_slot64(const TTSlot *slots, size_t mask, unsigned shift, uint32_t gen,
                               uint64_t key)
{
    size_t i = tt_home(key, shift);
    while (slots[i].gen == gen && slots[i].key != key) i = (i + 1) & mask;
    return i;
}

static inline bool tt_probe_packed(const TT *t, int ncells, uint64_t key, TTEntry *out)
{
    if (t->count == 0 || ncells != t->ncells || ncells > TT_PACKED_MAX_CELLS) return false;
    const TTSlot *sl = t->slots + tt_slot64(t->slots, t->cap - 1, t->shift, t->gen, key);
    if (sl->gen != t->gen) return false;
    out->lower = sl->lower;
    out->upper = sl->upper;
    out->move = sl->move;
    return true;
}

#if defined(__GNUC__)
#define TT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TT_ALWAYS_INLINE inline
#endif

/* The loop of tt_store_room_n over the table's fields (in locals: the
 * slots' words may alias them); returns the new count. A packed table
 * keeps no depth (tt_depth reads it off the key); with_depth, a table of
 * Zobrist keys, writes it with each new key. */
static TT_ALWAYS_INLINE size_t tt_put_n(TTSlot *slots, size_t mask, unsigned shift, uint32_t gen,
                                        size_t count, const uint64_t *keys, const int *moves, int n,
                                        double lower, double upper, int depth, bool with_depth)
{
    for (int j = 0; j < n; j++) {
        TTSlot *sl = slots + tt_slot64(slots, mask, shift, gen, keys[j]);
        if (sl->gen != gen) { /* a new key; a key's depth does not change */
            count++;
            sl->gen = gen;
            sl->key = keys[j];
            if (with_depth) sl->depth = (uint16_t)depth;
        }
        sl->lower = lower;
        sl->upper = upper;
        sl->move = (int16_t)moves[j];
    }
    return count;
}

/* tt_store_packed_n inline while the table has room for n more keys of its
 * own length (true: stored; the searches' usual case); false, with nothing
 * stored, where tt_store_packed_n must be called (the first key, a growth,
 * another length, a table at its limit). */
static inline bool tt_store_room_n(TT *t, int ncells, const uint64_t *keys, const int *moves, int n,
                                   double lower, double upper, int depth)
{
    if (ncells != t->ncells || ncells > TT_PACKED_MAX_CELLS || (t->count + (size_t)n) * 2 > t->cap)
        return false;
    if (ncells == TT_HASHED_KEYS)
        t->count = tt_put_n(t->slots, t->cap - 1, t->shift, t->gen, t->count, keys, moves, n, lower,
                            upper, depth, true);
    else
        t->count = tt_put_n(t->slots, t->cap - 1, t->shift, t->gen, t->count, keys, moves, n, lower,
                            upper, depth, false);
    return true;
}

/* ---- A position's keys: its own and its symmetric images ---- */

struct Game;
struct Geometry;

/* The key of g's position (its own image) as the searches store it:
 * packed up to TT_PACKED_MAX_CELLS squares, Zobrist beyond (tt_key_cells). */
uint64_t tt_position_key(const struct Game *g);

/* The symmetric images of a shape, for the keys of a position's images
 * (the shape's symmetries in table order, symmetry.h: image 0 is the
 * position itself). Built once per shape; a search's nodes then keep
 * their images' keys by XOR, one word an image. */
typedef struct TTImages {
    int width, height, ncells, nsym; /* the shape built for */
    int key_cells;                   /* tt_key_cells(ncells): what the table is given */
    int *move;                       /* ncells * nsym: move m's image in image i at
                          move[m*nsym + i] (a stored best move's images) */
    uint64_t *add;                   /* mark c (1 or 2) on square m, as it reads in image
                          i's key, at add[(m*2 + c-1)*nsym + i]; a child's
                          keys are its parent's XOR its move's row */
} TTImages;

/* Build im for the shape geo; MB_OK or MB_ENOMEM (im then empty). The
 * images depend on the width and height alone. */
int tt_images_init(TTImages *im, const struct Geometry *geo);
void tt_images_free(TTImages *im);
/* The keys of g's position's images into keys[0 .. im->nsym - 1]. */
void tt_images_keys(const TTImages *im, const struct Game *g, uint64_t *keys);
/* The values a move m by `mark` (1 or 2) adds to each image's key. */
static inline const uint64_t *tt_images_add(const TTImages *im, int m, unsigned mark)
{
    return im->add + (m * 2 + (int)mark - 1) * im->nsym;
}
/* The images of move m, one per image (MOVE_NONE has none: pass NULL). */
static inline const int *tt_images_move(const TTImages *im, int m)
{
    return im->move + (size_t)m * (size_t)im->nsym;
}
/* Store (lower, upper) and the moves (a best move's images,
 * tt_images_move, or one "no move" per image) under every image key (keys
 * as tt_images_keys gives them), in table order, so that the last image
 * yielding a key decides its move: tt_store_packed_n's result (MB_OK or
 * MB_ENOMEM), inline while the table has room. */
static inline __attribute__((always_inline)) int tt_store_images(TT *t, const TTImages *im,
                                                                 const uint64_t *keys,
                                                                 const int *moves, double lower,
                                                                 double upper, int depth)
{
    if (tt_store_room_n(t, im->key_cells, keys, moves, im->nsym, lower, upper, depth)) return MB_OK;
    return tt_store_packed_n(t, im->key_cells, keys, moves, im->nsym, lower, upper, depth);
}

/* ---- Bounds: the probe's cut and the store's rule ---- */

/* The verdict of a probed entry (lower, upper) for the window (*alpha,
 * *beta): true with *value when the entry settles the node (an exact value,
 * an upper bound <= alpha, a lower bound >= beta); otherwise false with the
 * window narrowed to the entry's bounds. */
static inline bool tt_cut(double lower, double upper, double *alpha, double *beta, double *value)
{
    if (lower == upper) {
        *value = lower;
        return true;
    }
    if (upper <= *alpha) {
        *value = upper;
        return true;
    }
    if (*beta <= lower) {
        *value = lower;
        return true;
    }
    if (lower > *alpha) *alpha = lower;
    if (upper < *beta) *beta = upper;
    return false;
}

/* The bounds to store after a fail-soft search returned v for the window
 * (alpha0, beta0) taken after the probe (the series' STORE3): fail low sets
 * the upper bound, fail high the lower one, an exact value both; the other
 * bound keeps what *lower / *upper held (the probed entry or the default). */
static inline void tt_bounds_after(double v, double alpha0, double beta0, double *lower,
                                   double *upper)
{
    if (v <= alpha0)
        *upper = v;
    else if (v < beta0)
        *lower = *upper = v;
    else
        *lower = v;
}

/* The same without keeping anything (ai_abs_tt2's STORE2): the bound not
 * set by v is opened to -inf or +inf. */
static inline void tt_bounds_fresh(double v, double alpha0, double beta0, double *lower,
                                   double *upper)
{
    *lower = -HUGE_VAL;
    *upper = HUGE_VAL;
    tt_bounds_after(v, alpha0, beta0, lower, upper);
}

#endif
