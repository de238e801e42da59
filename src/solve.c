/* solve.c: exact values and distances by αβ with a canonical table (see
 * solve.h). Positions are two bitboards (o, x) over the game's move
 * indices; scores are absolute so the table needs no ply: a win ending at
 * move count n scores SCORE_BIG - n, a draw 0. */
#include "solve.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "mberror.h"
#include "clock.h"
#include "symmetry.h"

#define SCORE_BIG 1000
#define SCORE_INF 30000
#define TABLE_MIN 4096

struct SolveEntry {
    uint64_t o, x; /* canonical position; o == x == 0 marks an empty slot */
    int16_t lo, hi;
    int8_t move; /* in canonical orientation; -1 none */
};

const char *solve_value_name(int value)
{
    return value > 0 ? "first player wins" : value < 0 ? "second player wins" : "draw";
}

void solve_init(Solve *s)
{
    memset(s, 0, sizeof *s);
    solve_set_hash(s, (size_t)SOLVE_DEFAULT_HASH_MB << 20);
}

void solve_set_hash(Solve *s, size_t bytes)
{
    size_t slots = TABLE_MIN;
    while (slots * 2 * sizeof(SolveEntry) <= bytes && slots < ((size_t)1 << 40)) slots *= 2;
    s->max_table = slots;
    if (s->cap > slots) { /* a table of an earlier solve, past the new limit */
        free(s->table);
        s->table = NULL;
        s->cap = s->count = 0;
    }
}

static void free_shape(Solve *s)
{
    free(s->lines);
    free(s->flank);
    free(s->perm);
    free(s->move_to);
    free(s->move_from);
    s->lines = s->flank = NULL;
    s->perm = NULL;
    s->move_to = s->move_from = NULL;
    s->width = s->height = 0;
}

void solve_free(Solve *s)
{
    free_shape(s);
    free(s->table);
    s->table = NULL;
    s->cap = s->count = 0;
}

/* The lines, the symmetry maps and the centre-first order of g's shape. */
static int build_shape(Solve *s, const Geometry *geo)
{
    if (s->lines && s->width == geo->width && s->height == geo->height && s->k == geo->k &&
        s->exact == geo->exact)
        return MB_OK;
    free_shape(s);
    int n = geo->ncells, ids[SYM_COUNT];
    s->ncells = n;
    s->k = geo->k;
    /* exactly one in a row can run along any of the four directions, but a
     * shape with k = 1 lists only one: here each square is a line once
     * per direction, with that direction's neighbours as its flank */
    bool exact1 = geo->exact && geo->k == 1;
    s->nlines = exact1 ? 4 * n : geo->nlines; /* at most 4 x 64 <= LIVE_WORDS * 64 */
    s->nsym = symmetry_list(geo, ids);
    s->exact = geo->exact;
    s->lines = calloc((size_t)s->nlines + 1, sizeof *s->lines);
    s->flank = calloc((size_t)s->nlines + 1, sizeof *s->flank);
    s->perm = calloc((size_t)s->nsym, sizeof *s->perm);
    s->move_to = calloc((size_t)s->nsym, sizeof *s->move_to);
    s->move_from = calloc((size_t)s->nsym, sizeof *s->move_from);
    if (!s->lines || !s->flank || !s->perm || !s->move_to || !s->move_from) {
        free_shape(s);
        return MB_ENOMEM;
    }
    for (int l = 0; l < geo->nlines; l++)
        for (int j = 0; j < geo->k; j++)
            s->lines[l] |= (uint64_t)1 << geo->line_cells[l * geo->k + j];
    /* exact rule: the squares just outside each window, whose own mark
     * there would make a completed window an overline */
    static const int8_t dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    for (int l = 0; exact1 && l < s->nlines; l++) {
        int m = l % n, x = geo->x_of[m], y = geo->y_of[m], dx = dirs[l / n][0], dy = dirs[l / n][1];
        s->lines[l] = (uint64_t)1 << m;
        if (geometry_on_board(geo, x - dx, y - dy))
            s->flank[l] |= (uint64_t)1 << geometry_xy_to_move(geo, x - dx, y - dy);
        if (geometry_on_board(geo, x + dx, y + dy))
            s->flank[l] |= (uint64_t)1 << geometry_xy_to_move(geo, x + dx, y + dy);
    }
    for (int l = 0; !exact1 && geo->exact && l < geo->nlines; l++) {
        const Line *ln = &geo->lines[l];
        int xs[2] = {ln->x - ln->dx, ln->x + geo->k * ln->dx};
        int ys[2] = {ln->y - ln->dy, ln->y + geo->k * ln->dy};
        for (int e = 0; e < 2; e++)
            if (geometry_on_board(geo, xs[e], ys[e]))
                s->flank[l] |= (uint64_t)1 << geometry_xy_to_move(geo, xs[e], ys[e]);
    }
    for (int t = 0; t < s->nsym; t++) {
        for (int m = 0; m < n; m++) {
            int i = symmetry_move(geo, ids[t], m);
            s->move_to[t][m] = (int8_t)i;
            s->move_from[t][i] = (int8_t)m;
        }
        for (int b = 0; b < 8; b++)
            for (int v = 0; v < 256; v++) {
                uint64_t img = 0;
                for (int j = 0; j < 8; j++)
                    if ((v >> j & 1) && b * 8 + j < n)
                        img |= (uint64_t)1 << s->move_to[t][b * 8 + j];
                s->perm[t][b][v] = img;
            }
    }
    /* centre first: by distance to the centre, then move order */
    int dist[SOLVE_MAX_CELLS];
    for (int m = 0; m < n; m++) {
        int x, y;
        geometry_move_to_xy(geo, m, &x, &y);
        int dx = 2 * x - (geo->width - 1), dy = 2 * y - (geo->height - 1);
        dist[m] = dx * dx + dy * dy;
        int i = m;
        while (i > 0 && dist[s->order[i - 1]] > dist[m]) {
            s->order[i] = s->order[i - 1];
            i--;
        }
        s->order[i] = m;
    }
    s->width = geo->width;
    s->height = geo->height;
    return MB_OK;
}

/* ---- The table ---- */

static uint64_t image(const Solve *s, int t, uint64_t b)
{
    const uint64_t(*p)[256] = s->perm[t];
    uint64_t r = 0;
    for (int i = 0; b; i++, b >>= 8) r |= p[i][b & 255];
    return r;
}

/* The canonical (o, x) of a position; returns the transform used. */
static int canonical(const Solve *s, uint64_t o, uint64_t x, uint64_t *co, uint64_t *cx)
{
    int best = 0;
    *co = o;
    *cx = x;
    for (int t = 1; t < s->nsym; t++) {
        uint64_t a = image(s, t, o);
        if (a > *co) continue;
        uint64_t b = image(s, t, x);
        if (a < *co || b < *cx) {
            *co = a;
            *cx = b;
            best = t;
        }
    }
    return best;
}

static size_t slot_of(const Solve *s, uint64_t o, uint64_t x)
{
    uint64_t h = o * 0x9E3779B97F4A7C15ull ^ (x + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return (size_t)h & (s->cap - 1);
}

static SolveEntry *probe(const Solve *s, uint64_t o, uint64_t x)
{
    if (!s->cap) return NULL;
    for (size_t i = slot_of(s, o, x);; i = (i + 1) & (s->cap - 1)) {
        SolveEntry *e = &s->table[i];
        if (e->o == o && e->x == x) return e;
        if (!e->o && !e->x) return NULL;
    }
}

static bool grow(Solve *s)
{
    size_t ncap = s->cap ? s->cap * 2 : TABLE_MIN;
    if (ncap > s->max_table) return false;
    SolveEntry *t = calloc(ncap, sizeof *t);
    if (!t) return false;
    SolveEntry *old = s->table;
    size_t ocap = s->cap;
    s->table = t;
    s->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].o && !old[i].x) continue;
        size_t j = slot_of(s, old[i].o, old[i].x);
        while (t[j].o || t[j].x) j = (j + 1) & (ncap - 1);
        t[j] = old[i];
    }
    free(old);
    return true;
}

/* The slot a new position (o, x) takes in a table at its limit, or NULL
 * (dropped): of the slot at its home and the next one, the one in use
 * holding the position of more marks (the farther from the root, with less
 * search below it; the later on a tie); dropped when the home slot is
 * free. Only slots in use are overwritten: a run of linear probing keeps
 * no gap, so every other position is found as before. */
static SolveEntry *replace(Solve *s, uint64_t o, uint64_t x)
{
    if (!s->cap) return NULL;
    size_t home = slot_of(s, o, x), next = (home + 1) & (s->cap - 1);
    SolveEntry *a = &s->table[home], *b = &s->table[next];
    if (!a->o && !a->x) return NULL;
    if (!b->o && !b->x) return a;
    return __builtin_popcountll(b->o | b->x) >= __builtin_popcountll(a->o | a->x) ? b : a;
}

/* A table half full: true when it cannot grow (its limit) and three
 * quarters are in use (then a new position must replace another). */
static bool no_room(Solve *s)
{
    if (grow(s)) return false;
    s->full = true;
    return s->count + 1 > s->cap * 3 / 4;
}

/* Merge bounds into the entry of (o, x) (the empty board is never stored).
 * When the table is full and cannot grow (its limit, solve_set_hash), a
 * new position replaces another or is dropped (replace). */
static void store(Solve *s, uint64_t o, uint64_t x, int lo, int hi, int move)
{
    if (!o && !x) return;
    SolveEntry *e = probe(s, o, x);
    if (!e) {
        if (s->count + 1 > s->cap / 2 && no_room(s)) {
            e = replace(s, o, x);
            if (!e) return;
        } else {
            size_t i = slot_of(s, o, x);
            while (s->table[i].o || s->table[i].x) i = (i + 1) & (s->cap - 1);
            e = &s->table[i];
            s->count++;
        }
        e->o = o;
        e->x = x;
        e->lo = -SCORE_INF;
        e->hi = SCORE_INF;
        e->move = -1;
    }
    if (lo > e->lo) e->lo = (int16_t)lo;
    if (hi < e->hi) e->hi = (int16_t)hi;
    if (move >= 0) e->move = (int8_t)move;
}

static void clear_table(Solve *s)
{
    if (s->table) memset(s->table, 0, s->cap * sizeof *s->table);
    s->count = 0;
}

/* ---- The search ---- */

static int win_score(int end) { return SCORE_BIG - end; }

static void report(Solve *s)
{
    double t = clock_now();
    if (s->time_limit > 0 && t - s->t0 > s->time_limit) s->aborted = true;
    if (mb_interrupted()) s->aborted = s->interrupted = true;
    if (s->progress && t >= s->next_report) {
        s->next_report = t + 1.0;
        s->progress(s->ud, s->nodes, s->count, s->root_done, s->root_total);
    }
}

/* Lines are tracked as a set of those still open: a line holding marks of
 * both sides stays closed for the rest of the game, so a node hands its
 * children the set its scan left and scans only those (the same results
 * as scanning every line, at a fraction of the work deep in the tree). */
#define LIVE_WORDS 4 /* at most 4 directions x 64 squares lines */
typedef struct Live {
    uint64_t w[LIVE_WORDS];
} Live;

/* Every line of the shape open. */
static Live live_all(const Solve *s)
{
    Live lv = {{0}};
    for (int l = 0; l < s->nlines; l++) lv.w[l >> 6] |= 1ULL << (l & 63);
    return lv;
}

/* Threat squares, live lines and ordering weights of the side `me`. A
 * square's weight sums, over the open lines through it, w[marks already
 * there], counting the mover's own lines ATTACK times: building one's own
 * lines first cuts (6,5,4) from 1.01 M nodes (equal weights) to 0.31 M and
 * (6,4,4) from 1.95 M to 0.66 M; 2 or 4 do about as well, 1/2 far worse. */
#define ATTACK 3
typedef struct Scan {
    uint64_t my_threats, op_threats;
    bool my_live, op_live;
    int weight[SOLVE_MAX_CELLS];
} Scan;

static void scan(const Solve *s, uint64_t me, uint64_t op, Scan *sc, bool weights, Live *lv)
{
    static const int w[] = {1, 4, 20, 100, 500, 2500, 12500, 62500};
    sc->my_threats = sc->op_threats = 0;
    sc->my_live = sc->op_live = false;
    if (weights) memset(sc->weight, 0, sizeof(int) * (size_t)s->ncells);
    int k = s->k;
    for (int wd = 0; wd < LIVE_WORDS; wd++) {
        for (uint64_t open = lv->w[wd]; open; open &= open - 1) {
            int l = wd * 64 + __builtin_ctzll(open);
            uint64_t L = s->lines[l];
            int a = __builtin_popcountll(L & me), b = __builtin_popcountll(L & op);
            if (a && b) {
                lv->w[wd] &= ~(1ULL << (l & 63)); /* closed for good */
                continue;
            }
            int add = 0;
            if (!b) {
                sc->my_live = true;
                if (a == k - 1 && !(s->flank[l] & me)) sc->my_threats |= L & ~me;
                add += ATTACK * w[a < 7 ? a : 7];
            }
            if (!a) {
                sc->op_live = true;
                if (b == k - 1 && !(s->flank[l] & op)) sc->op_threats |= L & ~op;
                add += w[b < 7 ? b : 7];
            }
            if (weights)
                for (uint64_t e = L & ~me & ~op; e; e &= e - 1)
                    sc->weight[__builtin_ctzll(e)] += add;
        }
    }
}

/* The value of the position (me to move; mc marks on the board) within
 * (alpha, beta), fail-soft. The last move did not end the game. */
static int search(Solve *s, uint64_t me, uint64_t op, int mc, int alpha, int beta, uint64_t o,
                  uint64_t x, const Live *parent)
{
    if ((++s->nodes & 0x7FF) == 0) report(s); /* the clock about every 2 ms */
    if (s->aborted) return 0;
    if (mc == s->ncells) return 0;
    Scan sc;
    Live lv = *parent;
    scan(s, me, op, &sc, false, &lv);
    if (sc.my_threats) return win_score(mc + 1);
    if (__builtin_popcountll(sc.op_threats) >= 2) return -win_score(mc + 2);
    if (!sc.my_live && !sc.op_live) return 0;
    /* no win before move mc + 3, no loss before mc + 4 */
    if (beta > win_score(mc + 3)) beta = win_score(mc + 3);
    if (alpha < -win_score(mc + 4)) alpha = -win_score(mc + 4);
    if (!sc.my_live && beta > 0) beta = 0;
    if (!sc.op_live && alpha < 0) alpha = 0;
    if (alpha >= beta) return alpha;

    uint64_t co, cx;
    int t = canonical(s, o, x, &co, &cx), tmove = -1;
    SolveEntry *e = probe(s, co, cx);
    if (e) {
        if (e->lo >= beta || e->lo == e->hi) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        if (e->move >= 0) tmove = s->move_from[t][e->move];
    }

    /* The moves: the block when forced; else the table's move, then the
     * rest by weight, ties centre first. They are picked one at a time (the
     * heaviest left) since most nodes cut off after the first few. */
    int moves[SOLVE_MAX_CELLS] = {0}, n = 0, first = 0; /* n >= 1: the board is not full */
    if (sc.op_threats) {
        moves[n++] = __builtin_ctzll(sc.op_threats);
        first = 1;
    } else {
        scan(s, me, op, &sc, true, &lv);
        uint64_t occ = me | op;
        /* A square on no open line (weight 0) is dead: no line through it
         * can be completed any more, so playing it changes nothing but the
         * count of empty squares, and all dead squares are worth the same:
         * one of them is searched. */
        bool dead_seen = false;
        if (tmove >= 0) {
            moves[n++] = tmove;
            dead_seen = sc.weight[tmove] == 0;
        }
        first = n;
        for (int i = 0; i < s->ncells; i++) {
            int m = s->order[i];
            if ((occ >> m & 1) || m == tmove) continue;
            if (sc.weight[m] == 0) {
                if (dead_seen) continue;
                dead_seen = true;
            }
            moves[n++] = m;
        }
    }
    int best = -SCORE_INF, best_move = moves[0], a0 = alpha;
    for (int i = 0; i < n; i++) {
        if (i >= first) { /* bring the heaviest of moves[i..n) to i, keeping the others' order */
            int top = i;
            for (int j = i + 1; j < n; j++)
                if (sc.weight[moves[j]] > sc.weight[moves[top]]) top = j;
            int m = moves[top];
            for (int j = top; j > i; j--) moves[j] = moves[j - 1];
            moves[i] = m;
        }
        uint64_t bit = (uint64_t)1 << moves[i];
        /* o moves when mc is even */
        uint64_t no = (mc & 1) ? o : o | bit, nx = (mc & 1) ? x | bit : x;
        int v = -search(s, op, me | bit, mc + 1, -beta, -alpha, no, nx, &lv);
        if (s->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = moves[i];
            if (v > alpha) alpha = v;
            if (alpha >= beta) break;
        }
    }
    int cm = s->move_to[t][best_move];
    if (best <= a0)
        store(s, co, cx, -SCORE_INF, best, -1);
    else if (best >= beta)
        store(s, co, cx, best, SCORE_INF, cm);
    else
        store(s, co, cx, best, best, cm);
    return best;
}

/* One pass over the root's moves with a full window: the exact score of
 * the side to move and a best move. */
static int root(Solve *s, uint64_t o, uint64_t x, int mc, int *best_move)
{
    uint64_t me = (mc & 1) ? x : o, op = (mc & 1) ? o : x, occ = o | x;
    Scan sc;
    Live lv = live_all(s);
    scan(s, me, op, &sc, true, &lv);
    int moves[SOLVE_MAX_CELLS] = {0}, n = 0;
    for (int i = 0; i < s->ncells; i++) {
        int m = s->order[i];
        if (occ >> m & 1) continue;
        int j = n++;
        while (j > 0 && sc.weight[moves[j - 1]] < sc.weight[m]) {
            moves[j] = moves[j - 1];
            j--;
        }
        moves[j] = m;
    }
    int best = -SCORE_INF, alpha = -SCORE_INF;
    *best_move = moves[0];
    s->root_total = n;
    for (int i = 0; i < n; i++) {
        uint64_t bit = (uint64_t)1 << moves[i];
        s->root_done = i;
        int v;
        if (sc.my_threats >> moves[i] & 1) {
            v = win_score(mc + 1);
        } else {
            uint64_t no = (mc & 1) ? o : o | bit, nx = (mc & 1) ? x | bit : x;
            v = -search(s, op, me | bit, mc + 1, -SCORE_INF, -alpha, no, nx, &lv);
        }
        if (s->aborted) return 0;
        if (v > best) {
            best = v;
            *best_move = moves[i];
            if (v > alpha) alpha = v;
        }
    }
    return best;
}

int solve_position(Solve *s, const Game *g, SolveResult *out)
{
    const Geometry *geo = game_geom(g);
    memset(out, 0, sizeof *out);
    out->best = MOVE_NONE;
    if (geo->ncells > SOLVE_MAX_CELLS) return MB_ESIZE;
    int rc = build_shape(s, geo);
    if (rc) return rc;
    s->t0 = clock_now();
    s->next_report = s->t0 + 1.0;
    s->nodes = 0;
    s->aborted = s->interrupted = s->full = false;
    uint64_t o = 0, x = 0;
    int mc = 0;
    for (int m = 0; m < geo->ncells; m++) {
        Mark k = game_get(g, m);
        if (k == MARK_O) o |= (uint64_t)1 << m;
        if (k == MARK_X) x |= (uint64_t)1 << m;
        mc += k != MARK_EMPTY;
    }
    s->mc0 = mc;
    /* the side to move: o when the counts are equal (the normal case) */
    int o_to_move = g->turn == MARK_O;
    if (g->status != STATUS_PLAYING) {
        out->value = g->status == STATUS_O ? 1 : g->status == STATUS_X ? -1 : 0;
    } else {
        /* the search reads the side to move from the parity of mc */
        if (((mc & 1) == 0) != o_to_move) {
            uint64_t t = o;
            o = x;
            x = t;
        }
        int sign = o_to_move ? 1 : -1, best;
        clear_table(s);
        int v = root(s, o, x, mc, &best);
        out->distance = v ? SCORE_BIG - (v > 0 ? v : -v) - mc : geo->ncells - mc;
        v = v > 0 ? 1 : v < 0 ? -1 : 0;
        out->value = sign * v;
        out->best = best;
    }
    s->seconds = clock_now() - s->t0;
    out->nodes = s->nodes;
    out->table = s->count;
    out->full = s->full;
    out->seconds = s->seconds;
    if (s->aborted) {
        out->value = 0;
        out->best = MOVE_NONE;
        out->distance = 0;
        return s->interrupted ? MB_EINTR : SOLVE_STOPPED;
    }
    return MB_OK;
}
