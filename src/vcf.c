/* vcf.c: VCF and VCT threat-space search (see vcf.h).
 *
 * The position is copied into cells[] with, per k-window of the shape, the
 * count of each side's marks; placing or lifting a mark updates the
 * windows through its square and the Zobrist key. Win squares, fours and
 * threes are read off the window counts: a window of k - 1 marks of one
 * side and none of the other has that side's win square in its empty cell
 * (under the exact rule, only if the run there would be exactly k); one of
 * k - 2 has two squares that make a four; one of k - 3 three squares that
 * may make a three (confirmed by the VCF that must follow it). */
#include "vcf.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "mberror.h"
#include "clock.h"

#define VCF_MAX_DEPTH 60 /* attacker moves */
#define VCF_MAX_PLY   (2 * VCF_MAX_DEPTH + 4)
#define CHECK_EVERY   1024 /* nodes between clock reads */

struct VcfEntry {
    uint64_t key;  /* 0: empty */
    int16_t depth; /* the position fails with this many attacker moves */
    uint8_t vct;   /* ... in this mode */
};

/* The principal lines, one row per ply (a triangular table). */
typedef struct Lines {
    int16_t mv[VCF_MAX_PLY][VCF_MAX_PLY];
    int n[VCF_MAX_PLY];
} Lines;

static const int8_t run_dir[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

VcfOptions vcf_default_options(void) { return (VcfOptions){VCF_DEFAULT_DEPTH, -1, 0, false}; }

const char *vcf_status_name(int status)
{
    switch (status) {
    case VCF_WIN: return "win";
    case VCF_TIMEOUT: return "timeout";
    case VCF_INTERRUPTED: return "interrupted";
    case VCF_NODES: return "nodes";
    default: return "none";
    }
}

/* splitmix64: the Zobrist keys, the same for every solver. */
static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int vcf_init(Vcf *v)
{
    memset(v, 0, sizeof *v);
    v->table = calloc((size_t)1 << VCF_TABLE_BITS, sizeof *v->table);
    if (!v->table) return MB_ENOMEM;
    uint64_t s = 0x6D617275ULL; /* "maru" */
    for (int m = 0; m < MB_MAX_CELLS; m++) {
        v->zobrist[m][0] = splitmix(&s);
        v->zobrist[m][1] = splitmix(&s);
    }
    return MB_OK;
}

void vcf_free(Vcf *v)
{
    free(v->table);
    free(v->count);
    v->table = NULL;
    v->count = NULL;
    v->ncount = 0;
}

/* ---- The position ---- */

static void put(Vcf *v, int m, int p)
{
    const Geometry *g = v->geo;
    v->cells[m] = (uint8_t)p;
    v->key ^= v->zobrist[m][p - 1];
    for (int t = g->thru_start[m]; t < g->thru_start[m + 1]; t++) v->count[g->thru[t]][p - 1]++;
}

static void take(Vcf *v, int m)
{
    const Geometry *g = v->geo;
    int p = v->cells[m];
    v->cells[m] = MARK_EMPTY;
    v->key ^= v->zobrist[m][p - 1];
    for (int t = g->thru_start[m]; t < g->thru_start[m + 1]; t++) v->count[g->thru[t]][p - 1]--;
}

/* Under the exact rule: would p's mark on the empty square m make a run of
 * exactly k in some direction? */
static bool exact_at(const Vcf *v, int m, int p)
{
    const Geometry *g = v->geo;
    int x0 = g->x_of[m], y0 = g->y_of[m], k = g->k;
    for (int d = 0; d < 4; d++) {
        int dx = run_dir[d][0], dy = run_dir[d][1], run = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int x = x0 + s * dx, y = y0 + s * dy; run <= k && geometry_on_board(g, x, y) &&
                                                       v->cells[geometry_xy_to_move(g, x, y)] == p;
                 x += s * dx, y += s * dy)
                run++;
        if (run == k) return true;
    }
    return false;
}

/* A fresh stamp for the seen[] marks of one listing. */
static uint32_t new_stamp(Vcf *v)
{
    if (++v->stamp == 0) {
        memset(v->seen, 0, sizeof v->seen);
        v->stamp = 1;
    }
    return v->stamp;
}

/* p's win squares, at most cap of them, into out; returns how many. */
static int win_squares(Vcf *v, int p, int *out, int cap)
{
    const Geometry *g = v->geo;
    int k = g->k, n = 0, me = p - 1, op = 2 - p;
    uint32_t st = new_stamp(v);
    for (int l = 0; l < g->nlines && n < cap; l++) {
        if (v->count[l][me] != k - 1 || v->count[l][op]) continue;
        const int16_t *sq = &g->line_cells[l * k];
        int j = 0;
        while (v->cells[sq[j]] != MARK_EMPTY) j++;
        int m = sq[j];
        if (v->seen[m] == st) continue;
        v->seen[m] = st;
        if (g->exact && !exact_at(v, m, p)) continue;
        out[n++] = m;
    }
    return n;
}

/* The empty squares of p's windows holding `have` of p's marks and none of
 * the other side's, each once, into out (capacity ncells); returns how
 * many. have = k - 2 lists the squares that may make a four, k - 3 a
 * three. */
static int window_squares(Vcf *v, int p, int have, int16_t *out)
{
    const Geometry *g = v->geo;
    int k = g->k, n = 0, me = p - 1, op = 2 - p;
    if (have < 0) return 0;
    uint32_t st = new_stamp(v);
    for (int l = 0; l < g->nlines; l++) {
        if (v->count[l][me] != have || v->count[l][op]) continue;
        const int16_t *sq = &g->line_cells[l * k];
        for (int j = 0; j < k; j++)
            if (v->cells[sq[j]] == MARK_EMPTY && v->seen[sq[j]] != st) {
                v->seen[sq[j]] = st;
                out[n++] = sq[j];
            }
    }
    return n;
}

/* ---- The table of failed positions ---- */

/* The key of the position with attacker a: a failure is a fact about a
 * position and the side trying to win it, true in any later call. */
static uint64_t key_of(const Vcf *v, int a) { return a == MARK_X ? ~v->key : v->key | 1; }

static VcfEntry *slot(Vcf *v, uint64_t key)
{
    return &v->table[key & (((uint64_t)1 << VCF_TABLE_BITS) - 1)];
}

static bool known_fail(Vcf *v, int a, int depth)
{
    uint64_t key = key_of(v, a);
    const VcfEntry *e = slot(v, key);
    return e->key == key && e->vct == v->vct && e->depth >= depth;
}

static void store_fail(Vcf *v, int a, int depth)
{
    uint64_t key = key_of(v, a);
    VcfEntry *e = slot(v, key);
    if (e->key == key && e->vct == v->vct && e->depth >= depth) return;
    *e = (VcfEntry){key, (int16_t)depth, (uint8_t)v->vct};
}

/* ---- The search ---- */

static bool stop(Vcf *v)
{
    if (v->status) return true;
    if (v->max_nodes && v->nodes >= v->max_nodes) v->status = VCF_NODES;
    if ((v->nodes % CHECK_EVERY) == 0) {
        if (mb_interrupted())
            v->status = VCF_INTERRUPTED;
        else if (v->deadline >= 0 && clock_now() > v->deadline)
            v->status = VCF_TIMEOUT;
    }
    return v->status != 0;
}

/* The line at ply: m, then the line found at ply + skip. */
static void set_line(Lines *ln, int ply, int m, int r, int from)
{
    int n = 0;
    ln->mv[ply][n++] = (int16_t)m;
    if (r >= 0) ln->mv[ply][n++] = (int16_t)r;
    if (from >= 0)
        for (int i = 0; i < ln->n[from]; i++) ln->mv[ply][n++] = ln->mv[from][i];
    ln->n[ply] = n;
}

static bool attack(Vcf *v, Lines *ln, int a, int depth, int ply);

/* After a's three (already played), the defences of d: its fours and the
 * empty squares on a window through a square of the threatened VCF line
 * (ln row `line`), each once, into out; returns how many. */
static int defences(Vcf *v, const Lines *ln, int line, int d, int16_t *out)
{
    const Geometry *g = v->geo;
    int k = g->k;
    int n = window_squares(v, d, k - 2, out); /* d's fours (k >= 2) */
    uint32_t st = v->stamp;                   /* keep those marked */
    for (int i = 0; i < ln->n[line]; i++) {
        int s = ln->mv[line][i];
        for (int t = g->thru_start[s]; t < g->thru_start[s + 1]; t++) {
            const int16_t *sq = &g->line_cells[g->thru[t] * k];
            for (int j = 0; j < k; j++)
                if (v->cells[sq[j]] == MARK_EMPTY && v->seen[sq[j]] != st) {
                    v->seen[sq[j]] = st;
                    out[n++] = sq[j];
                }
        }
    }
    return n;
}

/* Can a, to move, win by fours (and threes when v->vct) within `depth`
 * attacker moves? On true the line is in ln row ply. Step 1 ends the
 * line: a's win, d's double threat, no depth left, a known failure; step 2
 * lists the moves (only the block when d threatens to win); step 3 tries
 * the fours, those making two win squares first; step 4 the threes. */
static bool attack(Vcf *v, Lines *ln, int a, int depth, int ply)
{
    int d = 3 - a, w[2], dw[2];

    /* Step 1. */
    v->nodes++;
    if (stop(v)) return false;
    if (win_squares(v, a, w, 1)) {
        set_line(ln, ply, w[0], -1, -1);
        return true;
    }
    int nd = win_squares(v, d, dw, 2);
    if (nd >= 2 || depth <= 0 || ply + 2 >= VCF_MAX_PLY) return false;
    if (known_fail(v, a, depth)) return false;

    /* Step 2. the fours: squares on a's windows one short of a four */
    const Geometry *g = v->geo;
    int16_t cand[MB_MAX_CELLS];
    int nc = nd ? 1 : window_squares(v, a, g->k - 2, cand);
    if (nd) cand[0] = (int16_t)dw[0];
    int16_t reply[MB_MAX_CELLS];
    bool is_four[MB_MAX_CELLS];

    /* Step 3. a four with two win squares wins at once (d has no win: a's
     * mark never makes one for d); with one, d's block is forced */
    for (int i = 0; i < nc; i++) {
        int m = cand[i];
        put(v, m, a);
        int na = win_squares(v, a, w, 2);
        take(v, m);
        is_four[i] = na > 0;
        reply[i] = (int16_t)(na ? w[0] : -1);
        if (na >= 2) {
            ln->mv[ply][0] = (int16_t)m;
            ln->mv[ply][1] = (int16_t)w[0];
            ln->mv[ply][2] = (int16_t)w[1];
            ln->n[ply] = 3;
            return true;
        }
    }
    for (int i = 0; i < nc; i++) {
        if (!is_four[i]) continue;
        int m = cand[i], r = reply[i];
        put(v, m, a);
        put(v, r, d);
        bool won = attack(v, ln, a, depth - 1, ply + 2);
        take(v, r);
        take(v, m);
        if (won) {
            set_line(ln, ply, m, r, ply + 2);
            return true;
        }
        if (v->status) return false;
    }

    /* Step 4. threes: a move after which a would win by a VCF if d passed;
     * every defence of d must still lose */
    if (v->vct && g->k >= 3) {
        int16_t threes[MB_MAX_CELLS];
        int nt = 0;
        if (nd) {
            if (!is_four[0]) threes[nt++] = cand[0];
        } else {
            nt = window_squares(v, a, g->k - 3, threes);
        }
        for (int i = 0; i < nt; i++) {
            int m = threes[i];
            put(v, m, a);
            if (win_squares(v, a, w, 1)) { /* a four after all: step 3 had it */
                take(v, m);
                continue;
            }
            v->vct = false;
            bool threat = attack(v, ln, a, depth - 1, ply + 1);
            v->vct = true;
            if (!threat) {
                take(v, m);
                if (v->status) return false;
                continue;
            }
            int16_t def[MB_MAX_CELLS];
            int ndef = defences(v, ln, ply + 1, d, def), longest = -1;
            bool all = true;
            /* the line shown goes on with the defence that lasts longest */
            for (int j = 0; j < ndef && all; j++) {
                put(v, def[j], d);
                all = attack(v, ln, a, depth - 1, ply + 2);
                if (all && ln->n[ply + 2] > longest) {
                    longest = ln->n[ply + 2];
                    set_line(ln, ply, m, def[j], ply + 2);
                }
                take(v, def[j]);
            }
            take(v, m);
            if (all && ndef > 0) return true;
            if (v->status) return false;
        }
    }
    if (!v->status) store_fail(v, a, depth);
    return false;
}

int vcf_solve(Vcf *v, const Game *game, const VcfOptions *o, VcfResult *out)
{
    memset(out, 0, sizeof *out);
    out->status = VCF_NONE;
    if (o->maxdepth < 1) return MB_EINVAL;
    const Geometry *g = game_geom(game);
    if (v->ncount < g->nlines) {
        void *p = realloc(v->count, (size_t)g->nlines * sizeof *v->count);
        if (!p) return MB_ENOMEM;
        v->count = p;
        v->ncount = g->nlines;
    }
    Lines *ln = malloc(sizeof *ln);
    if (!ln) return MB_ENOMEM;
    double t0 = clock_now();
    v->geo = g;
    v->key = 0;
    v->nodes = 0;
    v->max_nodes = o->max_nodes;
    v->deadline = o->timelimit >= 0 ? t0 + o->timelimit : -1;
    v->status = 0;
    v->vct = o->vct;
    memset(v->count, 0, (size_t)g->nlines * sizeof *v->count);
    memset(v->cells, 0, sizeof v->cells);
    /* the table holds facts about positions of one shape and rule */
    if (v->table_w != g->width || v->table_h != g->height || v->table_k != g->k ||
        v->table_exact != g->exact) {
        memset(v->table, 0, ((size_t)1 << VCF_TABLE_BITS) * sizeof *v->table);
        v->table_w = g->width;
        v->table_h = g->height;
        v->table_k = g->k;
        v->table_exact = g->exact;
    }
    for (int m = 0; m < g->ncells; m++) {
        Mark mk = game_get(game, m);
        if (mk != MARK_EMPTY) put(v, m, mk);
    }
    if (game->status == STATUS_PLAYING) {
        int depth = o->maxdepth < VCF_MAX_DEPTH ? o->maxdepth : VCF_MAX_DEPTH;
        if (attack(v, ln, game->turn, depth, 0)) {
            out->status = VCF_WIN;
            out->n = ln->n[0];
            for (int i = 0; i < out->n; i++) out->moves[i] = ln->mv[0][i];
        } else {
            out->status = v->status;
        }
    }
    free(ln);
    out->nodes = v->nodes;
    out->seconds = clock_now() - t0;
    return MB_OK;
}
