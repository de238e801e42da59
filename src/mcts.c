/* mcts.c: UCT and MCTS-Solver (mcts.h).
 *
 * The tree is an arena of nodes; a node's children are one contiguous
 * block, made when the node grows. Proven values are kept for the side
 * that moved into a node: +1 it wins, 0 draw, -1 it loses. */
#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "mberror.h"
#include "clock.h"

#define UNPROVEN 2

typedef struct Node {
    int32_t first; /* first child, or -1 before the node grows */
    uint32_t visits;
    float score; /* results for the side that moved into the node */
    float prior;
    int16_t move; /* MOVE_NONE at a fresh root */
    uint16_t nchildren;
    int8_t proven;    /* +1, 0, -1 or UNPROVEN */
    uint8_t terminal; /* the move ends the game (known after a first visit) */
    uint8_t complete; /* the children are every empty square */
    uint8_t seen;     /* visited once: terminal is known */
} Node;

struct Mcts {
    MctsOptions o;
    Node *nodes;
    size_t cap, used;
    int32_t root;
    int *root_moves; /* the root position: the moves from the start */
    int root_len;
    int width, height, k; /* the shape of the tree's game (0: no tree) */
    uint64_t s[4];        /* xoshiro256** */
    int ncells;
    int *empties;    /* scratch: playout squares / candidates */
    uint32_t *stamp; /* candidate marks by generation */
    uint32_t gen;
    double *pri;    /* scratch priors */
    int32_t *path;  /* selection path */
    bool own_arena; /* nodes were allocated here */
    bool full;      /* the arena refused a node's children this search */
    Game work;      /* a list1d copy of the position, for speed */
    bool work_ready;
};

/* ---- random numbers: xoshiro256**, seeded by splitmix64 ---- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next_u64(Mcts *m)
{
    uint64_t *s = m->s;
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

/* Uniform in [0, n) (Lemire's multiply-shift, unbiased enough for n < 2^16). */
static int below(Mcts *m, int n) { return (int)(((next_u64(m) >> 32) * (uint64_t)n) >> 32); }


/* ---- life cycle ---- */

MctsOptions mcts_default_options(void)
{
    MctsOptions o;
    memset(&o, 0, sizeof o);
    o.c = 0.7;
    o.radius = 2;
    o.expand_after = 1;
    o.max_nodes = (size_t)1 << 20;
    o.prior_weight = 1.0;
    return o;
}

size_t mcts_node_size(void) { return sizeof(Node); }

static bool options_ok(const MctsOptions *o)
{
    return o && o->c >= 0 && isfinite(o->c) && o->radius >= 0 && o->expand_after >= 1 &&
           isfinite(o->prior_weight);
}

Mcts *mcts_new_in(const MctsOptions *o, void *arena, size_t bytes)
{
    size_t cap = bytes / sizeof(Node);
    if (!options_ok(o) || !arena || cap < 2 || cap > ((size_t)1 << 31)) return NULL;
    Mcts *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->o = *o;
    m->cap = cap;
    m->nodes = arena;
    mcts_reseed(m, o->seed);
    return m;
}

Mcts *mcts_new(const MctsOptions *o)
{
    if (!options_ok(o) || o->max_nodes < 2 || o->max_nodes > ((size_t)1 << 31)) return NULL;
    Node *nodes = malloc(o->max_nodes * sizeof *nodes);
    if (!nodes) return NULL;
    Mcts *m = mcts_new_in(o, nodes, o->max_nodes * sizeof *nodes);
    if (!m) {
        free(nodes);
        return NULL;
    }
    m->own_arena = true;
    return m;
}

static void free_scratch(Mcts *m)
{
    free(m->root_moves);
    free(m->empties);
    free(m->stamp);
    free(m->pri);
    free(m->path);
    m->root_moves = m->empties = NULL;
    m->stamp = NULL;
    m->pri = NULL;
    m->path = NULL;
}

void mcts_free(Mcts *m)
{
    if (!m) return;
    free_scratch(m);
    if (m->own_arena) free(m->nodes);
    if (m->work_ready) game_free(&m->work);
    free(m);
}

void mcts_reset(Mcts *m)
{
    m->used = 0;
    m->width = m->height = m->k = 0;
    m->root_len = 0;
}

void mcts_reseed(Mcts *m, uint64_t seed)
{
    for (int i = 0; i < 4; i++) m->s[i] = splitmix(&seed);
}

void mcts_set_callback_data(Mcts *m, void *ud)
{
    m->o.prior_ud = ud;
    m->o.playout_ud = ud;
}

size_t mcts_memory(const Mcts *m)
{
    size_t n = (size_t)m->ncells;
    return sizeof *m + m->cap * sizeof *m->nodes +
           n * (sizeof *m->root_moves + sizeof *m->empties + sizeof *m->stamp + sizeof *m->pri) +
           (n + 2) * sizeof *m->path;
}

/* Scratch arrays for a board of this shape. */
static int ensure_shape(Mcts *m, const Game *g)
{
    const Geometry *geo = game_geom(g);
    if (geo->ncells == m->ncells && m->empties) return MB_OK;
    free_scratch(m);
    size_t n = (size_t)geo->ncells;
    m->ncells = geo->ncells;
    m->root_moves = malloc(n * sizeof *m->root_moves);
    m->empties = malloc(n * sizeof *m->empties);
    m->stamp = calloc(n, sizeof *m->stamp);
    m->pri = malloc(n * sizeof *m->pri);
    m->path = malloc((n + 2) * sizeof *m->path);
    m->gen = 0;
    if (!m->root_moves || !m->empties || !m->stamp || !m->pri || !m->path) {
        free_scratch(m);
        m->ncells = 0;
        return MB_ENOMEM;
    }
    mcts_reset(m);
    return MB_OK;
}

static void init_node(Node *n, int move)
{
    n->first = -1;
    n->visits = 0;
    n->score = 0;
    n->prior = 0;
    n->move = (int16_t)move;
    n->nchildren = 0;
    n->proven = UNPROVEN;
    n->terminal = 0;
    n->complete = 0;
    n->seen = 0;
}

/* A fresh tree rooted at g's position. */
static void new_root(Mcts *m, const Game *g)
{
    const Geometry *geo = game_geom(g);
    m->used = 1;
    m->root = 0;
    init_node(&m->nodes[0], MOVE_NONE);
    m->nodes[0].seen = 1;
    m->width = geo->width;
    m->height = geo->height;
    m->k = geo->k;
    m->root_len = g->move_count;
    for (int i = 0; i < g->move_count; i++) m->root_moves[i] = g->records[i + 1];
}

/* Start from the subtree for g's position when the tree holds it. */
static bool reuse_root(Mcts *m, const Game *g)
{
    const Geometry *geo = game_geom(g);
    if (m->used == 0 || geo->width != m->width || geo->height != m->height || geo->k != m->k)
        return false;
    if (g->move_count < m->root_len || m->used > m->cap / 4 * 3) return false;
    for (int i = 0; i < m->root_len; i++)
        if (g->records[i + 1] != m->root_moves[i]) return false;
    int32_t at = m->root;
    for (int i = m->root_len; i < g->move_count; i++) {
        Node *n = &m->nodes[at];
        int32_t next = -1;
        for (int c = 0; c < n->nchildren && n->first >= 0; c++)
            if (m->nodes[n->first + c].move == g->records[i + 1]) next = n->first + c;
        if (next < 0) return false;
        at = next;
    }
    m->root = at;
    m->root_len = g->move_count;
    for (int i = 0; i < g->move_count; i++) m->root_moves[i] = g->records[i + 1];
    return true;
}

/* ---- growing ---- */

/* Give node `at` (whose position is g's) its children. MB_OK (also when
 * the arena is full: the node stays a leaf) or a prior callback's status. */
static int grow(Mcts *m, int32_t at, Game *g)
{
    const Geometry *geo = game_geom(g);
    int n = 0, nempty = 0;
    int r = m->o.radius;
    if (++m->gen == 0) {
        memset(m->stamp, 0, (size_t)m->ncells * sizeof *m->stamp);
        m->gen = 1;
    }
    bool any = g->move_count > 0;
    if (r > 0 && any) {
        for (int i = 1; i <= g->move_count; i++) {
            int x0, y0;
            geometry_move_to_xy(geo, g->records[i], &x0, &y0);
            for (int x = x0 - r; x <= x0 + r; x++) {
                if (x < 0 || x >= geo->width) continue;
                for (int y = y0 - r; y <= y0 + r; y++)
                    if (y >= 0 && y < geo->height) m->stamp[y + x * geo->height] = m->gen;
            }
        }
    }
    /* normative order: y outer, x inner */
    for (int y = 0; y < geo->height; y++) {
        for (int x = 0; x < geo->width; x++) {
            int mv = y + x * geo->height;
            if (game_get(g, mv) != MARK_EMPTY) continue;
            nempty++;
            if (r == 0 || !any || m->stamp[mv] == m->gen) m->empties[n++] = mv;
        }
    }
    if (n == 0) return MB_OK;
    if (m->used + (size_t)n > m->cap) { /* full: stays a leaf */
        m->full = true;
        return MB_OK;
    }
    /* priors; on an empty board without priors, nearest the centre first */
    for (int i = 0; i < n; i++) {
        m->pri[i] = 0;
        if (m->o.prior) {
            int rc = m->o.prior(g, m->empties[i], &m->pri[i], m->o.prior_ud);
            if (rc != MB_OK) return rc;
        } else if (!any) {
            int x, y;
            geometry_move_to_xy(geo, m->empties[i], &x, &y);
            double dx = x - (geo->width - 1) / 2.0, dy = y - (geo->height - 1) / 2.0;
            m->pri[i] = -(dx * dx + dy * dy);
        }
    }
    /* stable insertion sort by prior, highest first */
    for (int i = 1; i < n; i++) {
        int mv = m->empties[i];
        double p = m->pri[i];
        int j = i;
        for (; j > 0 && m->pri[j - 1] < p; j--) {
            m->empties[j] = m->empties[j - 1];
            m->pri[j] = m->pri[j - 1];
        }
        m->empties[j] = mv;
        m->pri[j] = p;
    }
    Node *node = &m->nodes[at];
    node->first = (int32_t)m->used;
    node->nchildren = (uint16_t)n;
    node->complete = n == nempty;
    for (int i = 0; i < n; i++) {
        Node *c = &m->nodes[m->used + (size_t)i];
        init_node(c, m->empties[i]);
        c->prior = (float)(m->o.prior ? m->pri[i] : 0);
    }
    m->used += (size_t)n;
    return MB_OK;
}

/* ---- selecting ---- */

/* The child of `at` to descend into. With the solver, proven children
 * are left alone while unproven ones remain (a proof needs the others);
 * then the best proven one (a draw before a loss). */
static int32_t select_child(const Mcts *m, int32_t at)
{
    const Node *n = &m->nodes[at];
    double logn = log((double)n->visits + 1.0);
    double best = -INFINITY;
    int32_t pick = -1, fallback = n->first;
    int fallback_proven = -2;
    for (int i = 0; i < n->nchildren; i++) {
        int32_t ci = n->first + i;
        const Node *c = &m->nodes[ci];
        if (m->o.solver && c->proven != UNPROVEN) {
            if (c->proven == 1) return ci; /* a proven win: take it */
            if (c->proven > fallback_proven) {
                fallback_proven = c->proven;
                fallback = ci;
            }
            continue;
        }
        if (c->visits == 0) return ci; /* unvisited first, in prior order */
        double v = (double)c->score / c->visits + m->o.c * sqrt(logn / c->visits);
        if (m->o.prior) v += m->o.prior_weight * c->prior / (c->visits + 1.0);
        if (v > best) {
            best = v;
            pick = ci;
        }
    }
    return pick >= 0 ? pick : fallback;
}

/* Recompute node `at`'s proven value from its children; true if it changed. */
static bool prove(Mcts *m, int32_t at)
{
    Node *n = &m->nodes[at];
    if (n->proven != UNPROVEN || n->first < 0) return false;
    int best = -2;
    bool all = true;
    for (int i = 0; i < n->nchildren; i++) {
        int p = m->nodes[n->first + i].proven;
        if (p == 1) {
            n->proven = -1; /* the side to move here wins: the mover into here loses */
            return true;
        }
        if (p == UNPROVEN)
            all = false;
        else if (p > best)
            best = p;
    }
    if (!all || !n->complete) return false;
    n->proven = (int8_t)-best;
    return true;
}

/* ---- searching ---- */

/* A playout from g's position: the winner's status (moves undone). */
static int playout(Mcts *m, Game *g, Status *result)
{
    int n = game_legal_moves(g, m->empties), played = 0, rc = MB_OK;
    while (g->status == STATUS_PLAYING && n > 0) {
        int mv;
        if (m->o.playout) {
            rc = m->o.playout(g, &mv, m->o.playout_ud);
            if (rc != MB_OK) break;
            int i = 0;
            while (i < n && m->empties[i] != mv) i++;
            if (i == n) {
                rc = MB_EINVAL; /* not an empty square */
                break;
            }
            m->empties[i] = m->empties[--n];
        } else {
            int i = below(m, n);
            mv = m->empties[i];
            m->empties[i] = m->empties[--n];
        }
        game_move(g, mv);
        played++;
    }
    *result = g->status;
    while (played-- > 0) game_unmove(g);
    return rc;
}

/* The game the search moves on: without callbacks (which must see the
 * caller's game), a copy on the list1d back-end without counters, whose
 * move/unmove/judge are the fastest for random playouts; g itself when
 * its marks do not follow its record (edited) or on failure. */
static Game *work_game(Mcts *m, Game *g)
{
    if (m->o.prior || m->o.playout || g->edited ||
        (g->board.kind == BOARD_LIST1D && !g->board.counters))
        return g;
    if (m->work_ready && m->work.board.geom != g->board.geom) {
        game_free(&m->work);
        m->work_ready = false;
    }
    if (!m->work_ready) {
        if (game_init_geometry(&m->work, g->board.geom, BOARD_LIST1D, false) != MB_OK) return g;
        m->work_ready = true;
    }
    game_restart(&m->work);
    for (int i = 1; i <= g->move_count; i++) game_move(&m->work, g->records[i]);
    return &m->work;
}

/* Steps 1 and 2: from the root down to a leaf, playing its moves on g and
 * keeping the path in m->path (*depth nodes, the root first); a leaf
 * visited often enough grows on the way (*rc: grow's error, if any). */
static int32_t select_leaf(Mcts *m, Game *g, int *depth, int *rc)
{
    int d = 0;
    int32_t at = m->root;
    m->path[d++] = at;
    for (;;) {
        Node *n = &m->nodes[at];
        if (n->terminal || (m->o.solver && n->proven != UNPROVEN)) break;
        if (n->first < 0) {
            if (n->visits < (uint32_t)m->o.expand_after && at != m->root) break;
            *rc = grow(m, at, g);
            if (*rc != MB_OK || n->first < 0) break;
        }
        at = select_child(m, at);
        game_move(g, m->nodes[at].move);
        m->path[d++] = at;
        Node *c = &m->nodes[at];
        if (!c->seen) {
            c->seen = 1;
            if (g->status != STATUS_PLAYING) {
                c->terminal = 1;
                c->proven = g->status == STATUS_DRAW ? 0 : 1; /* only the mover can win */
            }
        }
        if (c->visits == 0) break;
    }
    *depth = d;
    return at;
}

/* Step 3: the leaf's result: the end of the game, its proven value (for
 * the side that moved into it, leaf_mover), or a playout's. */
static int leaf_result(Mcts *m, Game *g, int32_t at, Mark leaf_mover, Status *result)
{
    const Node *leaf = &m->nodes[at];
    if (g->status != STATUS_PLAYING) {
        *result = g->status;
    } else if (m->o.solver && leaf->proven != UNPROVEN) {
        *result = leaf->proven == 0  ? STATUS_DRAW
                  : leaf->proven > 0 ? (Status)leaf_mover
                                     : (Status)mark_other(leaf_mover);
    } else {
        return playout(m, g, result);
    }
    return MB_OK;
}

/* Step 4: back up the result along the path, proofs as far as they go
 * (proving: the leaf is proven), taking back the path's moves. */
static void back_up(Mcts *m, Game *g, int depth, Status result, Mark root_mover, bool proving)
{
    for (int i = depth - 1; i >= 0; i--) {
        Node *n = &m->nodes[m->path[i]];
        Mark mover = i > 0 ? mark_other(g->turn) : root_mover;
        n->visits++;
        n->score += result == STATUS_DRAW ? 0.5f : result == (Status)mover ? 1.0f : 0.0f;
        if (proving && i < depth - 1) proving = prove(m, m->path[i]);
        if (i > 0) game_unmove(g);
    }
}

/* One playout: steps 1 to 4; g is back at the root after it. */
static int iterate(Mcts *m, Game *g, Mark root_mover)
{
    int depth, rc = MB_OK;
    Status result;
    int32_t at = select_leaf(m, g, &depth, &rc);
    if (rc == MB_OK)
        rc = leaf_result(m, g, at, depth > 1 ? mark_other(g->turn) : root_mover, &result);
    if (rc != MB_OK) {
        while (--depth > 0) game_unmove(g);
        return rc;
    }
    back_up(m, g, depth, result, root_mover, m->o.solver && m->nodes[at].proven != UNPROVEN);
    return MB_OK;
}

/* Step 5: the move: a proven win; else the most visited child that is not
 * a proven loss, unless a proven draw is better than its mean. -1: the
 * root has no child. */
static int32_t pick_child(const Mcts *m)
{
    const Node *root = &m->nodes[m->root];
    int32_t best = -1, draw = -1;
    for (int i = 0; i < root->nchildren && root->first >= 0; i++) {
        int32_t ci = root->first + i;
        const Node *c = &m->nodes[ci];
        if (m->o.solver && c->proven == 1) return ci;
        if (m->o.solver && c->proven == 0 && draw < 0) draw = ci;
        if (m->o.solver && c->proven == 0) continue;
        if (best < 0) {
            best = ci;
            continue;
        }
        const Node *b = &m->nodes[best];
        bool c_lost = m->o.solver && c->proven == -1, b_lost = m->o.solver && b->proven == -1;
        if ((b_lost && !c_lost) || (c_lost == b_lost && c->visits > b->visits)) best = ci;
    }
    if (draw >= 0) {
        const Node *b = best >= 0 ? &m->nodes[best] : NULL;
        if (!b || b->proven == -1 || b->visits == 0 || (double)b->score / b->visits < 0.5)
            best = draw;
    }
    return best;
}

/* Has the search run its time, been stopped or interrupted (*rc)? */
static bool time_to_stop(Mcts *m, double t0, double seconds, int *rc)
{
    if (mb_interrupted()) {
        *rc = MB_EINTR;
        return true;
    }
    return (seconds > 0 && clock_now() - t0 >= seconds) || (m->o.stop && m->o.stop(m->o.stop_ud));
}

int mcts_search(Mcts *m, Game *caller, long max_playouts, double seconds, MctsResult *r)
{
    memset(r, 0, sizeof *r);
    r->move = MOVE_NONE;
    r->proven = MCTS_UNPROVEN;
    if (max_playouts <= 0 && !(seconds > 0)) return MB_EINVAL;
    if (caller->status != STATUS_PLAYING) return MB_OK;
    int rc = ensure_shape(m, caller);
    if (rc != MB_OK) return rc;
    double t0 = clock_now();
    m->full = false;
    Game *g = work_game(m, caller);
    r->reused = reuse_root(m, g);
    if (!r->reused) new_root(m, g);
    Mark root_mover = mark_other(g->turn); /* the side that moved into the root */
    long done = 0;
    while (rc == MB_OK) {
        if (max_playouts > 0 && done >= max_playouts) break;
        if ((done & 31) == 0 && time_to_stop(m, t0, seconds, &rc)) break;
        if (m->o.solver && m->nodes[m->root].proven != UNPROVEN) break;
        rc = iterate(m, g, root_mover);
        if (rc == MB_OK) done++;
    }
    int32_t best = pick_child(m);
    const Node *root = &m->nodes[m->root];
    r->playouts = done;
    r->root_visits = root->visits;
    r->nodes = m->used;
    r->full = m->full;
    r->value = root->visits ? 1.0 - (double)root->score / root->visits : 0.5;
    r->proven = root->proven == UNPROVEN ? MCTS_UNPROVEN : -root->proven;
    if (r->proven != MCTS_UNPROVEN) r->value = 0.5 + 0.5 * r->proven;
    r->seconds = clock_now() - t0;
    if (best >= 0) {
        r->move = m->nodes[best].move;
    } else if (rc == MB_OK) {
        /* no child (arena full at once): any legal move */
        int n = game_legal_moves(g, m->empties);
        if (n > 0) r->move = m->empties[below(m, n)];
    }
    return rc;
}

int mcts_root_children(const Mcts *m, MctsChild *out, int cap)
{
    if (m->used == 0) return 0;
    const Node *root = &m->nodes[m->root];
    int n = root->first < 0 ? 0 : root->nchildren;
    int k = 0; /* entries in out, sorted by visits, most first (stable) */
    for (int i = 0; i < n && cap > 0; i++) {
        const Node *c = &m->nodes[root->first + i];
        MctsChild ch = {c->move, (long)c->visits, c->visits ? (double)c->score / c->visits : 0.0,
                        c->prior, c->proven == UNPROVEN ? MCTS_UNPROVEN : c->proven};
        int j = k < cap ? k : cap - 1;
        if (k == cap && out[cap - 1].visits >= ch.visits) continue; /* not among the first cap */
        while (j > 0 && out[j - 1].visits < ch.visits) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = ch;
        if (k < cap) k++;
    }
    return n;
}
