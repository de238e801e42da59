/* pvs.c: the big-board search on the pattern codes (pvs.h).
 *
 * Moves inside the search are the PatState's padded indexes; the search
 * places and lifts marks on its own state (pat_place_idx, pat_lift_idx)
 * and reads everything else from it: completing squares (class counts),
 * four sets, values. */
#include "pvs.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "mberror.h"
#include "clock.h"
#include "pvs_parts.h"

PvsOptions pvs_default_options(void)
{
    PvsOptions o;
    memset(&o, 0, sizeof o);
    o.timelimit = 1;
    o.soft = 0.4;
    o.maxdepth = 40;
    /* on: what gains by SPRT (docs/engine.md); off: what did not */
    o.tt = o.lmr = o.prune = true;
    o.aspiration = o.killers = o.history = o.vcf = o.forced = false;
    o.window = 60;
    o.vcf_depth = 8;
    o.vcf_nodes = 200;
    o.root_vcf = 20;
    o.root_vct = 10;
    o.vct_nodes = 200000;
    o.vct_share = 0.15;
    o.guard = false;
    o.qdefend = false;
    o.extend = true;
    o.verify = false;
    o.verify_share = 0.15;
    o.width = 14;
    o.width1 = 10;
    o.defend = 80;
    o.weights = pat_default_weights();
    return o;
}

size_t pvs_table_bytes(int bits) { return ((size_t)1 << bits) * sizeof(PvsEntry); }

void pvs_init(Pvs *p, void *tt_mem, int bits)
{
    p->tt = tt_mem;
    p->tt_mask = ((size_t)1 << bits) - 1;
    p->gen = 0;
    pvs_clear(p);
}

void pvs_clear(Pvs *p) { memset(p->tt, 0, (p->tt_mask + 1) * sizeof *p->tt); }

/* ---- Table ---- */

static inline int to_tt(int v, int ply)
{
    return v >= PVS_WIN_BOUND ? v + ply : v <= -PVS_WIN_BOUND ? v - ply : v;
}
static inline int from_tt(int v, int ply)
{
    return v >= PVS_WIN_BOUND ? v - ply : v <= -PVS_WIN_BOUND ? v + ply : v;
}

static inline uint64_t pos_key(const PvsRun *s, Mark me)
{
    return s->ps->zkey ^ (me == MARK_X ? SIDE_KEY : 0);
}

static void table_store(PvsRun *s, uint64_t key, int depth, int score, int flag, int move, int ply)
{
    PvsEntry *e = &s->p->tt[key & s->p->tt_mask];
    bool same = e->key == key;
    if (!same && (e->flag_gen >> 2) == s->p->gen && e->depth > depth) return;
    e->key = key;
    e->score = to_tt(score, ply);
    e->depth = (int8_t)(depth < -100 ? -100 : depth > 100 ? 100 : depth);
    e->flag_gen = (uint8_t)(flag | s->p->gen << 2);
    if (move >= 0 || !same) e->move = (int16_t)move;
}

/* ---- Evaluation ---- */

static inline int eval(const PvsRun *s, Mark me)
{
    int64_t v = pat_eval(s->ps, me);
    return (int)(v > PVS_EVAL_CAP ? PVS_EVAL_CAP : v < -PVS_EVAL_CAP ? -PVS_EVAL_CAP : v);
}

/* ---- Moves ---- */

/* The moves of `me` at a node, with their ordering scores; *forced: the
 * moves are a threat answer (no pruning, no reductions). */
static int gen_moves(PvsRun *s, Mark me, int ply, int ttmove, int *mv, int *sc, bool *forced)
{
    PatState *ps = s->ps;
    const PvsOptions *o = s->o;
    Mark opp = (Mark)(3 - me);
    int n = 0;
    *forced = false;
    if (ps->count[opp][PAT_C_WIN]) {
        mv[0] = win_square(ps, opp);
        sc[0] = 0;
        *forced = true;
        return 1;
    }
    if (o->forced && (ps->count[opp][PAT_C_OPEN4] || ps->count[opp][PAT_C_FOUR2])) {
        for (int j = 0; j < ps->n4[me]; j++) mv[n++] = ps->set4[me][j];
        for (int j = 0; j < ps->n4[opp]; j++)
            if (ps->pos4[me][ps->set4[opp][j]] < 0) mv[n++] = ps->set4[opp][j];
        *forced = true;
    } else {
        for (int t = 0; t < s->ncells; t++) {
            int i = s->bidx[t];
            if (ps->cell[i] == MARK_EMPTY && ps->near[i]) mv[n++] = i;
        }
    }
    const int32_t *h = s->hist[me];
    for (int j = 0; j < n; j++) {
        int i = mv[j];
        int v = pat_move_score(ps, i, me, o->defend);
        if (o->history) v += h[i] >> 4;
        if (i == ttmove)
            v = ORDER_TT;
        else if (o->killers && i == s->killer[ply][0])
            v += ORDER_KILL1;
        else if (o->killers && i == s->killer[ply][1])
            v += ORDER_KILL2;
        sc[j] = v;
    }
    return n;
}

/* Swap the best-scored of mv[j .. n) into j. */
static inline void pick(int *mv, int *sc, int j, int n)
{
    int b = j;
    for (int t = j + 1; t < n; t++)
        if (sc[t] > sc[b]) b = t;
    int tm = mv[j], ts = sc[j];
    mv[j] = mv[b];
    sc[j] = sc[b];
    mv[b] = tm;
    sc[b] = ts;
}

/* ---- Search ---- */

static int search(PvsRun *s, Mark me, int depth, int alpha, int beta, int ply);

/* The horizon: a VCF of the side to move is a win; with qdefend, a VCF of
 * the other side (were `me` to pass) is answered: `me` tries the squares of
 * that line and its own fours, each searched at depth 0 (once on a path),
 * and a position where none holds scores as badly as an evaluation can
 * (not as a loss: the answers tried are not all the answers). */
static int qsearch(PvsRun *s, Mark me, int alpha, int beta, int ply)
{
    const PvsOptions *o = s->o;
    if (!o->vcf) return eval(s, me);
    PatState *ps = s->ps;
    s->vcf_limit = s->vcf_nodes + (uint64_t)o->vcf_nodes;
    int len = pvs_vcf(s, me, o->vcf_depth, NULL);
    if (len) return PVS_MATE - ply - len;
    if (!o->qdefend || s->qdefending || ply >= PVS_MAX_PLY - 8) return eval(s, me);
    Mark opp = (Mark)(3 - me);
    int line[2 * PVS_MAX_VCF + 4];
    s->vcf_limit = s->vcf_nodes + (uint64_t)o->vcf_nodes;
    len = pvs_vcf(s, opp, o->vcf_depth, line);
    if (!len || s->stop) return eval(s, me);
    int cand[2 * PVS_MAX_VCF + 4 + MB_MAX_CELLS], n = 0;
    for (int j = 0; j < len && line[j] >= 0; j++) cand[n++] = line[j];
    for (int j = 0; j < ps->n4[me]; j++) cand[n++] = ps->set4[me][j];
    int best = -INF;
    s->qdefending = true;
    for (int j = 0; j < n; j++) {
        int c = cand[j];
        bool seen = ps->cell[c] != MARK_EMPTY;
        for (int t = 0; t < j && !seen; t++) seen = cand[t] == c;
        if (seen) continue;
        pat_place_idx(ps, c, me);
        int v = -search(s, opp, 0, -beta, -alpha, ply + 1);
        pat_lift_idx(ps, c, me);
        if (s->stop) break;
        if (v > best) best = v;
        if (v > alpha) alpha = v;
        if (v >= beta) break;
    }
    s->qdefending = false;
    if (best <= -PVS_WIN_BOUND) best = -PVS_EVAL_CAP;
    return best;
}

static int search(PvsRun *s, Mark me, int depth, int alpha, int beta, int ply)
{
    PatState *ps = s->ps;
    const PvsOptions *o = s->o;
    Mark opp = (Mark)(3 - me);
    bool pvnode = beta - alpha > 1;
    s->pvlen[ply] = 0;
    s->nodes++;
    tick(s);
    if (s->stop) return 0;
    if (ps->count[me][PAT_C_WIN]) return PVS_MATE - ply - 1;
    int nopp = ps->count[opp][PAT_C_WIN];
    if (nopp >= 2) return -(PVS_MATE - ply - 2);
    if (nopp == 0 && ply > 0) { /* (the root must find the move itself) */
        if (ps->count[me][PAT_C_OPEN4] || ps->count[me][PAT_C_FOUR2]) return PVS_MATE - ply - 3;
        if (ps->count[me][PAT_C_FOUR3] && ps->n4[opp] == 0) return PVS_MATE - ply - 5;
    }
    if (ps->stones >= s->ncells) return 0;
    if (ply >= PVS_MAX_PLY - 2) return eval(s, me);

    uint64_t key = pos_key(s, me);
    int ttmove = -1;
    if (o->tt) {
        PvsEntry *e = &s->p->tt[key & s->p->tt_mask];
        if (e->key == key) {
            /* a table never cleared may hold anything: a move is used only
             * when it is an empty square */
            if (e->move >= 0 && e->move < ps->n && ps->cell[e->move] == MARK_EMPTY)
                ttmove = e->move;
            if (!pvnode && e->depth >= depth) {
                int v = from_tt(e->score, ply), f = e->flag_gen & 3;
                if (f == F_EXACT || (f == F_LOWER && v >= beta) || (f == F_UPPER && v <= alpha))
                    return v;
            }
        }
    }
    /* the horizon: a position with a threat to answer (a block, or an open
     * three of the other side with forced moves on) is searched on */
    if (depth <= 0 && nopp == 0 &&
        !(o->forced && (ps->count[opp][PAT_C_OPEN4] || ps->count[opp][PAT_C_FOUR2])))
        return qsearch(s, me, alpha, beta, ply);

    int mv[MB_MAX_CELLS], sc[MB_MAX_CELLS];
    bool forced;
    int n = gen_moves(s, me, ply, ttmove, mv, sc, &forced);
    if (ply == 0 && s->root_only) { /* the guard's moves, in their order */
        int kept = 0;
        for (int j = 0; j < n; j++)
            for (int t = 0; t < s->root_only; t++)
                if (s->only[t] == mv[j]) {
                    mv[kept] = mv[j];
                    sc[kept++] = sc[j];
                }
        if (kept) {
            n = kept;
            forced = true;
        }
    }
    if (n == 0) return eval(s, me);
    int best = -INF, bestmove = -1, alpha0 = alpha;
    int limit = n;
    if (o->prune && !pvnode && !forced) {
        int w = depth >= 2 ? o->width : o->width1;
        if (w > 0 && w < limit) limit = w;
    }
    for (int j = 0; j < limit; j++) {
        pick(mv, sc, j, n);
        int i = mv[j];
        int newdepth = depth - 1 + (n == 1);
        bool quiet = !forced && ps->cls[i * 2 + me - 1] < PAT_C_THREE &&
                     ps->cls[i * 2 + opp - 1] < PAT_C_THREE && sc[j] < ORDER_KILL2;
        pat_place_idx(ps, i, me);
        int v;
        if (j == 0) {
            v = -search(s, opp, newdepth, -beta, -alpha, ply + 1);
        } else {
            int r = 0;
            if (o->lmr && quiet && depth >= 3 && j >= 3) r = 1 + (depth >= 6 && j >= 8);
            v = -search(s, opp, newdepth - r, -alpha - 1, -alpha, ply + 1);
            if (v > alpha && r) v = -search(s, opp, newdepth, -alpha - 1, -alpha, ply + 1);
            if (v > alpha && v < beta) v = -search(s, opp, newdepth, -beta, -alpha, ply + 1);
        }
        pat_lift_idx(ps, i, me);
        if (s->stop) return 0;
        if (v > best) {
            best = v;
            bestmove = i;
            if (v > alpha) {
                alpha = v;
                s->pv[ply][0] = i;
                memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)s->pvlen[ply + 1] * sizeof(int));
                s->pvlen[ply] = s->pvlen[ply + 1] + 1;
                if (ply == 0) {
                    s->iter_best = i;
                    s->iter_score = v;
                }
                if (v >= beta) {
                    if (quiet) {
                        if (o->killers && s->killer[ply][0] != i) {
                            s->killer[ply][1] = s->killer[ply][0];
                            s->killer[ply][0] = i;
                        }
                        if (o->history) {
                            int32_t *h = &s->hist[me][i];
                            *h += depth * depth;
                            if (*h > (1 << 20)) *h = 1 << 20;
                        }
                    }
                    break;
                }
            }
        }
    }
    if (o->tt)
        table_store(s, key, depth, best,
                    best >= beta    ? F_LOWER
                    : best > alpha0 ? F_EXACT
                                    : F_UPPER,
                    bestmove, ply);
    return best;
}

/* ---- The root ---- */

/* A square where a wins without search (an open four, a double four, a
 * four-three or a double three when d has no four), or -1. */
static int static_win_move(const PatState *ps, Mark a)
{
    static const int order[] = {PAT_C_OPEN4, PAT_C_FOUR2, PAT_C_FOUR3, PAT_C_THREE2};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < ps->n; i++)
            if (ps->cell[i] == MARK_EMPTY && ps->cls[i * 2 + a - 1] == order[k]) return i;
    return -1;
}

/* A VCT of a (to move) deepening by two threats from 4 to depth: a deep
 * first try spends its time in long failing lines before a short win. */
static int vct_deepening(PvsRun *s, Mark a, int depth, int *line)
{
    int len = 0;
    for (int d = depth < 4 ? depth : 4; !len && !s->stop; d += 2) {
        len = pvs_vct_attack(s, a, d < depth ? d : depth, -1, line);
        if (d >= depth) break;
    }
    return s->stop ? 0 : len;
}

/* The positions a root threat search may spend: `cap`, and when the search
 * counts positions (max_nodes), no more than `share` of them, so that the
 * search proper keeps the rest as it keeps the rest of the time. */
static uint64_t node_share(const PvsRun *s, double share, int cap)
{
    uint64_t n = (uint64_t)cap;
    if (s->o->max_nodes) {
        uint64_t part = (uint64_t)(share * (double)s->o->max_nodes);
        if (part < n) n = part;
    }
    return n;
}

/* The root VCT of a within its share of the time (or of the positions):
 * plies to the win or 0. */
static int timed_vct(PvsRun *s, Mark a, double t0, int *line)
{
    const PvsOptions *o = s->o;
    double saved = s->deadline;
    if (o->timelimit > 0) s->deadline = t0 + o->vct_share * o->timelimit;
    s->vcf_limit = s->vcf_nodes + node_share(s, o->vct_share, o->vct_nodes);
    int len = pvs_vct_attack(s, a, o->root_vct, -1, line);
    if (s->stop) len = 0;
    s->stop = false;
    s->deadline = saved;
    return len;
}

/* After the search: when the other side would win by a VCT after `best`,
 * the next moves in the search's order are tried until one leaves it none,
 * within verify_share of the time (and the hard limit). The move to play. */
static int verify_move(PvsRun *s, Mark me, Mark opp, int best, double t0)
{
    const PvsOptions *o = s->o;
    PatState *ps = s->ps;
    double saved = s->deadline, until = clock_now() + o->verify_share * o->timelimit;
    if (o->timelimit > 0) s->deadline = until < t0 + o->timelimit ? until : t0 + o->timelimit;
    s->stop = false;
    int depth = o->root_vct > 0 ? o->root_vct : 8, chosen = best;
    uint64_t each = node_share(s, o->verify_share, o->vct_nodes) / 4;
    s->vcf_limit = s->vcf_nodes + each;
    pat_place_idx(ps, best, me);
    int r = vct_deepening(s, opp, depth, NULL);
    pat_lift_idx(ps, best, me);
    if (r && !s->stop) {
        int mv[MB_MAX_CELLS], sc[MB_MAX_CELLS];
        bool forced;
        int n = gen_moves(s, me, 0, best, mv, sc, &forced);
        for (int j = 0; j < n && j < 12 && !s->stop; j++) {
            pick(mv, sc, j, n);
            if (mv[j] == best) continue;
            s->vcf_limit = s->vcf_nodes + each;
            pat_place_idx(ps, mv[j], me);
            r = vct_deepening(s, opp, depth, NULL);
            pat_lift_idx(ps, mv[j], me);
            if (!r && !s->stop) {
                chosen = mv[j];
                break;
            }
        }
    }
    s->stop = false;
    s->deadline = saved;
    return chosen;
}

/* When the opponent would win by a VCT if `me` passed, keep for the root
 * only the moves after which it has none (when some exist), looked for
 * within a share of the time. */
static void guard_root(PvsRun *s, Mark me, Mark opp, double t0)
{
    const PvsOptions *o = s->o;
    PatState *ps = s->ps;
    s->root_only = 0;
    if (!o->root_vct) return;
    double saved = s->deadline;
    if (o->timelimit > 0) s->deadline = t0 + 2 * o->vct_share * o->timelimit;
    uint64_t budget = node_share(s, 2 * o->vct_share, o->vct_nodes);
    s->vcf_limit = s->vcf_nodes + budget;
    int threat = pvs_vct_attack(s, opp, o->root_vct, -1, NULL);
    if (threat && !s->stop) {
        int mv[MB_MAX_CELLS], sc[MB_MAX_CELLS], n = 0;
        bool forced;
        n = gen_moves(s, me, 0, -1, mv, sc, &forced);
        for (int j = 0; j < n && !s->stop; j++) {
            pick(mv, sc, j, n);
            pat_place_idx(ps, mv[j], me);
            s->vcf_limit = s->vcf_nodes + budget / 8;
            int r = pvs_vct_attack(s, opp, o->root_vct, -1, NULL);
            pat_lift_idx(ps, mv[j], me);
            if (!r && !s->stop && s->root_only < MB_MAX_CELLS) s->only[s->root_only++] = mv[j];
        }
        if (s->stop) s->root_only = 0; /* unfinished: no restriction */
    }
    s->stop = false;
    s->deadline = saved;
}

/* The move found, and the line shown starts with it: a move from an
 * iteration the deadline cut short, or the best-ordered one when none
 * finished, has no whole line behind it, so its line is the move alone. */
static void result_move(const PvsRun *s, PvsResult *out, int idx)
{
    out->move = idx >= 0 ? s->ps->move_of[idx] : -1;
    if (idx >= 0 && (out->npv == 0 || out->pv[0] != out->move)) {
        out->npv = 1;
        out->pv[0] = out->move;
    }
}

/* 0. Options the search cannot take. */
static bool options_ok(const PvsOptions *o)
{
    return !(o->maxdepth < 1 || o->maxdepth > PVS_MAX_PLY / 2 || o->vcf_depth < 0 ||
             o->vcf_depth > PVS_MAX_VCF || o->root_vcf < 0 || o->root_vcf > PVS_MAX_VCF ||
             o->vcf_nodes < 0 || o->width < 0 || o->width1 < 0 || !(o->soft >= 0 && o->soft <= 1) ||
             o->root_vct < 0 || o->root_vct > PVS_MAX_VCF || o->vct_nodes < 0 ||
             !(o->vct_share >= 0 && o->vct_share <= 0.5) ||
             !(o->verify_share >= 0 && o->verify_share <= 0.5));
}

/* 1. The search's state: the pattern codes of g's position, the board's
 * padded indexes, the history and VCF tables, the killers; a new table
 * generation. MB_OK or MB_ENOMEM (then nothing is held). */
static int state_open(PvsRun *s, Pvs *p, const Game *g, const PvsOptions *o, double t0)
{
    const Geometry *geo = game_geom(g);
    memset(s, 0, sizeof *s);
    s->p = p;
    s->o = o;
    s->ncells = geo->ncells;
    s->deadline = o->timelimit >= 0 ? t0 + o->timelimit : -1;
    s->ps = pat_new(geo, &o->weights);
    int16_t *bidx = malloc((size_t)geo->ncells * sizeof *bidx);
    int32_t *hist = s->ps ? calloc(2 * (size_t)s->ps->n, sizeof *hist) : NULL;
    s->vcache = calloc((size_t)1 << VCACHE_BITS, sizeof *s->vcache);
    if (!s->ps || !bidx || !hist || !s->vcache) {
        pat_free(s->ps);
        free(bidx);
        free(hist);
        free(s->vcache);
        return MB_ENOMEM;
    }
    pat_recount(s->ps, &g->board);
    for (int b = 0; b < geo->ncells; b++) bidx[b] = s->ps->idx_of[geo->move_of[b]];
    s->bidx = bidx;
    s->hist[MARK_O] = hist;
    s->hist[MARK_X] = hist + s->ps->n;
    for (int i = 0; i < PVS_MAX_PLY; i++) s->killer[i][0] = s->killer[i][1] = -1;
    p->gen = (uint8_t)((p->gen + 1) & 63);
    return MB_OK;
}

static void state_close(PvsRun *s)
{
    pat_free(s->ps);
    free((void *)s->bidx);
    free(s->hist[MARK_O]);
    free(s->vcache);
}

/* 2. A win by continuous fours (root_vcf) or threats (root_vct) for the
 * side to move: its first move into out, the VCF's line as the pv.
 * Whether one was found. */
static bool root_threats(PvsRun *s, Mark me, double t0, PvsResult *out)
{
    const PvsOptions *o = s->o;
    int line[2 * PVS_MAX_VCF + 4];
    int len = 0;
    const char *why = "vcf";
    if (o->root_vcf) {
        s->vcf_limit = s->vcf_nodes + 20000 + (uint64_t)o->vcf_nodes * 100;
        len = pvs_vcf(s, me, o->root_vcf, line);
    }
    if (!len && o->root_vct && o->timelimit != 0) {
        len = timed_vct(s, me, t0, line);
        why = "vct";
    }
    if (!len) return false;
    if (line[0] < 0) line[0] = static_win_move(s->ps, me);
    result_move(s, out, line[0]);
    out->reason = why;
    out->score = PVS_MATE - len;
    out->pv[0] = out->move;
    out->npv = 1;
    for (int j = 1; why[2] == 'f' && j < len && j < PVS_MAX_PLY && line[j] >= 0; j++) {
        out->pv[j] = s->ps->move_of[line[j]];
        out->npv = j + 1;
    }
    return true;
}

/* 3. One iteration at depth: an aspiration window around prev (from depth
 * 3, widened by 4 at each fail), else the full window. Its value. */
static int aspiration(PvsRun *s, Mark me, int depth, int prev)
{
    const PvsOptions *o = s->o;
    int w = o->window > 0 ? o->window : 1, a = -INF, b = INF, v;
    if (o->aspiration && depth >= 3 && prev > -PVS_WIN_BOUND && prev < PVS_WIN_BOUND) {
        a = prev - w;
        b = prev + w;
    }
    for (;;) {
        v = search(s, me, depth, a, b, 0);
        if (s->stop) return v;
        if (v <= a && a > -INF) {
            w *= 4;
            a = v - w < -INF ? -INF : v - w;
        } else if (v >= b && b < INF) {
            w *= 4;
            b = v + w > INF ? INF : v + w;
        } else {
            return v;
        }
    }
}

/* 4. Iterative deepening until the soft limit, a proven result, maxdepth
 * or the deadline: the depth, score and pv of the last whole iteration (or
 * of the one cut short, when it found a move) into out. The best move, or
 * -1 when no iteration gave one. */
static int deepen(PvsRun *s, Mark me, double t0, PvsResult *out)
{
    const PvsOptions *o = s->o;
    int prev = 0, best = -1;
    for (int depth = 1; depth <= o->maxdepth; depth++) {
        s->iter_best = -1;
        int v = aspiration(s, me, depth, prev);
        if (s->stop) {
            if (s->iter_best >= 0) {
                best = s->iter_best;
                out->score = s->iter_score;
            }
            out->timeout = true;
            break;
        }
        int last = best;
        if (s->pvlen[0] > 0) {
            best = s->pv[0][0];
            out->npv = s->pvlen[0];
            for (int j = 0; j < s->pvlen[0]; j++) out->pv[j] = s->ps->move_of[s->pv[0][j]];
        }
        /* an unstable search (a new best move, or a score that fell by more
         * than the window) may start one more iteration until twice the
         * soft limit */
        bool unstable = o->extend && depth >= 4 && (best != last || v < prev - o->window);
        out->score = prev = v;
        out->depth = depth;
        if (v >= PVS_WIN_BOUND || v <= -PVS_WIN_BOUND) break;
        double soft = unstable ? 2 * o->soft : o->soft;
        if (o->timelimit >= 0 && clock_now() - t0 > (soft < 1 ? soft : 1) * o->timelimit) break;
    }
    return best;
}

/* 5. The search proper: the guard, the deepening, the best-ordered move
 * when nothing completed, the verification; the move into out. */
static void search_root(PvsRun *s, Mark me, double t0, PvsResult *out)
{
    const PvsOptions *o = s->o;
    Mark opp = mark_other(me);
    if (o->guard && o->timelimit != 0) guard_root(s, me, opp, t0);
    s->stop = false;
    if (o->verify && o->timelimit > 0) /* keep the verification's share */
        s->deadline = t0 + (1 - o->verify_share) * o->timelimit;
    int best = deepen(s, me, t0, out);
    if (best < 0) { /* nothing completed: the best-ordered move */
        int mv[MB_MAX_CELLS], sc[MB_MAX_CELLS];
        bool forced;
        int n = gen_moves(s, me, 0, -1, mv, sc, &forced);
        if (n > 0) {
            pick(mv, sc, 0, n);
            best = mv[0];
        }
    }
    if (o->verify && best >= 0 && out->score > -PVS_WIN_BOUND && o->timelimit > 0) {
        int v = verify_move(s, me, opp, best, t0);
        if (v != best) {
            best = v;
            out->reason = "verify";
            out->npv = 1;
            out->pv[0] = s->ps->move_of[v];
        }
    }
    result_move(s, out, best);
}

int pvs_search(Pvs *p, const Game *g, const PvsOptions *o, PvsResult *out)
{
    memset(out, 0, sizeof *out);
    out->move = -1;
    out->reason = "search";
    if (!options_ok(o)) return MB_EINVAL;
    double t0 = clock_now();
    if (g->status != STATUS_PLAYING) return MB_OK;
    PvsRun s;
    if (state_open(&s, p, g, o, t0) != MB_OK) return MB_ENOMEM;
    PatState *ps = s.ps;
    const Geometry *geo = game_geom(g);
    Mark me = g->turn, opp = mark_other(me);
    int only[MB_MAX_CELLS], reason, nonly = pat_forced(ps, me, only, &reason);
    if (ps->stones == 0) { /* the centre */
        out->move = geometry_xy_to_move(geo, (geo->width - 1) / 2, (geo->height - 1) / 2);
        out->reason = "first";
    } else if (reason == 1 || reason == 2) { /* a win now, or a block of one */
        result_move(&s, out, only[0]);
        out->reason = reason == 1 ? "win" : "block";
        out->score = reason == 1                      ? PVS_MATE - 1
                     : ps->count[opp][PAT_C_WIN] >= 2 ? -(PVS_MATE - 2)
                                                      : 0;
    } else if (nonly == 1 && o->forced) {
        result_move(&s, out, only[0]);
        out->reason = "only";
    } else if (!root_threats(&s, me, t0, out)) {
        search_root(&s, me, t0, out);
    }
    out->nodes = s.nodes;
    out->vcf_nodes = s.vcf_nodes;
    out->seconds = clock_now() - t0;
    state_close(&s);
    return s.interrupted ? MB_EINTR : MB_OK;
}
