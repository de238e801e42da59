/* fulldepth.c: the series' full-depth searchers (fulldepth.h; spec ais.md
 * §6, §7.1–7.4). Every recursive search counts one node on entry, then
 * returns the terminal value once the game is over; children are played
 * and taken back on the one game (game_move / game_unmove). */
#include "fulldepth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "candidates.h"
#include "interrupt.h"
#include "mberror.h"
#include "symmetry.h"

/* ---- Small helpers ---- */

/* The moves searched at a node: the legal moves in legal order, or the
 * candidates at distance opt.candidates, best first (candidates.h; 0 on
 * lack of memory, noted in s->nomem). */
static int node_moves(FullDepth *s, Game *g, int *moves)
{
    if (!s->opt.candidates) return game_legal_moves(g, moves);
    int n = candidates_generate(g, s->opt.candidates, moves, NULL);
    if (n < 0) {
        s->nomem = true;
        return 0;
    }
    return n;
}

/* The larger / smaller of two values (no libm). */
static double dmax(double a, double b) { return a > b ? a : b; }
static double dmin(double a, double b) { return a < b ? a : b; }

/* Count a node entered; true when the interrupt flag (interrupt.h) stops
 * the search: every node still open then returns at once (its value
 * meaningless) and nothing more is stored, so the call unwinds in a few
 * steps per level. One load of the flag a node. */
static inline bool enter(FullDepth *s)
{
    s->count++;
    if (!mb_interrupted()) return false;
    s->interrupted = true;
    return true;
}

/* The terminal value of a finished game (§2.4): plain ±1 / 0, or with sv
 * (11 - move_count) / 2 for a 〇 win and (move_count - 10) / 2 for a × win. */
static double terminal_value(const Game *g, bool sv)
{
    switch (g->status) {
    case STATUS_O: return sv ? (11 - g->move_count) / 2.0 : 1.0;
    case STATUS_X: return sv ? (g->move_count - 10) / 2.0 : -1.0;
    default: return 0.0;
    }
}

/* The packed key of the position searched. */
static uint64_t own_key(const FullDepth *s) { return tt_position_key(s->game); }

/* The packed keys of the position under each symmetry of the shape, in
 * table order (calc_same_boardtexts; duplicates kept, a later store
 * overwrites an earlier equal key). Returns how many. */
static int sym_keys(const FullDepth *s, uint64_t keys[SYM_COUNT])
{
    tt_images_keys(&s->img, s->game, keys);
    return s->img.nsym;
}

/* ---- The exact-value map: (packed board, α, β) -> value ---- */

/* A hash of the key; -0.0 and 0.0 hash alike, as they compare equal. */
static uint64_t xhash(uint64_t board, double a, double b)
{
    uint64_t ua, ub;
    a += 0.0;
    b += 0.0;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint64_t h = board ^ (ua * 0x9E3779B97F4A7C15u) ^ (ub * 0xC2B2AE3D27D4EB4Fu);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 29;
    h *= 0x94D049BB133111EBu;
    h ^= h >> 32;
    return h;
}

/* The slot of key in m (m->cap > 0): its own, or the empty one where it
 * would go (linear probing). */
static size_t xslot(const SrXMap *m, uint64_t board, double a, double b)
{
    size_t i = (size_t)xhash(board, a, b) & (m->cap - 1);
    while (m->e[i].used && !(m->e[i].board == board && m->e[i].a == a && m->e[i].b == b))
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* True and *v set when (board, a, b) is stored. */
static bool xmap_get(const SrXMap *m, uint64_t board, double a, double b, double *v)
{
    if (m->count == 0) return false;
    size_t i = xslot(m, board, a, b);
    if (!m->e[i].used) return false;
    *v = m->e[i].v;
    return true;
}

/* Store (board, a, b) -> v, overwriting; MB_OK or MB_ENOMEM (unchanged).
 * At its limit (max_cap) the map stops growing and a new key is dropped
 * (full set): the values it keeps stay exact. */
static int xmap_put(SrXMap *m, uint64_t board, double a, double b, double v)
{
    if ((m->count + 1) * 2 > m->cap && m->max_cap && m->cap >= m->max_cap) {
        size_t i = xslot(m, board, a, b);
        if (m->e[i].used)
            m->e[i].v = v;
        else
            m->full = true;
        return MB_OK;
    }
    if ((m->count + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 4096;
        if (m->max_cap && ncap > m->max_cap) ncap = m->max_cap;
        SrXEntry *ne = calloc(ncap, sizeof *ne);
        if (!ne) return MB_ENOMEM;
        SrXMap nm = {ne, ncap, m->count, m->max_cap, m->full};
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].used) nm.e[xslot(&nm, m->e[i].board, m->e[i].a, m->e[i].b)] = m->e[i];
        free(m->e);
        *m = nm;
    }
    size_t i = xslot(m, board, a, b);
    if (!m->e[i].used) {
        m->e[i] = (SrXEntry){board, a, b, v, true};
        m->count++;
    } else {
        m->e[i].v = v;
    }
    return MB_OK;
}

/* Forget every entry of m, keeping the memory. */
static void xmap_clear(SrXMap *m)
{
    if (m->e) memset(m->e, 0, m->cap * sizeof *m->e);
    m->count = 0;
    m->full = false;
}

/* Store v under (k, a, b) for every symmetric key k of the position. */
static void xstore_sym(FullDepth *s, double a, double b, double v)
{
    if (s->interrupted) return;
    uint64_t keys[SYM_COUNT];
    int n = sym_keys(s, keys);
    for (int i = 0; i < n; i++)
        if (xmap_put(&s->xmap, keys[i], a, b, v) != MB_OK) s->nomem = true;
}

/* Store the bounds (lo, hi) under every symmetric key in the bound table. */
static void tstore_sym(FullDepth *s, double lo, double hi)
{
    if (s->interrupted) return;
    static const int none[SYM_COUNT] = {MOVE_NONE, MOVE_NONE, MOVE_NONE, MOVE_NONE,
                                        MOVE_NONE, MOVE_NONE, MOVE_NONE, MOVE_NONE};
    uint64_t keys[SYM_COUNT];
    sym_keys(s, keys);
    /* the depth: the marks, fewer the more plies below */
    if (tt_store_images(&s->tt, &s->img, keys, none, lo, hi, s->game->move_count) != MB_OK)
        s->nomem = true;
}

/* ---- Minimax ---- */

/* ai_mmdfs / ai_mmdfs_tt / ai_mmdfs_all: the minimax value of the game.
 * With use_tt, an exact value stored under the position's key is returned
 * at once; a computed one is stored under every symmetric key. */
static double mm(FullDepth *s, bool use_tt)
{
    Game *g = s->game;
    if (enter(s)) return 0;
    if (g->status != STATUS_PLAYING) return terminal_value(g, s->sv);
    double v;
    if (use_tt && xmap_get(&s->xmap, own_key(s), 0, 0, &v)) return v;
    int moves[MB_MAX_CELLS], n = node_moves(s, g, moves);
    bool maxn = g->turn == MARK_O;
    double best = maxn ? -INFINITY : INFINITY;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        v = mm(s, use_tt);
        game_unmove(g);
        best = maxn ? dmax(best, v) : dmin(best, v);
    }
    if (use_tt) xstore_sym(s, 0, 0, best);
    return best;
}

/* ---- αβ without tables ---- */

/* ai_abs: fail-hard αβ; a cut returns the child's value, otherwise the
 * narrowed bound (α at a max node, β at a min node). */
static double ab_hard(FullDepth *s, double a, double b)
{
    Game *g = s->game;
    if (enter(s)) return 0;
    if (g->status != STATUS_PLAYING) return terminal_value(g, s->sv);
    int moves[MB_MAX_CELLS], n = node_moves(s, g, moves);
    bool maxn = g->turn == MARK_O;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        double v = ab_hard(s, a, b);
        game_unmove(g);
        if (maxn) {
            if (v >= b) return v;
            a = dmax(a, v);
        } else {
            if (v <= a) return v;
            b = dmin(b, v);
        }
    }
    return maxn ? a : b;
}

/* ai_abs2 / ai_abs3 / ai_nws_3score2 (strict false) and ai_nws_3score
 * (strict true): fail-soft αβ returning the best child value; strict cuts
 * only when the value passes the bound (s > β, s < α). */
static double ab_soft(FullDepth *s, double a, double b, bool strict)
{
    Game *g = s->game;
    if (enter(s)) return 0;
    if (g->status != STATUS_PLAYING) return terminal_value(g, s->sv);
    int moves[MB_MAX_CELLS], n = node_moves(s, g, moves);
    bool maxn = g->turn == MARK_O;
    double best = maxn ? -INFINITY : INFINITY;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        double v = ab_soft(s, a, b, strict);
        game_unmove(g);
        if (maxn) {
            best = dmax(best, v);
            if (strict ? best > b : best >= b) return best;
            a = dmax(a, best);
        } else {
            best = dmin(best, v);
            if (strict ? best < a : best <= a) return best;
            b = dmin(b, best);
        }
    }
    return best;
}

/* ---- ai_abs_tt: exact values keyed by (board key, α, β) ---- */

/* Fail-hard αβ whose result, computed with entry window (α, β), is stored
 * under (k, α, β) for every symmetric key k and returned on a later hit. */
static double ab_tt(FullDepth *s, double a, double b)
{
    Game *g = s->game;
    if (enter(s)) return 0;
    if (g->status != STATUS_PLAYING) return terminal_value(g, s->sv);
    double v, a0 = a, b0 = b;
    if (xmap_get(&s->xmap, own_key(s), a, b, &v)) return v;
    int moves[MB_MAX_CELLS], n = node_moves(s, g, moves);
    bool maxn = g->turn == MARK_O;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        v = ab_tt(s, a, b);
        game_unmove(g);
        if (maxn) {
            if (v >= b) {
                a = v;
                break;
            }
            a = dmax(a, v);
        } else {
            if (v <= a) {
                b = v;
                break;
            }
            b = dmin(b, v);
        }
    }
    v = maxn ? a : b;
    xstore_sym(s, a0, b0, v);
    return v;
}

/* ---- The bound-table family ---- */

/* PROBE (when s->use_table): a stored exact value or a bound outside the
 * window ends the node (true, *ret set); otherwise the window is narrowed
 * and *lo, *hi hold the stored bounds (or MISS_DEFAULT on a miss). */
static bool probe(FullDepth *s, double *a, double *b, double *lo, double *hi, double *ret)
{
    *lo = s->miss_lo;
    *hi = s->miss_hi;
    if (!s->use_table) return false;
    TTEntry e;
    if (!tt_probe_packed(&s->tt, s->ncells, own_key(s), &e)) return false;
    *lo = e.lower;
    *hi = e.upper;
    return tt_cut(e.lower, e.upper, a, b, ret);
}

/* STORE2 / STORE3 (when s->use_table) of result v against the window
 * (a0, b0) taken after the probe; lo, hi are the probed or default bounds. */
static void store_bounds(FullDepth *s, double v, double a0, double b0, double lo, double hi)
{
    if (!s->use_table) return;
    if (s->store2)
        tt_bounds_fresh(v, a0, b0, &lo, &hi);
    else
        tt_bounds_after(v, a0, b0, &lo, &hi);
    tstore_sym(s, lo, hi);
}

/* ai_abs_tt2/3/4, ai_nws_3score_tt, ai_abs_all and ai_mtdf's inner search:
 * PROBE, fail-soft αβ with break on a cut, STORE. */
static double ab_bound(FullDepth *s, double a, double b)
{
    Game *g = s->game;
    if (enter(s)) return 0;
    if (g->status != STATUS_PLAYING) return terminal_value(g, s->sv);
    double lo, hi, best;
    if (probe(s, &a, &b, &lo, &hi, &best)) return best;
    double a0 = a, b0 = b;
    int moves[MB_MAX_CELLS], n = node_moves(s, g, moves);
    fulldepth_order_moves(g, s->order, moves, n);
    bool maxn = g->turn == MARK_O;
    best = maxn ? -INFINITY : INFINITY;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        double v = ab_bound(s, a, b);
        game_unmove(g);
        if (maxn) {
            best = dmax(best, v);
            if (best >= b) break;
            a = dmax(a, best);
        } else {
            best = dmin(best, v);
            if (best <= a) break;
            b = dmin(b, best);
        }
    }
    store_bounds(s, best, a0, b0, lo, hi);
    return best;
}

/* ai_scout: the prologue and table of ab_bound; the first child gets the
 * full window, the others a null-window test (width 1) and, when it fails
 * on the wrong side of the bound, a full-window re-search. */
static double scout(FullDepth *s, double a, double b)
{
    Game *g = s->game;
    if (enter(s)) return 0;
    if (g->status != STATUS_PLAYING) return terminal_value(g, s->sv);
    double lo, hi, best;
    if (probe(s, &a, &b, &lo, &hi, &best)) return best;
    double a0 = a, b0 = b;
    int moves[MB_MAX_CELLS], n = node_moves(s, g, moves);
    fulldepth_order_moves(g, s->order, moves, n);
    bool maxn = g->turn == MARK_O;
    game_move(g, moves[0]);
    best = scout(s, a, b);
    game_unmove(g);
    if (maxn) {
        a = dmax(a, best);
        for (int i = 1; i < n && best < b; i++) {
            game_move(g, moves[i]);
            best = dmax(best, scout(s, a, a + 1));
            if (best >= b) {
                game_unmove(g);
                break;
            }
            if (best > a) {
                best = dmax(best, scout(s, a, b));
                if (best >= b) {
                    game_unmove(g);
                    break;
                }
                a = dmax(a, best);
            }
            game_unmove(g);
        }
    } else {
        b = dmin(b, best);
        for (int i = 1; i < n && best > a; i++) {
            game_move(g, moves[i]);
            best = dmin(best, scout(s, b - 1, b));
            if (best <= a) {
                game_unmove(g);
                break;
            }
            if (best < b) {
                best = dmin(best, scout(s, a, b));
                if (best <= a) {
                    game_unmove(g);
                    break;
                }
                b = dmin(b, best);
            }
            game_unmove(g);
        }
    }
    store_bounds(s, best, a0, b0, lo, hi);
    return best;
}

/* ai_mtdf's driver: null-window passes of ab_bound around the guess f
 * (starting at 0) until the lower and upper bounds meet. */
static double mtdf(FullDepth *s, double lb, double ub)
{
    double f = 0;
    while (lb != ub && !s->interrupted) {
        double beta = lb == f ? f + 1 : f;
        f = ab_bound(s, beta - 1, beta);
        if (f >= beta)
            lb = f;
        else
            ub = f;
    }
    return f;
}

/* ---- Public ---- */

/* See fulldepth.h. */
void fulldepth_init(FullDepth *s, FullDepthId id, const FullDepthOpts *opt)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    if (opt) s->opt = *opt;
    tt_init(&s->tt);
    fulldepth_set_hash(s, (size_t)TT_DEFAULT_HASH_MB << 20);
}

/* See fulldepth.h. */
void fulldepth_set_hash(FullDepth *s, size_t bytes)
{
    tt_set_limit(&s->tt, bytes);
    size_t cap = 0;
    if (bytes) {
        cap = 4096;
        while (cap * 2 * sizeof(SrXEntry) <= bytes && cap < ((size_t)1 << 40)) cap *= 2;
    }
    if (cap && s->xmap.cap > cap) {
        free(s->xmap.e);
        s->xmap = (SrXMap){0};
    }
    s->xmap.max_cap = cap;
}

/* See fulldepth.h. */
bool fulldepth_table_full(const FullDepth *s) { return s->xmap.full || s->tt.full; }

/* Empty both tables (memory kept); the counter is untouched. */
static void clear_tables(FullDepth *s)
{
    xmap_clear(&s->xmap);
    tt_clear(&s->tt);
}

/* See fulldepth.h. */
void fulldepth_clear(FullDepth *s)
{
    clear_tables(s);
    s->count = 0;
    s->nomem = false;
    s->interrupted = false;
}

/* See fulldepth.h. */
void fulldepth_free(FullDepth *s)
{
    size_t max_cap = s->xmap.max_cap;
    free(s->xmap.e);
    s->xmap = (SrXMap){0};
    s->xmap.max_cap = max_cap;
    tt_free(&s->tt);
    tt_images_free(&s->img);
}

/* See fulldepth.h. */
size_t fulldepth_table_count(const FullDepth *s) { return s->xmap.count + tt_count(&s->tt); }

/* See fulldepth.h. */
const char *fulldepth_name(FullDepthId id)
{
    static const char *const names[FULL_COUNT] = {
        "ai_mmdfs",     "ai_mmdfs_tt",   "ai_abs",         "ai_abs2",
        "ai_abs3",      "ai_abs_tt",     "ai_abs_tt2",     "ai_abs_tt3",
        "ai_abs_tt4",   "ai_nws_3score", "ai_nws_3score2", "ai_nws_3score_tt",
        "ai_mmdfs_all", "ai_abs_all",    "ai_scout",       "ai_mtdf",
    };
    return (unsigned)id < FULL_COUNT ? names[id] : "?";
}

/* Set the bound-table configuration of a call. */
static void bound_cfg(FullDepth *s, bool use_table, bool store2, double lo, double hi)
{
    s->use_table = use_table;
    s->store2 = store2;
    s->miss_lo = lo;
    s->miss_hi = hi;
}

/* fulldepth_run without the record's safekeeping. */
static double run(FullDepth *s, Game *g)
{
    s->game = g;
    s->ncells = game_geom(g)->ncells;
    const Geometry *geo = game_geom(g);
    if (!s->img.add || s->img.width != geo->width || s->img.height != geo->height) {
        tt_images_free(&s->img);
        if (tt_images_init(&s->img, geo) != MB_OK) {
            s->nomem = true;
            return 0;
        }
    }
    bool sv = s->opt.shortest_victory;
    double mn = sv ? -2 : -1, mx = sv ? 3 : 1;
    double lo = s->opt.init_ab ? mn : -INFINITY, hi = s->opt.init_ab ? mx : INFINITY;
    s->sv = false;
    bound_cfg(s, false, false, -INFINITY, INFINITY);
    s->order = FULL_ORDER_NONE;
    switch (s->id) {
    case FULL_MMDFS: return mm(s, false);
    case FULL_ABS: return ab_hard(s, -INFINITY, INFINITY);
    case FULL_ABS2: return ab_soft(s, -INFINITY, INFINITY, false);
    case FULL_ABS3: return ab_soft(s, -1, 1, false);
    case FULL_NWS_3SCORE: return ab_soft(s, 0, 0, true);
    case FULL_NWS_3SCORE2: return ab_soft(s, -0.5, 0.5, false);
    case FULL_NWS_3SCORE_TT:
        clear_tables(s);
        bound_cfg(s, true, false, -1, 1);
        return ab_bound(s, -0.05, 0.05);
    default: break;
    }
    s->sv = sv;
    switch (s->id) {
    case FULL_MMDFS_TT: clear_tables(s); return mm(s, true);
    case FULL_ABS_TT: clear_tables(s); return ab_tt(s, -INFINITY, INFINITY);
    case FULL_ABS_TT2:
        clear_tables(s);
        bound_cfg(s, true, true, -INFINITY, INFINITY);
        return ab_bound(s, -INFINITY, INFINITY);
    case FULL_ABS_TT3:
        clear_tables(s);
        bound_cfg(s, true, false, -INFINITY, INFINITY);
        return ab_bound(s, -INFINITY, INFINITY);
    case FULL_ABS_TT4:
        clear_tables(s);
        bound_cfg(s, true, false, mn, mx);
        return ab_bound(s, mn, mx);
    case FULL_MMDFS_ALL: return mm(s, s->opt.use_tt);
    default: break;
    }
    s->order = s->opt.order;
    switch (s->id) {
    case FULL_ABS_ALL: bound_cfg(s, s->opt.use_tt, false, mn, mx); return ab_bound(s, lo, hi);
    case FULL_SCOUT: bound_cfg(s, s->opt.use_tt, false, mn, mx); return scout(s, lo, hi);
    case FULL_MTDF: bound_cfg(s, s->opt.use_tt, false, mn, mx); return mtdf(s, lo, hi);
    default: return NAN;
    }
}

/* See fulldepth.h. The moves taken back also drop a replayed future from
 * the record: the mark puts it back. */
double fulldepth_run(FullDepth *s, Game *g)
{
    GameMark mark;
    game_mark(g, &mark);
    double v = run(s, g);
    game_rewind(g, &mark);
    return v;
}

/* True and *v set when the table of s (or the rules, for a finished game)
 * proves that the o-view value of g equals want: an exact entry, or a bound
 * that the parent's best value `want` makes exact (a child of a max node is
 * at most want, so lower >= want proves it; the mirror at a min node). */
static bool pv_proves(FullDepth *s, bool parent_max, double want)
{
    Game *g = s->game;
    if (g->status != STATUS_PLAYING) return terminal_value(g, s->sv) == want;
    double v;
    if (s->id == FULL_MMDFS_ALL)
        return s->opt.use_tt && xmap_get(&s->xmap, own_key(s), 0, 0, &v) && v == want;
    if (!s->use_table) return false;
    TTEntry e;
    if (!tt_probe_packed(&s->tt, s->ncells, own_key(s), &e)) return false;
    if (e.lower == e.upper) return e.lower == want;
    return parent_max ? e.lower >= want : e.upper <= want;
}

/* See fulldepth.h. */
int fulldepth_pv(FullDepth *s, Game *g, int first, double value, int *pv, bool *complete)
{
    int n = 0;
    *complete = true;
    if (g->status != STATUS_PLAYING || first < 0 || first >= game_geom(g)->ncells ||
        game_get(g, first) != MARK_EMPTY)
        return 0;
    s->game = g;
    GameMark mark;
    game_mark(g, &mark);
    pv[n++] = first;
    game_move(g, first);
    while (g->status == STATUS_PLAYING) {
        int moves[MB_MAX_CELLS], nm = game_legal_moves(g, moves), found = -1;
        bool maxn = g->turn == MARK_O;
        for (int i = 0; i < nm && found < 0; i++) {
            game_move(g, moves[i]);
            if (pv_proves(s, maxn, value)) found = moves[i];
            game_unmove(g);
        }
        if (found < 0) {
            *complete = false;
            break;
        }
        pv[n++] = found;
        game_move(g, found);
    }
    game_rewind(g, &mark);
    return n;
}

/* See fulldepth.h. */
int fulldepth_root(Game *g, FullDepthId id, const FullDepthOpts *opt, bool shared,
                   FullDepthRoot *out)
{
    FullDepth s;
    fulldepth_init(&s, id, opt);
    int rc = fulldepth_root_with(&s, g, shared, out);
    fulldepth_free(&s);
    return rc;
}

/* See fulldepth.h. */
int fulldepth_root_with(FullDepth *s0, Game *g, bool shared, FullDepthRoot *out)
{
    FullDepth s = *s0;
    memset(out, 0, sizeof *out);
    out->n = node_moves(&s, g, out->moves);
    GameMark mark;
    game_mark(g, &mark);
    s.interrupted = false;
    for (int i = 0; i < out->n && !s.interrupted; i++) {
        if (!shared) clear_tables(&s);
        uint64_t c0 = s.count;
        game_move(g, out->moves[i]);
        out->values[i] = run(&s, g);
        game_rewind(g, &mark);
        out->counts[i] = s.count - c0;
        out->total += out->counts[i];
    }
    out->table_count = fulldepth_table_count(&s);
    *s0 = s;
    return s.interrupted ? MB_EINTR : s.nomem ? MB_ENOMEM : MB_OK;
}
