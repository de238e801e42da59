/* vcf.h: threat-space search: victory by continuous fours (VCF) and by
 * continuous threats (VCT), for any board, any k and either rule.
 *
 * Words (k in a row to win; "A" the attacker, the side to move at the root,
 * "D" the defender):
 *   win square  an empty square on which a side's mark wins at once under
 *               the game's rule (freestyle: completes k or more in a row;
 *               exact: makes a run of exactly k);
 *   four        a move after which its side has a win square;
 *   three       a move after which, if the opponent passed, its side would
 *               win by a VCF.
 *
 * VCF proves: A wins by a sequence of fours. After each four D's only move
 * is the one win square (with two or more, A has won: D cannot block both
 * and has no win of its own, since a four of A never gives D one). D's
 * counter-threats are followed: when D's forced block makes a four of D,
 * A must block it, and the line goes on only if that block is itself a
 * four; when D has two win squares, the line fails.
 *
 * VCT proves: A wins by a sequence of fours and threes. After a three, D
 * may play any square: every reply that makes a four of D, and every reply
 * on a k-window through a square of the VCF that the three threatens, is
 * searched as a defence (A must still win after it); any other reply
 * leaves that VCF's squares and windows as they were, so A wins by it.
 *
 * Both are sound: a sequence found is a forced win (D's best play cannot
 * escape it), also under the exact rule. They are not complete: "no
 * sequence" means none within maxdepth attacker moves (VCT: none with the
 * threats defined above), not a lost or drawn position. Positions proven
 * to fail (for an attacker, within a depth) are kept in a small table
 * (Zobrist keys), kept between calls on one shape and rule.
 *
 * The search works on its own copy of the marks with per-window counts; the
 * game is only read. Bounded by maxdepth (attacker moves), a node limit
 * and a deadline on clock_now()'s clock; the interrupt flag (interrupt.h)
 * is read where the clock is. No globals: a Vcf holds its
 * table and can be reused for many calls (the αβ searchers keep one).
 * Uses game.h and search.h (the clock). */
#ifndef MB_VCF_H
#define MB_VCF_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

#define VCF_TABLE_BITS    14 /* entries of the table of failed positions: 2^14 */
#define VCF_DEFAULT_DEPTH 10
/* About what a solver holds (its table, counts and line table), for a
 * sandbox's memory cap. */
#define VCF_BYTES         (((size_t)16 << VCF_TABLE_BITS) + 2 * MB_MAX_CELLS * 8 + 4 * 4096 + 40000)

/* Results of vcf_solve. */
typedef enum VcfStatus {
    VCF_NONE = 0,    /* no win found within the bounds */
    VCF_WIN,         /* a forced win: the sequence is in the result */
    VCF_TIMEOUT,     /* the deadline passed first */
    VCF_NODES,       /* the node limit was reached first */
    VCF_INTERRUPTED, /* the interrupt flag was raised (interrupt.h) */
} VcfStatus;

typedef struct VcfOptions {
    int maxdepth;       /* attacker moves (fours and threes), >= 1 */
    double timelimit;   /* seconds; < 0: none */
    uint64_t max_nodes; /* 0: none */
    bool vct;           /* threes as well as fours */
} VcfOptions;

typedef struct VcfResult {
    int status;              /* VcfStatus */
    int n;                   /* length of moves: odd, the attacker's last move wins */
    int moves[MB_MAX_CELLS]; /* attacker, defender, attacker, ... */
    uint64_t nodes;          /* positions searched */
    double seconds;
} VcfResult;

typedef struct VcfEntry VcfEntry; /* the table's slots (vcf.c) */

typedef struct Vcf {
    VcfEntry *table; /* 2^VCF_TABLE_BITS slots */
    uint64_t zobrist[MB_MAX_CELLS][2];
    /* per call */
    const Geometry *geo;
    uint8_t cells[MB_MAX_CELLS];
    uint8_t (*count)[2]; /* per window: marks of o, x */
    int ncount;          /* windows count[] has room for */
    uint64_t key, nodes, max_nodes;
    double deadline; /* < 0: none */
    int status;
    bool vct;
    uint32_t stamp;
    uint32_t seen[MB_MAX_CELLS];
    int table_w, table_h, table_k; /* the shape and rule the table holds */
    bool table_exact;
} Vcf;

/* Default options: VCF, maxdepth VCF_DEFAULT_DEPTH, no time or node limit. */
VcfOptions vcf_default_options(void);
/* Make a solver: MB_OK or MB_ENOMEM (v is then freeable). */
int vcf_init(Vcf *v);
/* Release it (a zeroed Vcf is fine). */
void vcf_free(Vcf *v);
/* Search a win for the side to move in g (not changed). MB_OK with
 * out->status set, or MB_EINVAL (maxdepth < 1) or MB_ENOMEM. A finished
 * game gives VCF_NONE. */
int vcf_solve(Vcf *v, const Game *g, const VcfOptions *o, VcfResult *out);
/* The status's name: "none", "win", "timeout", "nodes" or "interrupted". */
const char *vcf_status_name(int status);

#endif
