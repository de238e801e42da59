/* pvs.h: the big-board search on the pattern codes (pattern.h): principal
 * variation search with iterative deepening for k in a row on any board,
 * any k and either rule, made for 15x15 gomoku.
 *
 * The search works on its own PatState made from the game (which is only
 * read) with the options' weights; every heuristic is a switch:
 *   tt           a transposition table of fixed size (the caller's memory,
 *                kept between calls: a searcher reuses it move after move;
 *                entries replaced by depth and age);
 *   aspiration   iterations from depth 3 start with a window of +-window
 *                around the previous score, widened on a fail;
 *   killers      two killer moves per ply tried after the table's move;
 *   history      a history score per side and square orders the rest
 *                (with the pattern move score);
 *   lmr          late quiet moves (no four, no open three of either side
 *                made or stopped) searched one ply shallower first at
 *                depth >= 3, again in full when they beat alpha;
 *   vcf          at the horizon, a victory by continuous fours of the side
 *                to move (at most vcf_depth fours, vcf_nodes positions)
 *                counts as a win; also run at the root first, deeper;
 *   forced       threat-aware moves: the side to move must block the
 *                other side's single completing square (a second one: the
 *                node is lost); when the other side has an open-four or
 *                double-four square (an open three on the board, or two
 *                fours to make), only the squares of either side's four
 *                sets are searched (pat_forced); without the switch the
 *                block is still the only move, but a threat of an open
 *                four does not narrow the moves;
 *   prune        at depth >= 2 and off the principal variation, only the
 *                best `width` moves by score are searched (none at depth
 *                1 beyond `width1`);
 *   qdefend      at the horizon, a VCF of the other side (were the side
 *                to move to pass) is answered: the squares of its line and
 *                the side's own fours, each searched at depth 0;
 *   guard        at the root, when the other side would win by a VCT if
 *                the root passed, only the moves after which it has none
 *                are searched (when some exist);
 *   extend       the soft time limit doubles after an unstable iteration;
 *   verify       when the move found leaves the other side a VCT, the next
 *                moves in order are tried until one leaves it none (the
 *                iterations stop at 1 - verify_share of the time for it).
 * Before the iterations the root plays a VCF (root_vcf fours), then a VCT
 * (root_vct threats, the threes on the lines of the previous threat)
 * found within vct_share of the time.
 * Wins are recognised without search: a completing square of the side to
 * move (a win in 1), an open four or double four square while the other
 * side has no completing square (in 3), a four-three while the other
 * side has no four to make (in 5). Scores are the evaluation (pattern.h's
 * sum of values, clamped) from the side to move's view, or +-(PVS_MATE -
 * plies) for wins and losses.
 *
 * Time: a hard deadline (timelimit; the clock is read every 64 positions)
 * after which the search unwinds, and a soft one: no new iteration starts
 * after soft * timelimit, or twice that (extend) when the last iteration
 * changed its best move or lost more than the aspiration window. The best
 * move is that of the last completed iteration, or of the unfinished one
 * when it already searched its first root move and found a better one. A
 * raised interrupt flag (interrupt.h) stops it the same way. Uses game.h,
 * pattern.h, search.h (the clock) and interrupt.h. */
#ifndef MB_PVS_H
#define MB_PVS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "pattern.h"

#define PVS_MATE      30000000 /* a win now; a win in n plies: PVS_MATE - n */
#define PVS_WIN_BOUND (PVS_MATE - 4096)
#define PVS_MAX_PLY   128
#define PVS_EVAL_CAP  (PVS_MATE / 4) /* evaluations are clamped to +-this */
#define PVS_MAX_VCF   60             /* fours of a VCF (vcf_depth, root_vcf) */

typedef struct PvsOptions {
    double timelimit; /* hard limit, seconds; < 0: none */
    double soft;      /* no new iteration after soft * timelimit (0 .. 1) */
    int maxdepth;     /* iterations up to this depth (1 .. PVS_MAX_PLY / 2) */
    uint64_t max_nodes;
    bool tt, aspiration, killers, history, lmr, vcf, forced, prune;
    int window;       /* aspiration half width (evaluation units) */
    int vcf_depth;    /* fours at the horizon */
    int vcf_nodes;    /* positions per horizon VCF */
    int root_vcf;     /* fours of the root VCF (0: none) */
    int root_vct;     /* threats of the root VCT and the guard (0: none) */
    int vct_nodes;    /* positions of the root VCT (the guard: as many again) */
    double vct_share; /* of timelimit (and of max_nodes): the root VCT, then twice it the guard */
    bool guard;       /* the root keeps the moves that stop the other side's VCT */
    bool qdefend;     /* the horizon answers the other side's VCF (needs vcf) */
    bool extend;      /* after an unstable iteration the soft limit doubles */
    bool verify;      /* the move found must leave the other side no VCT */
    double verify_share; /* of timelimit (and of max_nodes): kept for the verification */
    int width;           /* prune: moves searched at depth >= 2 off the PV */
    int width1;          /* prune: moves searched at depth 1 off the PV */
    int defend;          /* move score: percent of the other side's value */
    PatWeights weights;
} PvsOptions;

typedef struct PvsResult {
    int move;  /* the best move, or -1 (no move: the game is over) */
    int score; /* from the side to move's view */
    int depth; /* of the last completed iteration */
    uint64_t nodes, vcf_nodes;
    double seconds;
    bool timeout; /* the deadline ended the search */
    int npv;
    int pv[PVS_MAX_PLY];
    const char *reason; /* "search", "win" (a root win square), "block",
                           "vcf" (the root VCF), "only" (one move), "first"
                           (an empty board: the centre) */
} PvsResult;

typedef struct PvsEntry PvsEntry;

typedef struct Pvs {
    PvsEntry *tt; /* the caller's memory */
    size_t tt_mask;
    uint8_t gen;
} Pvs;

/* Default options: 1 s, soft 0.4, every switch on, the default weights. */
PvsOptions pvs_default_options(void);
/* The bytes of a table of 2^bits entries. */
size_t pvs_table_bytes(int bits);
/* Set up p on the caller's table memory (pvs_table_bytes(bits)), cleared:
 * memory that held another table (an allocator hands freed blocks out
 * again) would otherwise lend this one its entries, whose keys match and
 * whose scores came from other weights or another search's cuts, so that
 * two searchers made alike searched differently. */
void pvs_init(Pvs *p, void *tt_mem, int bits);
/* Empty p's table. */
void pvs_clear(Pvs *p);
/* Search the side to move of g (read only). MB_OK, MB_EINVAL (bad
 * options), MB_ENOMEM (the pattern state) or MB_EINTR (the interrupt flag
 * of interrupt.h was raised: the search stopped as at its deadline, and
 * out holds what it had). A finished game gives move -1. */
int pvs_search(Pvs *p, const Game *g, const PvsOptions *o, PvsResult *out);

#endif
