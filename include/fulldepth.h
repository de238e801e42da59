/* fulldepth.h: the series' full-depth searchers (spec ais.md §6, §7.1–7.4).
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
 * table across calls until the caller clears it (fulldepth_clear), which is
 * how ai_by_mmscore shares one table among the root children.
 *
 * Tables: the exact-value ones (ai_mmdfs_tt, ai_mmdfs_all, ai_abs_tt, whose
 * key is board key + α + β) live in a small exact map of this module; the
 * bound ones (ai_abs_tt2/3/4, ai_nws_3score_tt, ai_abs_all, ai_scout,
 * ai_mtdf) in a TT of tt.h (lower, upper). Stores go under every symmetric
 * key (symmetry.h). Keys are packed 2 bits a square, so boards of at most
 * TT_PACKED_MAX_CELLS squares; the terminal scale of shortest_victory is
 * the series' 3x3 one. All state is in one FullDepth struct; nothing global.
 * The game is searched in place (game_move / game_unmove) and left as found,
 * its record included (a replayed future too: game_mark / game_rewind).
 * Uses game.h, symmetry.h, tt.h. */
#ifndef MB_FULLDEPTH_H
#define MB_FULLDEPTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "geometry.h"
#include "tt.h"

typedef enum FullDepthId {
    FULL_MMDFS,         /* §6 plain minimax */
    FULL_MMDFS_TT,      /* §6 minimax + exact table, fresh per call */
    FULL_ABS,           /* §6 fail-hard αβ, (-inf, +inf) */
    FULL_ABS2,          /* §6 fail-soft αβ, (-inf, +inf) */
    FULL_ABS3,          /* §6 fail-soft αβ, (-1, 1) */
    FULL_ABS_TT,        /* §6 fail-hard αβ + table keyed by (key, α, β) */
    FULL_ABS_TT2,       /* §6 bound table, STORE2 */
    FULL_ABS_TT3,       /* §6 bound table, STORE3, miss (-inf, +inf) */
    FULL_ABS_TT4,       /* §6 bound table, STORE3, miss and root (min, max) */
    FULL_NWS_3SCORE,    /* §6 fail-soft, strict cuts, root (0, 0) */
    FULL_NWS_3SCORE2,   /* §6 fail-soft αβ, root (-0.5, 0.5) */
    FULL_NWS_3SCORE_TT, /* §6 bound table, miss (-1, 1), root (-0.05, 0.05) */
    FULL_MMDFS_ALL,     /* §7.1 minimax, optional exact table (use_tt) */
    FULL_ABS_ALL,       /* §7.2 fail-soft αβ, optional bound table */
    FULL_SCOUT,         /* §7.3 scout, window width 1 */
    FULL_MTDF,          /* §7.4 MTD(f) over ai_abs_all's inner search */
    FULL_COUNT
} FullDepthId;

/* Move ordering of ai_abs_all / ai_scout / ai_mtdf (§7.2): none (legal
 * order), or ai_for_mo = ai14s with sort_allnodes true (children sorted by
 * their ai14s score, mover-view, descending, stable) or false (ai14s's
 * first best move swapped with the first legal move). */
typedef enum FullDepthOrder {
    FULL_ORDER_NONE = 0,
    FULL_ORDER_AI14S_SORT,
    FULL_ORDER_AI14S_SWAP
} FullDepthOrder;

/* Options; each searcher reads only those the series gives it. */
typedef struct FullDepthOpts {
    bool shortest_victory; /* ai_mmdfs_tt, ai_abs_tt*, §7 */
    bool use_tt;           /* §7 */
    bool init_ab;          /* ai_abs_all, ai_scout, ai_mtdf */
    FullDepthOrder order;  /* ai_abs_all, ai_scout, ai_mtdf */
    int candidates;        /* every searcher: 0 searches every legal move; d
                              >= 1 only the candidates at distance d, best
                              first (candidates.h) */
} FullDepthOpts;

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

typedef struct FullDepth {
    FullDepthId id;
    FullDepthOpts opt;
    uint64_t count;   /* nodes entered, summed over calls since init/clear */
    SrXMap xmap;      /* exact values (FULL_MMDFS_TT, FULL_MMDFS_ALL, FULL_ABS_TT) */
    TT tt;            /* bounds (the bound-table searchers) */
    bool nomem;       /* a store failed for lack of memory */
    bool interrupted; /* the interrupt flag (interrupt.h) stopped a call: its
                         value is meaningless; cleared by fulldepth_clear and
                         by each fulldepth_root_with */
    /* set by fulldepth_run for the call in progress */
    Game *game; /* searched in place */
    int ncells;
    TTImages img;            /* the shape's symmetric images (tt.h), kept
                                 from call to call while the shape is the
                                 same; freed by fulldepth_free */
    bool sv;                 /* shortest_victory in effect */
    bool use_table;          /* bound searchers: probe and store s->tt */
    bool store2;             /* STORE2 (ai_abs_tt2) instead of STORE3 */
    double miss_lo, miss_hi; /* MISS_DEFAULT of the bound table */
    FullDepthOrder order;    /* move ordering in effect (§7.2) */
} FullDepth;

/* Start searcher id with options opt (NULL: all false), its tables limited
 * to TT_DEFAULT_HASH_MB each; allocates nothing. */
void fulldepth_init(FullDepth *s, FullDepthId id, const FullDepthOpts *opt);
/* Limit each of its tables to `bytes` (0: no limit). The bound table
 * replaces entries at its limit (tt.h); the exact map drops new keys.
 * Either way values stay exact and only more nodes are searched; a 3x3
 * board never reaches the smallest limit. Call it between searches. */
void fulldepth_set_hash(FullDepth *s, size_t bytes);
/* Did a table reach its limit since it was last cleared? */
bool fulldepth_table_full(const FullDepth *s);
/* Forget the tables and zero the counter (memory kept). */
void fulldepth_clear(FullDepth *s);
/* Release the tables. */
void fulldepth_free(FullDepth *s);
/* Number of keys in the searcher's table (0 without one). */
size_t fulldepth_table_count(const FullDepth *s);

/* One call of the searcher on g (in progress or over), as the series'
 * evaluator / mmscore search: the o-view value. Adds the nodes entered to
 * s->count; §6 searchers first empty their table. g is left as found.
 * The interrupt flag (interrupt.h), read at every node, stops the call
 * with s->interrupted set (the value is then meaningless). */
double fulldepth_run(FullDepth *s, Game *g);

/* The series' name of a searcher ("ai_abs_tt4"). */
const char *fulldepth_name(FullDepthId id);

/* The result of fulldepth_root. */
typedef struct FullDepthRoot {
    int n;                       /* legal moves at the root */
    int moves[MB_MAX_CELLS];     /* in legal order */
    double values[MB_MAX_CELLS]; /* o-view value after each move */
    uint64_t counts[MB_MAX_CELLS];
    uint64_t total;
    size_t table_count; /* keys in the (last) table at the end */
} FullDepthRoot;

/* Run searcher id over every root child of g in legal order: play the move,
 * one fulldepth_run, take it back. With `shared` one table serves all the
 * children (the §7 default); otherwise each child starts from an empty one.
 * MB_OK, MB_ENOMEM, or MB_EINTR when the interrupt flag stopped it. g is
 * left as found. */
int fulldepth_root(Game *g, FullDepthId id, const FullDepthOpts *opt, bool shared,
                   FullDepthRoot *out);

/* fulldepth_root with a caller-held searcher s (fulldepth_init'ed; its
 * count and table grow, and stay for fulldepth_pv; the caller frees it). */
int fulldepth_root_with(FullDepth *s, Game *g, bool shared, FullDepthRoot *out);

/* The principal variation after a root search of s on g (whose tables are
 * kept): first (the chosen root move), then at each position the first
 * legal child that the table (or the rules, for a finished child) proves to
 * have the o-view value `value` (the chosen root move's value), until the
 * game ends. This is the PV that ai_by_mmscore intends; the series reads a
 * move out of each table entry, which the §7 tables do not store (§13 #4).
 * Where the table proves no child, the PV stops and *complete is false.
 * Returns the PV's length (0 if g is over or first is not empty); pv needs
 * MB_MAX_CELLS entries. g is left as found. */
int fulldepth_pv(FullDepth *s, Game *g, int first, double value, int *pv, bool *complete);

/* Reorder moves[0..n) (the legal moves of g, in legal order) as the
 * ordering `order` of §7.2 does at an internal node (fulldepth_order.c).
 * g is played into and its position left as found; like any move, this
 * drops a replayed future from the record, which the searchers' calls put
 * back (game_rewind) when they return. */
void fulldepth_order_moves(Game *g, FullDepthOrder order, int *moves, int n);

#endif
