/* pvs_threats.c: the threat searches of the pattern searcher (pvs.h):
 * VCF, a win by continuous fours, and VCT, a win by fours and threes, on
 * the search's own pattern state (pvs_parts.h). Used at the root, in the
 * quiescence search and to guard the root move. */
#include <stdbool.h>

#include "pvs_parts.h"

/* The top of both threat searches for a, to move: count the position;
 * 1 (line[0] the square) when a completes a line at once, 0 when a limit
 * stopped the search or the defender has two completing squares, else -1
 * (go on) with *nd the defender's number of completing squares. */
static inline int threat_entry(PvsRun *s, Mark a, int *line, int *nd)
{
    const PatState *ps = s->ps;
    s->vcf_nodes++;
    tick(s);
    if (s->stop || s->vcf_nodes > s->vcf_limit) return 0;
    if (ps->count[a][PAT_C_WIN]) {
        if (line) line[0] = win_square(ps, a);
        return 1;
    }
    *nd = ps->count[3 - a][PAT_C_WIN];
    return *nd >= 2 ? 0 : -1;
}

/* ---- VCF ---- */

static int vcf_moves(PvsRun *s, Mark a, Mark d, int nd, int depth, int *line);

/* See pvs_parts.h. */
int pvs_vcf(PvsRun *s, Mark a, int depth, int *line)
{
    PatState *ps = s->ps;
    Mark d = (Mark)(3 - a);
    int nd, entry = threat_entry(s, a, line, &nd);
    if (entry >= 0) return entry;
    if (nd == 0 && (ps->count[a][PAT_C_OPEN4] || ps->count[a][PAT_C_FOUR2])) {
        if (line) line[0] = line[1] = line[2] = -1;
        return 3;
    }
    if (depth <= 0) return 0;
    /* the cache: a win found (its length), or none within a depth */
    uint64_t key = ps->zkey ^ (a == MARK_X ? VCF_SIDE_O : VCF_SIDE_X);
    VcfSlot *slot = &s->vcache[key & VCACHE_MASK];
    if (!line && slot->key == key && (slot->len || slot->depth >= depth)) return slot->len;
    int r = vcf_moves(s, a, d, nd, depth, line);
    /* a failure is stored only when no limit cut the search short */
    if (r || (!s->stop && s->vcf_nodes <= s->vcf_limit)) {
        slot->key = key;
        slot->len = (int8_t)r;
        slot->depth = (int8_t)depth;
    }
    return r;
}

/* vcf's search of a's fours (or its block of d's four) below the checks. */
static int vcf_moves(PvsRun *s, Mark a, Mark d, int nd, int depth, int *line)
{
    PatState *ps = s->ps;
    int cand[MB_MAX_CELLS], n = 0;
    if (nd == 1) {
        int c = win_square(ps, d);
        if (ps->cls[c * 2 + a - 1] < PAT_C_FOUR) return 0;
        cand[n++] = c;
    } else {
        /* the fours that make more first */
        for (int j = 0; j < ps->n4[a]; j++) cand[n++] = ps->set4[a][j];
        for (int j = 1; j < n; j++) {
            int c = cand[j], v = ps->value[c * 2 + a - 1], t = j;
            while (t > 0 && ps->value[cand[t - 1] * 2 + a - 1] < v) {
                cand[t] = cand[t - 1];
                t--;
            }
            cand[t] = c;
        }
    }
    for (int j = 0; j < n; j++) {
        int c = cand[j], r = 0;
        pat_place_idx(ps, c, a);
        if (ps->count[a][PAT_C_WIN] >= 2) {
            r = 3;
            if (line) line[1] = line[2] = -1;
        } else if (ps->count[a][PAT_C_WIN] == 1 && ps->count[d][PAT_C_WIN] == 0) {
            int b = win_square(ps, a);
            pat_place_idx(ps, b, d);
            int t = pvs_vcf(s, a, depth - 1, line ? line + 2 : NULL);
            pat_lift_idx(ps, b, d);
            if (t) {
                r = t + 2;
                if (line) line[1] = b;
            }
        }
        pat_lift_idx(ps, c, a);
        if (r) {
            if (line) line[0] = c;
            return r;
        }
        if (s->stop) return 0;
    }
    return 0;
}

/* ---- VCT ---- */

static int vct_defend(PvsRun *s, Mark a, int depth, int last);

/* True when square i lies on one of the four lines through `last`
 * within `reach` squares of it (any square when last < 0). */
static bool on_lines(const PatState *ps, int i, int last, int reach)
{
    if (last < 0) return true;
    int dx = (i % ps->pw) - (last % ps->pw), dy = i / ps->pw - last / ps->pw;
    int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if (ax > reach || ay > reach) return false;
    return dx == 0 || dy == 0 || ax == ay;
}

/* Push a's threat moves: its fours (the four set, anywhere), then the
 * squares where it makes an open three (class three or double three) on
 * the lines through its last threat `last` (within k + 1; anywhere when
 * last < 0), each group by value. */
static int threat_moves(PvsRun *s, Mark a, int last, int *cand)
{
    PatState *ps = s->ps;
    int n = 0;
    for (int j = 0; j < ps->n4[a]; j++) cand[n++] = ps->set4[a][j];
    int fours = n;
    for (int t = 0; t < s->ncells; t++) {
        int i = s->bidx[t];
        if (ps->cell[i] != MARK_EMPTY || !ps->near[i]) continue;
        int c = ps->cls[i * 2 + a - 1];
        if ((c == PAT_C_THREE || c == PAT_C_THREE2) && on_lines(ps, i, last, ps->k + 1))
            cand[n++] = i;
    }
    for (int g = 0; g < 2; g++) {
        int lo = g ? fours : 0, hi = g ? n : fours;
        for (int j = lo + 1; j < hi; j++) {
            int c = cand[j], v = ps->value[c * 2 + a - 1], t = j;
            while (t > lo && ps->value[cand[t - 1] * 2 + a - 1] < v) {
                cand[t] = cand[t - 1];
                t--;
            }
            cand[t] = c;
        }
    }
    return n;
}

/* See pvs_parts.h. */
int pvs_vct_attack(PvsRun *s, Mark a, int depth, int last, int *line)
{
    PatState *ps = s->ps;
    Mark d = (Mark)(3 - a);
    int nd, entry = threat_entry(s, a, line, &nd);
    if (entry >= 0) return entry;
    if (nd == 0) {
        int w = ps->count[a][PAT_C_OPEN4] || ps->count[a][PAT_C_FOUR2]                        ? 3
                : ps->n4[d] == 0 && (ps->count[a][PAT_C_FOUR3] || ps->count[a][PAT_C_THREE2]) ? 5
                                                                                              : 0;
        if (w) {
            if (line) line[0] = -1;
            return w;
        }
    }
    if (depth <= 0) return 0;
    if (nd == 1) { /* a must block; its threats must still stand after */
        int c = win_square(ps, d);
        pat_place_idx(ps, c, a);
        int r = vct_defend(s, a, depth - 1, last);
        pat_lift_idx(ps, c, a);
        if (r && line) line[0] = c;
        return r ? r + 1 : 0;
    }
    int cand[MB_MAX_CELLS], n = threat_moves(s, a, last, cand);
    for (int j = 0; j < n; j++) {
        int c = cand[j];
        pat_place_idx(ps, c, a);
        int r = vct_defend(s, a, depth - 1, c);
        pat_lift_idx(ps, c, a);
        if (r) {
            if (line) line[0] = c;
            return r + 1;
        }
        if (s->stop) return 0;
    }
    return 0;
}

/* The defender's turn in a VCT of a: every answer must lose. 0 when one
 * holds (or a threatens nothing), else the plies to a's win. */
static int vct_defend(PvsRun *s, Mark a, int depth, int last)
{
    PatState *ps = s->ps;
    Mark d = (Mark)(3 - a);
    s->vcf_nodes++;
    if (ps->count[d][PAT_C_WIN]) return 0;
    if (ps->count[a][PAT_C_WIN] >= 2) return 2;
    int mv[MB_MAX_CELLS], reason, n = pat_forced(ps, d, mv, &reason);
    if (reason < 2) return 0; /* no threat of a's: d is free */
    int worst = 0;
    for (int j = 0; j < n; j++) {
        pat_place_idx(ps, mv[j], d);
        int r = pvs_vct_attack(s, a, depth, last, NULL);
        pat_lift_idx(ps, mv[j], d);
        if (!r) return 0;
        if (r > worst) worst = r;
    }
    return worst + 1;
}
