/* search.c: ai_abs_dls and its root driver (search.h; spec search.md §3-§4). */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "candidates.h"
#include "linefeat.h"
#include "game_hot.h"
#include "interrupt.h"
#include "mberror.h"
#include "vcf.h"

/* ------------------------------------------------------------------------
 * Life cycle and clock
 * ------------------------------------------------------------------------ */

int search_init(Search *s, Game *g, SearchEval eval, void *ud, int maxdepth)
{
    memset(s, 0, sizeof *s);
    s->game = g;
    s->eval = eval;
    s->eval_ud = ud;
    s->maxdepth = maxdepth;
    s->check_every = SEARCH_CHECK_EVERY;
    s->grow_time = 1e-7; /* until a growth is timed: 100 ns a slot */
    tt_init(&s->tt);
    tt_init(&s->tt_prev);
    search_set_hash(s, (size_t)TT_DEFAULT_HASH_MB << 20);
    if (tt_images_init(&s->img, game_geom(g)) != MB_OK) {
        search_free(s);
        return MB_ENOMEM;
    }
    return MB_OK;
}

int search_set_vcf(Search *s, int depth)
{
    s->vcf_depth = depth;
    if (depth <= 0 || s->vcf) return MB_OK;
    s->vcf = malloc(sizeof *s->vcf);
    if (!s->vcf) return MB_ENOMEM;
    if (vcf_init(s->vcf) != MB_OK) {
        free(s->vcf);
        s->vcf = NULL;
        return MB_ENOMEM;
    }
    return MB_OK;
}

void search_free(Search *s)
{
    if (s->vcf) vcf_free(s->vcf);
    free(s->vcf);
    s->vcf = NULL;
    tt_free(&s->tt);
    tt_free(&s->tt_prev);
    tt_images_free(&s->img);
}

void search_set_hash(Search *s, size_t bytes)
{
    s->hash = bytes;
    tt_set_limit(&s->tt, bytes);
    tt_set_limit(&s->tt_prev, bytes);
}

void search_set_timelimit(Search *s, double seconds)
{
    s->has_deadline = seconds >= 0;
    s->deadline = s->has_deadline ? clock_now() + seconds : 0;
}

/* ------------------------------------------------------------------------
 * Keys and table helpers
 * ------------------------------------------------------------------------ */

/* Store (lower, upper, best) under every symmetric image of the position
 * (tt_store_images: search.md §3.4). keys: the images' keys. */
static inline __attribute__((always_inline)) void
tt_store_symmetric(Search *s, const uint64_t *keys, double lower, double upper, int best, int depth)
{
    const TTImages *im = &s->img;
    /* Growing rehashes every key inside this one node, where no deadline
     * check sees it (2^19 slots took 0.2 s on a busy VM): under a deadline
     * the table grows only while twice the last growth's time per slot,
     * for the new size, is left; else this position is not stored. */
    size_t cap = s->tt.cap;
    double t0 = 0;
    if (s->has_deadline && tt_cap_for(&s->tt, (size_t)im->nsym) != cap) {
        size_t ncap = tt_cap_for(&s->tt, (size_t)im->nsym);
        t0 = clock_now();
        if (s->deadline - t0 < 2.0 * s->grow_time * (double)ncap) return;
    }
    if (tt_store_images(&s->tt, im, keys, tt_images_move(im, best), lower, upper, depth))
        s->status = SEARCH_ENOMEM;
    else if (t0 > 0 && s->tt.cap != cap)
        s->grow_time = (clock_now() - t0) / (double)s->tt.cap;
}

/* out[i] = a[i] ^ b[i] for the n (8 or 4) images: a node's keys from its
 * parent's and its move's values, two words an instruction. */
static inline void keys_xor(uint64_t *restrict out, const uint64_t *restrict a,
                            const uint64_t *restrict b, int n)
{
#if defined(__GNUC__)
    typedef uint64_t Pair __attribute__((vector_size(16)));
    if (n == 8) { /* a square board's images: four fixed steps */
        for (int j = 0; j < 8; j += 2) {
            Pair x, y;
            memcpy(&x, a + j, sizeof x);
            memcpy(&y, b + j, sizeof y);
            x ^= y;
            memcpy(out + j, &x, sizeof x);
        }
        return;
    }
    for (int j = 0; j + 1 < n; j += 2) {
        Pair x, y;
        memcpy(&x, a + j, sizeof x);
        memcpy(&y, b + j, sizeof y);
        x ^= y;
        memcpy(out + j, &x, sizeof x);
    }
    if (n & 1) out[n - 1] = a[n - 1] ^ b[n - 1];
#else
    for (int j = 0; j < n; j++) out[j] = a[j] ^ b[j];
#endif
}

/* A root's "move" values: its keys are its parent's as given. */
static const uint64_t no_add[8];

/* The values a move m by `mark` adds to the keys of each image. */
static inline const uint64_t *move_add(const Search *s, int m, unsigned mark)
{
    return tt_images_add(&s->img, m, mark);
}

/* The status that stops the search at this node: the interrupt flag or
 * the deadline, read when the count reaches next_check (every check_every
 * nodes from the count's start at 0: counts 0, every, 2 every, ...), else
 * SEARCH_OK. One comparison a node otherwise, as cheap as the test of
 * has_deadline it replaces. */
static inline int node_check(Search *s)
{
    if (s->count < s->next_check) return SEARCH_OK;
    uint32_t every = s->check_every ? s->check_every : 1;
    s->next_check = s->count - s->count % every + every;
    if (mb_interrupted()) return SEARCH_INTERRUPTED;
    if (s->has_deadline && clock_now() >= s->deadline) return SEARCH_TIMEOUT;
    return SEARCH_OK;
}

/* ------------------------------------------------------------------------
 * The αβ search
 * ------------------------------------------------------------------------ */

/* The frame that dls and pvs share: steps 1 to 3 of a node. */
typedef struct Node {
    double alpha0, beta0; /* the window after the probe (for the store) */
    double lower, upper;  /* the probed bounds, else -inf / +inf */
    uint64_t keys[8];     /* the keys of the node's images (keyed nodes
                             past the probe) */
    int n;                /* legal moves */
    int moves[MB_MAX_CELLS];
} Node;

/* The VCF win check of a node (search_set_vcf): true with *ret the
 * evaluation at the end of the winning line, or with s->status set when
 * the deadline passed during it. The game is restored. */
static bool vcf_win(Search *s, double *ret)
{
    Game *g = s->game;
    VcfOptions o = vcf_default_options();
    o.maxdepth = s->vcf_depth;
    if (s->has_deadline)
        o.timelimit = s->deadline - clock_now() > 0 ? s->deadline - clock_now() : 0;
    VcfResult r;
    if (vcf_solve(s->vcf, g, &o, &r) != MB_OK) return false;
    s->vcf_nodes += r.nodes;
    if (r.status == VCF_TIMEOUT || r.status == VCF_INTERRUPTED) {
        s->status = r.status == VCF_TIMEOUT ? SEARCH_TIMEOUT : SEARCH_INTERRUPTED;
        *ret = 0;
        return true;
    }
    if (r.status != VCF_WIN) return false;
    GameMark mark;
    game_mark(g, &mark);
    for (int i = 0; i < r.n; i++) game_move(g, r.moves[i]);
    *ret = s->eval(g, s->eval_ud);
    game_rewind(g, &mark);
    return true;
}

/* Steps 1 to 3 of a node at `depth` with window (*alpha, *beta), probing
 * s->tt when `probe_tt`. Keys: the node is keyed when pkeys is not NULL:
 * its images' keys are pkeys[i] ^ add[i] (the parent's and its move's,
 * move_add), built only where needed: the own key for the probe, all of
 * them (into nd->keys) once the node is past the probe, for its children
 * and its store; a leaf builds none. Returns true when the node ends here
 * with *ret (an abort, with s->status set; a leaf; a table cut); otherwise
 * false with the window narrowed and nd filled. Always inlined: as a call
 * it costs the benchmark call 10% more. */
static inline __attribute__((always_inline)) bool node_open(Search *s, double *alpha, double *beta,
                                                            int depth, const uint64_t *pkeys,
                                                            const uint64_t *add, bool probe_tt,
                                                            Node *nd, double *ret, BoardKind kind)
{
    Game *g = s->game;

    /* Step 1. deadline and interrupt (before counting), count, terminal or
     * depth limit */
    int stop = node_check(s);
    if (stop) {
        s->status = stop;
        *ret = 0;
        return true;
    }
    s->count++;
    if (g->status != STATUS_PLAYING || depth == s->maxdepth) {
        if (s->vcf_depth > 0 && g->status == STATUS_PLAYING && vcf_win(s, ret)) return true;
        *ret = s->eval(g, s->eval_ud);
        return true;
    }
    /* Step 1b. a VCF win of the side to move ends the node */
    if (s->vcf_depth > 0 && vcf_win(s, ret)) return true;

    /* Step 2. table probe: an exact or deciding bound ends the node, else
     * the window narrows */
    nd->lower = -INFINITY;
    nd->upper = INFINITY;
    TTEntry e;
    uint64_t key = pkeys ? pkeys[0] ^ add[0] : 0;
    if (probe_tt && pkeys && tt_probe_packed(&s->tt, s->img.key_cells, key, &e)) {
        if (tt_cut(e.lower, e.upper, alpha, beta, ret)) return true;
        nd->lower = e.lower;
        nd->upper = e.upper;
    }
    nd->alpha0 = *alpha;
    nd->beta0 = *beta;
    if (pkeys) keys_xor(nd->keys, pkeys, add, s->img.nsym);

    /* Step 3. moves in legal order (or the candidates, best first); the
     * ordering table's move swaps with the first */
    nd->n = s->candidates ? candidates_generate(g, s->candidates, nd->moves, NULL)
                          : legal_moves_scan_k(g, nd->moves, kind);
    if (nd->n < 0) {
        s->status = SEARCH_ENOMEM;
        *ret = 0;
        return true;
    }
    if (s->tt_for_mo && pkeys && tt_probe_packed(s->tt_for_mo, s->img.key_cells, key, &e)) {
        int p = 0;
        while (p < nd->n && nd->moves[p] != e.move) p++;
        if (p == nd->n) {
            s->status = SEARCH_EINTERNAL;
            *ret = 0;
            return true;
        }
        nd->moves[p] = nd->moves[0];
        nd->moves[0] = e.move;
    }
    return false;
}

/* search_abs_dls: fail-soft αβ on minimax values, in place.
 *
 * Contract. For a window (alpha, beta) the returned value v satisfies
 *   v <= alpha  -> the true value is <= v (fail low, an upper bound);
 *   v >= beta   -> the true value is >= v (fail high, a lower bound);
 *   otherwise   -> v is the exact value,
 * where "true value" is the depth-limited minimax value with the static
 * evaluation at finished positions and at depth == maxdepth. The table
 * holds [lower, upper] bounds of those values with NO depth: within one
 * root call every occurrence of a key lies at the same depth (search.md
 * §3.2). Leaves are never stored; every node entered is counted. On an
 * abort s->status is set and the value is meaningless; the game is
 * restored either way.
 *
 * The keys of the node's images are its parent's pkeys XOR its move's add
 * (node_open), or none when pkeys is NULL.
 *
 * dls_k is instantiated once per back-end and counter setting (DLS_VARIANT,
 * from BOARD_BACKENDS), recursing through `self`, its own instance, so a
 * node costs no call for its moves (game_hot.h). */
typedef double (*DlsFn)(Search *s, double alpha, double beta, int depth, const uint64_t *pkeys,
                        const uint64_t *add);
static inline __attribute__((always_inline)) double dls_k(Search *s, double alpha, double beta,
                                                          int depth, const uint64_t *pkeys,
                                                          const uint64_t *add, BoardKind kind,
                                                          bool counters, bool feat, DlsFn self)
{
    Game *g = s->game;

    /* Steps 1-3. deadline, count, leaf; table probe; moves (node_open) */
    Node nd;
    double ret;
    if (node_open(s, &alpha, &beta, depth, pkeys, add, s->use_tt, &nd, &ret, kind)) return ret;
    const int *moves = nd.moves;
    int n = nd.n;

    /* Step 4. move loop: 〇 maximises, × minimises; best is the first move
     * reaching the final score. A child's keys add the mover's mark at the
     * move's square of each image. */
    bool max_node = g->turn == MARK_O;
    double score = max_node ? -INFINITY : INFINITY;
    int best = moves[0];
    unsigned mark = g->turn;
    const uint64_t *keys = pkeys ? nd.keys : NULL;
    for (int i = 0; i < n; i++) {
        move_kf(g, moves[i], kind, counters, feat);
        double v = self(s, alpha, beta, depth + 1, keys, keys ? move_add(s, moves[i], mark) : NULL);
        unmove_kf(g, kind, counters, feat);
        if (s->status) return 0;
        if (max_node) {
            if (v > score) {
                best = moves[i];
                score = v;
            }
            if (score >= beta) break;
            if (score > alpha) alpha = score; /* fmax without the call */
        } else {
            if (v < score) {
                best = moves[i];
                score = v;
            }
            if (score <= alpha) break;
            if (score < beta) beta = score;
        }
    }

    /* Step 5. store the bounds under every symmetric image */
    if (s->use_tt) {
        tt_bounds_after(score, nd.alpha0, nd.beta0, &nd.lower, &nd.upper);
        tt_store_symmetric(s, nd.keys, nd.lower, nd.upper, best, depth);
    }
    return score;
}

/* One instance per back-end, counter setting and line features on or off
 * (linefeat.h): dls_fns[kind][counters + 2 * features]. */
#define DLS_ONE(p, id, suffix, c, f)                                                               \
    static double dls_##p##suffix(Search *s, double a, double b, int d, const uint64_t *k,         \
                                  const uint64_t *add)                                             \
    {                                                                                              \
        return dls_k(s, a, b, d, k, add, BOARD_##id, c, f, dls_##p##suffix);                       \
    }
#define DLS_VARIANT(id, p, name, sep)                                                              \
    DLS_ONE(p, id, , false, false)                                                                 \
    DLS_ONE(p, id, _c, true, false)                                                                \
    DLS_ONE(p, id, _f, false, true)                                                                \
    DLS_ONE(p, id, _cf, true, true)
BOARD_BACKENDS(DLS_VARIANT)
#undef DLS_VARIANT
#undef DLS_ONE
#define X(id, p, name, sep) {dls_##p, dls_##p##_c, dls_##p##_f, dls_##p##_cf},
static const DlsFn dls_fns[BOARD_KINDS][4] = {BOARD_BACKENDS(X)};
#undef X

/* Switch the line features on when the candidates need them, before any
 * move of the search (a search's instance is chosen by the setting at its
 * entry); false when out of memory (status set). */
static bool features_ready(Search *s)
{
    if (!s->candidates || s->game->board.feat) return true;
    if (linefeat_enable(&s->game->board) == MB_OK) return true;
    s->status = SEARCH_ENOMEM;
    return false;
}

/* The public entry: the keys of the images are built once here and passed
 * down, each child adding its move. */
double search_abs_dls(Search *s, double alpha, double beta, int depth)
{
    if (!features_ready(s)) return 0;
    uint64_t keys[8];
    bool keyed = s->use_tt || s->tt_for_mo;
    if (keyed) tt_images_keys(&s->img, s->game, keys);
    const Board *b = &s->game->board;
    return dls_fns[b->kind][b->setting](s, alpha, beta, depth, keyed ? keys : NULL, no_add);
}

/* ------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------ */

int search_run(Search *s, double *score)
{
    GameMark mark;
    game_mark(s->game, &mark);
    s->count = 0;
    s->next_check = 0;
    s->status = SEARCH_OK;
    double v = s->pvs ? search_pvs_dls(s, -INFINITY, INFINITY, 0)
                      : search_abs_dls(s, -INFINITY, INFINITY, 0);
    game_rewind(s->game, &mark);
    *score = s->status ? 0 : v;
    return s->status;
}

int search_root(Search *s, bool share_tt, Rng *rng, SearchRootResult *out)
{
    Game *g = s->game;
    double t0 = clock_now();
    GameMark mark;
    game_mark(g, &mark);
    bool max_node = g->turn == MARK_O;
    if (!features_ready(s)) return s->status;
    out->nmoves = s->candidates ? candidates_generate(g, s->candidates, out->moves, NULL)
                                : game_legal_moves(g, out->moves);
    out->bestmove = MOVE_NONE;
    out->total = 0;
    tt_clear(&s->tt);
    int rc = SEARCH_OK, done = 0;
    for (int i = 0; i < out->nmoves; i++) {
        int m = out->moves[i];
        if (!share_tt) tt_clear(&s->tt);
        game_move(g, m);
        double v;
        rc = search_run(s, &v);
        game_unmove(g);
        out->total += s->count;
        out->counts[i] = s->count;
        out->scores[i] = v;
        if (rc) break;
        done++;
    }
    game_rewind(g, &mark);
    out->ncandidates =
        search_ties(out->moves, out->scores, done, max_node, out->candidates, &out->best_score);
    out->time = clock_now() - t0;
    if (rc) return rc;
    if (out->ncandidates > 0) out->bestmove = search_pick(out->candidates, out->ncandidates, rng);
    return SEARCH_OK;
}

int search_ties(const int *moves, const double *scores, int n, bool maximize, int *ties,
                double *best)
{
    int nties = 0;
    *best = maximize ? -INFINITY : INFINITY;
    for (int i = 0; i < n; i++) {
        double v = scores[i];
        if (maximize ? v > *best : v < *best) {
            *best = v;
            nties = 0;
        }
        if (v == *best) ties[nties++] = moves[i];
    }
    return nties;
}

int search_pick(const int *ties, int nties, Rng *rng)
{
    return ties[rng ? rng_choice_index(rng, nties) : 0];
}

/* ------------------------------------------------------------------------
 * ai_pvs_dls (ais.md §7.6)
 * ------------------------------------------------------------------------ */

/* search_pvs_dls: principal variation search (ai_pvs_dls, ais.md §7.6),
 * fail-soft, in place, always with the table.
 *
 * Contract. The same as dls's: for a window (alpha, beta) the returned v is
 * an upper bound when v <= alpha, a lower bound when v >= beta, otherwise
 * the exact depth-limited minimax value; the table holds bounds without
 * depth; leaves are never stored; every node entered is counted, the
 * null-window tests and the re-searches included. Scores are whole numbers
 * apart where a null window matters: the series' width of 1 is kept (a
 * window (α, α+1) at a max node, (β-1, β) at a min node), so the node
 * counts are the series'. On an abort s->status is set and the value is
 * meaningless; the game is restored either way. */
static double pvs(Search *s, double alpha, double beta, int depth, const uint64_t *pkeys,
                  const uint64_t *add)
{
    Game *g = s->game;

    /* Steps 1-3. deadline, count, leaf; table probe; moves (node_open) */
    Node nd;
    double ret;
    if (node_open(s, &alpha, &beta, depth, pkeys, add, true, &nd, &ret, g->board.kind)) return ret;
    const int *moves = nd.moves;
    int n = nd.n;

    /* Step 4. the first move with the full window */
    bool max_node = g->turn == MARK_O;
    unsigned mark = g->turn;
    const uint64_t *keys = nd.keys, *ck;
    game_move(g, moves[0]);
    ck = move_add(s, moves[0], mark);
    double score = pvs(s, alpha, beta, depth + 1, keys, ck);
    game_unmove(g);
    if (s->status) return 0;
    int best = moves[0];

    /* Step 5. every later move: a null-window test, and a full-window
     * re-search when the test lands inside the window; a cut ends the loop.
     * The move stays on the board until its re-search is done. */
    if (max_node) {
        alpha = fmax(alpha, score);
        for (int i = 1; i < n && score < beta; i++) {
            game_move(g, moves[i]);
            ck = move_add(s, moves[i], mark);
            double v = pvs(s, alpha, alpha + 1, depth + 1, keys, ck);
            if (s->status) break;
            if (v > score) best = moves[i];
            score = fmax(score, v);
            if (score < beta && score > alpha) {
                v = pvs(s, alpha, beta, depth + 1, keys, ck);
                if (s->status) break;
                if (v > score) best = moves[i];
                score = fmax(score, v);
                alpha = score < beta ? fmax(alpha, score) : alpha;
            }
            game_unmove(g);
        }
    } else {
        beta = fmin(beta, score);
        for (int i = 1; i < n && score > alpha; i++) {
            game_move(g, moves[i]);
            ck = move_add(s, moves[i], mark);
            double v = pvs(s, beta - 1, beta, depth + 1, keys, ck);
            if (s->status) break;
            if (v < score) best = moves[i];
            score = fmin(score, v);
            if (score > alpha && score < beta) {
                v = pvs(s, alpha, beta, depth + 1, keys, ck);
                if (s->status) break;
                if (v < score) best = moves[i];
                score = fmin(score, v);
                beta = score > alpha ? fmin(beta, score) : beta;
            }
            game_unmove(g);
        }
    }
    if (s->status) { /* an abort inside the loop left its move on */
        game_unmove(g);
        return 0;
    }

    /* Step 6. store the bounds under every symmetric image */
    tt_bounds_after(score, nd.alpha0, nd.beta0, &nd.lower, &nd.upper);
    tt_store_symmetric(s, nd.keys, nd.lower, nd.upper, best, depth);
    return score;
}

double search_pvs_dls(Search *s, double alpha, double beta, int depth)
{
    if (!features_ready(s)) return 0;
    uint64_t keys[8];
    tt_images_keys(&s->img, s->game, keys);
    return pvs(s, alpha, beta, depth, keys, no_add);
}

int search_pv(Game *g, const TT *tt, int bestmove, int *pv)
{
    int ncells = game_geom(g)->ncells;
    GameMark mark;
    game_mark(g, &mark);
    int n = 0, m = bestmove;
    while (g->status == STATUS_PLAYING && n < ncells) {
        pv[n++] = m;
        if (m < 0 || m >= ncells || game_get(g, m) != MARK_EMPTY) break; /* guard */
        game_move(g, m);
        TTEntry e;
        if (!tt_probe_packed(tt, tt_key_cells(ncells), tt_position_key(g), &e)) break;
        m = e.move;
    }
    game_rewind(g, &mark);
    return n;
}
