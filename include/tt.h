/* tt.h: the transposition table of the αβ search (spec search.md §3.2).
 *
 * The table maps a board key (board_to_str: ncells characters '.', 'o', 'x'
 * in move order) to an entry (lower bound, upper bound, best move). Keys are
 * stored packed, 2 bits a square, and compared in full, so the map is exact:
 * every stored key is found again and no two keys collide. There is no depth
 * field and no replacement policy; storing an existing key overwrites it.
 * The size is unbounded: the open-addressing hash table (linear probing)
 * doubles whenever it is half full. The bounds may be -inf / +inf.
 *
 * A TT belongs to whoever embeds it (the Search struct, search.h); nothing
 * here is global. Uses only the C library and mberror.h. */
#ifndef MB_TT_H
#define MB_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One entry: the bounds of a position's minimax value, and its best move. */
typedef struct TTEntry {
    double lower, upper;
    int move;
} TTEntry;

typedef struct TT {
    int ncells;       /* key length in characters (0 until the first store) */
    size_t keybytes;  /* packed key size: (ncells + 3) / 4 */
    size_t cap;       /* slots, a power of two (0: nothing allocated) */
    size_t count;     /* keys stored */
    uint8_t *used;    /* cap flags */
    uint8_t *keys;    /* cap * keybytes packed keys */
    TTEntry *entries; /* cap entries */
} TT;

/* ---- Life cycle ---- */

/* Make an empty table (allocates nothing until the first store). */
void tt_init(TT *t);
/* Forget every entry, keeping the memory. */
void tt_clear(TT *t);
/* Release the memory; the table is empty and usable again afterwards. */
void tt_free(TT *t);

/* ---- Access ---- */

/* Look up a board key (ncells characters, NUL-terminated). True and *out
 * filled when it is stored; false otherwise (*out untouched). */
bool tt_probe(const TT *t, const char *key, TTEntry *out);
/* Store (lower, upper, move) under key, overwriting any previous entry.
 * MB_OK, MB_ENOMEM (table unchanged) or MB_EINVAL (a key of another length
 * than the keys already stored). */
int tt_store(TT *t, const char *key, double lower, double upper, int move);
/* Number of keys stored. */
size_t tt_count(const TT *t);

#endif
