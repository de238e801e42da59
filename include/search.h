/* search.h: the series' depth-limited αβ search ai_abs_dls and its root
 * driver ai_by_mmscore (spec search.md §3, §4; ais.md §3.3, §7.5).
 *
 * All search state lives in one Search struct: the game searched in place
 * (move/unmove), the static evaluation callback, the depth limit, the
 * transposition table it owns (tt.h), an optional borrowed table for move
 * ordering, the node counter, the deadline and the status. Nothing is
 * global, so several searches can live in one process.
 *
 * Scores are minimax values (o-view: 〇 maximises, × minimises) as doubles;
 * the callback must return them in that view (eval14_search_eval does).
 * The search only uses the engine API (game.h, symmetry.h), so it gives the
 * same values and node counts on every back-end and counter setting.
 *
 * Aborting: a deadline on the monotonic clock and the interrupt flag
 * (interrupt.h), both checked on entry to a node, before counting, every
 * `check_every` nodes; or the callback setting s->status to SEARCH_ABORTED. Either way the search unwinds with unmove
 * and the game is left exactly as it was (marks, key, records, counters).
 * Uses game.h, symmetry.h, rng.h and tt.h. */
#ifndef MB_SEARCH_H
#define MB_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "game.h"
#include "rng.h"
#include "tt.h"

/* Static evaluation: the minimax (o-view) value of g. It may set the
 * search's status (through ud) to abort; it must leave g as it found it. */
typedef double (*SearchEval)(Game *g, void *ud);

/* Results of a search call. */
typedef enum SearchStatus {
    SEARCH_OK = 0,
    SEARCH_TIMEOUT,     /* the deadline passed ("time out" in the series) */
    SEARCH_ABORTED,     /* the callback asked to stop */
    SEARCH_ENOMEM,      /* the table could not grow */
    SEARCH_EINTERNAL,   /* a stored best move is not legal (move ordering) */
    SEARCH_INTERRUPTED, /* the interrupt flag was raised (interrupt.h) */
} SearchStatus;

#define SEARCH_CHECK_EVERY 64 /* default nodes between clock reads */

typedef struct Search {
    Game *game;          /* searched in place; restored after every call */
    SearchEval eval;     /* static evaluation (o-view) */
    void *eval_ud;       /* its user data */
    int maxdepth;        /* depth limit below the search's start position */
    bool use_tt;         /* probe and store `tt` */
    TT tt;               /* owned: the table of the last call */
    const TT *tt_for_mo; /* borrowed, or NULL: orders moves only */
    TT tt_prev;          /* owned: search_iddfs's previous depth's table
                             (move ordering); here, not on search_iddfs's
                             stack, so that search_free releases it even
                             when a Lua evaluator's error unwinds the search */
    size_t hash;         /* bytes its tables may hold together (0: no
                            limit; search_set_hash) */
    uint64_t count;      /* nodes entered by the current inner search */
    bool has_deadline;
    double deadline;      /* clock_now() seconds */
    double grow_time;     /* seconds per slot the table's last growth took
                             (under a deadline the table grows only while
                             twice that for the new size is left) */
    uint32_t check_every; /* clock and interrupt reads every this many nodes
                             (>= 1) */
    uint64_t next_check;  /* the count at which they are next read */
    int status;           /* SearchStatus; SEARCH_OK while running */
    bool pvs;             /* search_run uses search_pvs_dls (always a table) */
    int candidates;       /* 0: every legal move; d >= 1: the candidates at
                             distance d, best first (candidates.h), which
                             switch the game's line features on */
    struct Vcf *vcf;      /* owned, or NULL: the VCF win check (search_set_vcf) */
    int vcf_depth;        /* its attacker moves */
    uint64_t vcf_nodes;   /* positions it searched (not in count) */
    TTImages img;         /* the shape's symmetric images (tt.h), built by search_init */
} Search;

/* One root driver call (ai_by_mmscore with analyze). */
typedef struct SearchRootResult {
    int nmoves; /* legal root moves, in legal order */
    int moves[MB_MAX_CELLS];
    double scores[MB_MAX_CELLS];   /* o-view value of each root child */
    uint64_t counts[MB_MAX_CELLS]; /* nodes of each child's search */
    int ncandidates;               /* the tie list (best moves, legal order) */
    int candidates[MB_MAX_CELLS];
    double best_score; /* max if 〇 is to move, min if × */
    int bestmove;      /* candidates[0], or a random choice */
    uint64_t total;    /* nodes over every child */
    double time;       /* seconds */
} SearchRootResult;

/* ---- Life cycle ---- */

/* Set up a search of g with eval (o-view) and its ud, depth limit maxdepth:
 * no table use, no move ordering, no deadline. MB_OK or MB_ENOMEM. */
int search_init(Search *s, Game *g, SearchEval eval, void *ud, int maxdepth);
/* Release the table and the maps. */
void search_free(Search *s);
/* Limit the search's tables to `bytes` together (0: no limit; tt.h, "The
 * limit": exact below it, bucket replacement at it). search_init sets
 * TT_DEFAULT_HASH_MB. search_iddfs with move ordering keeps two tables,
 * each then limited to half. Call it between searches. */
void search_set_hash(Search *s, size_t bytes);
/* The VCF win check (vcf.h) at every node still playing, interior or
 * leaf, before anything else: a win for the side to move within `depth`
 * fours makes the node's value the evaluation of the position at the end
 * of that line (a finished game). depth 0 turns it off. Node counts are
 * those of the plain search plus the nodes cut by it; the threat search's
 * own positions go to vcf_nodes. MB_OK or MB_ENOMEM. */
int search_set_vcf(Search *s, int depth);
/* Give up `seconds` from now (clock_now() + seconds); negative: no limit. */
void search_set_timelimit(Search *s, double seconds);

/* ---- Searching ---- */

/* The recursive fail-soft αβ (search.md §3.1) at the current position,
 * which lies `depth` plies below the start: returns its minimax value,
 * adding to s->count. On abort s->status is set, the position is restored
 * and the return value is meaningless. */
double search_abs_dls(Search *s, double alpha, double beta, int depth);
/* ai_pvs_dls (ais.md §7.6): principal variation search with the same
 * frame (deadline, count, leaf, probe, move-ordering swap, symmetric
 * store), the table always used whatever use_tt says. */
double search_pvs_dls(Search *s, double alpha, double beta, int depth);
/* ai_abs_dls(P) itself (ai_pvs_dls(P) when s->pvs): count = 0, then search_abs_dls(s, -inf, +inf, 0);
 * the table is not cleared (clear s->tt first for a fresh one). The value
 * goes to *score and the status is returned; the game is restored. */
int search_run(Search *s, double *score);
/* The root driver (ai_by_mmscore): every root child in legal order is
 * searched with search_run, sharing one table (cleared first) when
 * share_tt, else with a fresh table each. With rng, the best move is one
 * rng_choice_index over the tie list (drawn even for one candidate); else
 * the first. Returns a SearchStatus; the game is always restored. */
int search_root(Search *s, bool share_tt, Rng *rng, SearchRootResult *out);

/* ---- The root's tie list (every root driver: search_root, and the
 * binding's ai_by_score / ai_by_mmscore over fulldepth.h) ---- */

/* The moves whose score is the best of scores[0 .. n) (the largest when
 * maximize, else the smallest), in the order given, into ties; returns how
 * many and puts the best score in *best (-inf / +inf when n is 0). */
int search_ties(const int *moves, const double *scores, int n, bool maximize, int *ties,
                double *best);
/* The chosen move: one rng_choice_index over the ties with rng (a draw even
 * for one tie, as the series' random.choice), else the first. nties >= 1. */
int search_pick(const int *ties, int nties, Rng *rng);

/* ---- Iterative deepening (ais.md §8, search.md §5) ---- */

typedef struct SearchIddfsOptions {
    double timelimit;  /* seconds for the whole call; < 0: none */
    bool moveordering; /* order by the previous depth's table (forces use_tt
                          and share_tt) */
    bool use_tt;       /* the table (the series' default: true) */
    bool share_tt;     /* one table per depth for all root children */
} SearchIddfsOptions;

/* One completed depth iteration. */
typedef struct SearchIter {
    int depth;             /* maxdepth of this iteration (0, 1, ...) */
    SearchRootResult root; /* its root driver result */
    size_t tt_size;        /* keys in its table */
    bool tt_full;          /* its table reached its limit (tt.h) */
    int npv;               /* principal variation (shared table), or */
    int pv[MB_MAX_CELLS];  /* [bestmove] without one */
} SearchIter;

typedef struct SearchIddfsResult {
    int niter;      /* completed iterations, in iters[0 .. niter-1] */
    bool timed_out; /* an iteration ran out of time (and was dropped) */
    int bestmove;   /* the last completed iteration's, else legal[0] */
    double time;    /* seconds */
} SearchIddfsResult;

/* ai_ab_iddfs (ai_pvs_iddfs when s->pvs): for maxdepth = 0, 1, ... up to
 * ncells - 1 - move_count, search_root with the one deadline; a timeout
 * ends the loop (not an error). Each completed iteration is stored in
 * iters (at most cap; the loop stops when full) and draws one choice from
 * rng when given. s->maxdepth, s->use_tt and s->tt_for_mo are restored (use_tt comes
 * from o);
 * s->tt holds the last iteration's table. Returns SEARCH_OK (also after a
 * timeout) or the error of an iteration; the game is always restored. */
int search_iddfs(Search *s, const SearchIddfsOptions *o, Rng *rng, SearchIter *iters, int cap,
                 SearchIddfsResult *out);

/* The principal variation from bestmove through a shared table (search.md
 * §4): follow the stored best moves into pv (at most ncells moves); the game
 * is moved in place and restored exactly (marks, counters, record). Returns
 * its length. */
int search_pv(Game *g, const TT *tt, int bestmove, int *pv);

#endif
