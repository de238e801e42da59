/* searchers.h: the series' full-depth searchers (spec ais.md §6, §7.1–7.4).
 *
 * Every searcher computes the o-view game value (〇 maximises, × minimises)
 * of a position by searching to the end of the game, counting one node at
 * EVERY entry of its recursive search (terminal nodes, table hits, and in
 * ai_scout every test and re-search). Terminal values are plain (+1 / -1 /
 * 0) or, with shortest_victory, (11 - move_count) / 2 for a 〇 win and
 * (move_count - 10) / 2 for a × win (§2.4). Children come in legal order.
 *
 * The §6 evaluators (ai_mmdfs ... ai_nws_3score_tt) use a fresh table per
 * call; the §7 ones (ai_mmdfs_all, ai_abs_all, ai_scout, ai_mtdf) keep their
 * table across calls until the caller clears it (searcher_clear), which is
 * how ai_by_mmscore shares one table among the root children.
 *
 * Tables: the exact-value ones (ai_mmdfs_tt, ai_mmdfs_all, ai_abs_tt, whose
 * key is board key + α + β) live in a small exact map of this module; the
 * bound ones (ai_abs_tt2/3/4, ai_nws_3score_tt, ai_abs_all, ai_scout,
 * ai_mtdf) in a TT of tt.h (lower, upper). Stores go under every symmetric
 * key (symmetry.h). Keys are packed 2 bits a square, so boards of at most
 * TT_PACKED_MAX_CELLS squares; the terminal scale of shortest_victory is
 * the series' 3x3 one. All state is in one Searcher struct; nothing global.
 * The game is searched in place (game_move / game_unmove) and left as found,
 * its record included (a replayed future too: game_mark / game_rewind).
 * Uses game.h, symmetry.h, tt.h. */
#ifndef MB_SEARCHERS_H
#define MB_SEARCHERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "geometry.h"
#include "tt.h"

typedef enum SearcherId {
    SR_MMDFS,         /* §6 plain minimax */
    SR_MMDFS_TT,      /* §6 minimax + exact table, fresh per call */
    SR_ABS,           /* §6 fail-hard αβ, (-inf, +inf) */
    SR_ABS2,          /* §6 fail-soft αβ, (-inf, +inf) */
    SR_ABS3,          /* §6 fail-soft αβ, (-1, 1) */
    SR_ABS_TT,        /* §6 fail-hard αβ + table keyed by (key, α, β) */
    SR_ABS_TT2,       /* §6 bound table, STORE2 */
    SR_ABS_TT3,       /* §6 bound table, STORE3, miss (-inf, +inf) */
    SR_ABS_TT4,       /* §6 bound table, STORE3, miss and root (min, max) */
    SR_NWS_3SCORE,    /* §6 fail-soft, strict cuts, root (0, 0) */
    SR_NWS_3SCORE2,   /* §6 fail-soft αβ, root (-0.5, 0.5) */
    SR_NWS_3SCORE_TT, /* §6 bound table, miss (-1, 1), root (-0.05, 0.05) */
    SR_MMDFS_ALL,     /* §7.1 minimax, optional exact table (use_tt) */
    SR_ABS_ALL,       /* §7.2 fail-soft αβ, optional bound table */
    SR_SCOUT,         /* §7.3 scout, window width 1 */
    SR_MTDF,          /* §7.4 MTD(f) over ai_abs_all's inner search */
    SR_COUNT
} SearcherId;

/* Move ordering of ai_abs_all / ai_scout / ai_mtdf (§7.2): none (legal
 * order), or ai_for_mo = ai14s with sort_allnodes true (children sorted by
 * their ai14s score, mover-view, descending, stable) or false (ai14s's
 * first best move swapped with the first legal move). */
typedef enum SearcherOrder {
    SR_ORDER_NONE = 0,
    SR_ORDER_AI14S_SORT,
    SR_ORDER_AI14S_SWAP
} SearcherOrder;

/* Options; each searcher reads only those the series gives it. */
typedef struct SearcherOpts {
    bool shortest_victory; /* ai_mmdfs_tt, ai_abs_tt*, §7 */
    bool use_tt;           /* §7 */
    bool init_ab;          /* ai_abs_all, ai_scout, ai_mtdf */
    SearcherOrder order;   /* ai_abs_all, ai_scout, ai_mtdf */
    int candidates;        /* every searcher: 0 searches every legal move; d
                              >= 1 only the candidates at distance d, best
                              first (candidates.h) */
} SearcherOpts;

/* One entry of the exact-value map: a packed board and a window. */
typedef struct SrXEntry {
    uint64_t board;
    double a, b, v;
    bool used;
} SrXEntry;

/* The exact-value map: open addressing, doubles when half full, up to
 * max_cap slots (0: no limit), where new keys are dropped (full). */
typedef struct SrXMap {
    SrXEntry *e;
    size_t cap, count;
    size_t max_cap;
    bool full;
} SrXMap;

typedef struct Searcher {
    SearcherId id;
    SearcherOpts opt;
    uint64_t count;   /* nodes entered, summed over calls since init/clear */
    SrXMap xmap;      /* exact values (SR_MMDFS_TT, SR_MMDFS_ALL, SR_ABS_TT) */
    TT tt;            /* bounds (the bound-table searchers) */
    bool nomem;       /* a store failed for lack of memory */
    bool interrupted; /* the interrupt flag (interrupt.h) stopped a call: its
                         value is meaningless; cleared by searcher_clear and
                         by each searchers_root_with */
    /* set by searcher_run for the call in progress */
    Game *game; /* searched in place */
    int ncells;
    TTImages img;            /* the shape's symmetric images (tt.h), kept
                                 from call to call while the shape is the
                                 same; freed by searcher_free */
    bool sv;                 /* shortest_victory in effect */
    bool use_table;          /* bound searchers: probe and store s->tt */
    bool store2;             /* STORE2 (ai_abs_tt2) instead of STORE3 */
    double miss_lo, miss_hi; /* MISS_DEFAULT of the bound table */
    SearcherOrder order;     /* move ordering in effect (§7.2) */
} Searcher;

/* Start searcher id with options opt (NULL: all false), its tables limited
 * to TT_DEFAULT_HASH_MB each; allocates nothing. */
void searcher_init(Searcher *s, SearcherId id, const SearcherOpts *opt);
/* Limit each of its tables to `bytes` (0: no limit). The bound table
 * replaces entries at its limit (tt.h); the exact map drops new keys.
 * Either way values stay exact and only more nodes are searched; a 3x3
 * board never reaches the smallest limit. Call it between searches. */
void searcher_set_hash(Searcher *s, size_t bytes);
/* Did a table reach its limit since it was last cleared? */
bool searcher_table_full(const Searcher *s);
/* Forget the tables and zero the counter (memory kept). */
void searcher_clear(Searcher *s);
/* Release the tables. */
void searcher_free(Searcher *s);
/* Number of keys in the searcher's table (0 without one). */
size_t searcher_table_count(const Searcher *s);

/* One call of the searcher on g (in progress or over), as the series'
 * evaluator / mmscore search: the o-view value. Adds the nodes entered to
 * s->count; §6 searchers first empty their table. g is left as found.
 * The interrupt flag (interrupt.h), read at every node, stops the call
 * with s->interrupted set (the value is then meaningless). */
double searcher_run(Searcher *s, Game *g);

/* The series' name of a searcher ("ai_abs_tt4"). */
const char *searcher_name(SearcherId id);

/* The result of searchers_root. */
typedef struct SearcherRoot {
    int n;                       /* legal moves at the root */
    int moves[MB_MAX_CELLS];     /* in legal order */
    double values[MB_MAX_CELLS]; /* o-view value after each move */
    uint64_t counts[MB_MAX_CELLS];
    uint64_t total;
    size_t table_count; /* keys in the (last) table at the end */
} SearcherRoot;

/* Run searcher id over every root child of g in legal order: play the move,
 * one searcher_run, take it back. With `shared` one table serves all the
 * children (the §7 default); otherwise each child starts from an empty one.
 * MB_OK, MB_ENOMEM, or MB_EINTR when the interrupt flag stopped it. g is
 * left as found. */
int searchers_root(Game *g, SearcherId id, const SearcherOpts *opt, bool shared, SearcherRoot *out);

/* searchers_root with a caller-held searcher s (searcher_init'ed; its
 * count and table grow, and stay for searcher_pv; the caller frees it). */
int searchers_root_with(Searcher *s, Game *g, bool shared, SearcherRoot *out);

/* The principal variation after a root search of s on g (whose tables are
 * kept): first (the chosen root move), then at each position the first
 * legal child that the table (or the rules, for a finished child) proves to
 * have the o-view value `value` (the chosen root move's value), until the
 * game ends. This is the PV that ai_by_mmscore intends; the series reads a
 * move out of each table entry, which the §7 tables do not store (§13 #4).
 * Where the table proves no child, the PV stops and *complete is false.
 * Returns the PV's length (0 if g is over or first is not empty); pv needs
 * MB_MAX_CELLS entries. g is left as found. */
int searcher_pv(Searcher *s, Game *g, int first, double value, int *pv, bool *complete);

/* Reorder moves[0..n) (the legal moves of g, in legal order) as the
 * ordering `order` of §7.2 does at an internal node (searchers_order.c).
 * g is played into and its position left as found; like any move, this
 * drops a replayed future from the record, which the searchers' calls put
 * back (game_rewind) when they return. */
void searchers_order_moves(Game *g, SearcherOrder order, int *moves, int n);

#endif
