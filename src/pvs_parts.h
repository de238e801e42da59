/* pvs_parts.h: what pvs.c (the search) and pvs_threats.c (VCF and VCT)
 * share: one search's state, the table's entry, the clock's tick and the
 * completing square. Not the library's interface (that is pvs.h). */
#ifndef MB_PVS_PARTS_H
#define MB_PVS_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "interrupt.h"
#include "pattern.h"
#include "pvs.h"

#define INF         (PVS_MATE + 1)
#define CHECK_MASK  63 /* the clock is read every 64 positions */
#define SIDE_KEY    0x9D39247E33776D41ULL
#define F_LOWER     1
#define F_UPPER     2
#define F_EXACT     3
#define ORDER_TT    (1 << 30)
#define ORDER_KILL1 (1 << 29)
#define ORDER_KILL2 (1 << 28)

struct PvsEntry {
    uint64_t key;
    int32_t score;
    int16_t move; /* padded index, or -1 */
    int8_t depth;
    uint8_t flag_gen; /* flag | gen << 2 */
};

#define VCACHE_BITS 16
#define VCACHE_MASK ((1u << VCACHE_BITS) - 1)
#define VCF_SIDE_O  0x7A4C3B1E9F0D2C85ULL /* the attacker's mark in a cache key */
#define VCF_SIDE_X  0x2E6B9D04C1F7A358ULL

typedef struct VcfSlot {
    uint64_t key;
    int8_t len, depth;
} VcfSlot;

typedef struct PvsRun {
    Pvs *p;
    PatState *ps;
    const PvsOptions *o;
    int ncells;
    const int16_t *bidx; /* the board's padded indexes, normative order */
    uint64_t ticks, nodes, vcf_nodes, vcf_limit;
    double deadline;
    bool stop, interrupted;
    int killer[PVS_MAX_PLY][2];
    int32_t *hist[3];
    VcfSlot *vcache; /* 2^VCACHE_BITS slots */
    int pv[PVS_MAX_PLY][PVS_MAX_PLY];
    int pvlen[PVS_MAX_PLY];
    int iter_best, iter_score;
    bool qdefending; /* a qsearch is answering a VCF below */
    int root_only;   /* > 0: the root searches only only[0 .. root_only) */
    int only[MB_MAX_CELLS];
} PvsRun;

/* Count one position; every 64th reads the clock, the interrupt flag and
 * the node cap, and sets s->stop past any of them. */
static inline void tick(PvsRun *s)
{
    if ((++s->ticks & CHECK_MASK) == 0) {
        if (mb_interrupted()) s->stop = s->interrupted = true;
        if (s->deadline >= 0 && clock_now() >= s->deadline) s->stop = true;
        if (s->o->max_nodes && s->nodes + s->vcf_nodes >= s->o->max_nodes) s->stop = true;
    }
}

/* The one completing square of p (count[p][WIN] >= 1). */
static inline int win_square(const PatState *ps, Mark p)
{
    for (int j = 0; j < ps->n4[p]; j++) {
        int i = ps->set4[p][j];
        if (ps->cls[i * 2 + p - 1] == PAT_C_WIN) return i;
    }
    return -1;
}

/* ---- The threat searches (pvs_threats.c) ---- */

/* A victory by continuous fours for a (to move) within `depth` fours: the
 * plies to the win (odd), or 0. line (or NULL) receives the moves. */
int pvs_vcf(PvsRun *s, Mark a, int depth, int *line);
/* A victory by continuous threats (fours and open threes) for a, to move,
 * within `depth` threats (its threes on the lines through its last
 * threat `last`, within k + 1; anywhere when -1): the plies to the win,
 * or 0. Every answer of the defender that
 * pat_forced allows (blocks, defences of a three, its own fours) must
 * lose. line (or NULL) gets a's first move. */
int pvs_vct_attack(PvsRun *s, Mark a, int depth, int last, int *line);

#endif
