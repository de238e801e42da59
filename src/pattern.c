/* pattern.c: line pattern codes, classes, values and four sets, kept
 * incrementally (pattern.h).
 *
 * The board is padded with walls (3) on every side, at least R deep, so a
 * walk of up to R squares from a square of the board in any direction
 * stays in the array and never wraps onto another row's squares: padded
 * index i = (y + pad + 1) * pw + x with pw = width + pad (a row's right
 * walls are the next row's left walls).
 *
 * Codes come from the table of the shape's k and rule when its neighbour
 * key fits (2R <= 10 squares: k <= 6 freestyle, k <= 5 exact): the key of
 * a square and direction holds the 2R squares around it, 2 bits each
 * (empty, O, X, wall), neighbour j in 0 .. 2R-1 being the square at offset
 * j - R (j < R) or j - R + 1 (j >= R). The tables are made once per
 * process from a table by "views" (own, empty, blocked: 3^2R entries) and
 * shared by every state. Without a table, a code is computed from the
 * squares (pat_classify). */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mberror.h"
#include "zobrist.h"

#define WALL   3
#define NEAR_R 2 /* the candidate neighbourhood: marks within 2 along the lines */

static const int dir_step[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

/* ---- Names ---- */

const char *pat_code_name(int c, int k, char *buf, size_t len)
{
    if (c <= 0 || c > 2 * k - 1) return "none";
    if (c == 2 * k - 1) return "win";
    if (c % 2 == 0)
        snprintf(buf, len, "open %d", c / 2);
    else
        snprintf(buf, len, "%d", (c + 1) / 2);
    return buf;
}

const char *pat_class_name(int cls)
{
    static const char *const names[PAT_CLASSES] = {
        "none", "three", "double_three", "four", "four_three", "double_four", "open_four", "win",
    };
    return cls >= 0 && cls < PAT_CLASSES ? names[cls] : "none";
}

/* ---- The code of one line ---- */

/* The code for a line in views (0 empty, 1 own, 2 blocked), centre R
 * taken as own; L has 2R + 1 entries. */
static int classify_view(const uint8_t *L, int R, int k, bool exact)
{
    int last = 2 * R, best = 0, win1 = -1, win2 = -1;
    bool five = false;
    for (int a = R - k + 1; a <= R; a++) {
        if (a < 0 || a + k - 1 > last) continue;
        int n = 0, hole = -1;
        bool ok = true;
        for (int j = a; j < a + k; j++) {
            if (L[j] == 2) {
                ok = false;
                break;
            }
            if (L[j] == 1)
                n++;
            else
                hole = j;
        }
        if (!ok) continue;
        if (exact && ((a > 0 && L[a - 1] == 1) || (a + k <= last && L[a + k] == 1))) continue;
        if (n == k)
            five = true;
        else if (n == k - 1 && hole != win1 && hole != win2) {
            if (win1 < 0)
                win1 = hole;
            else
                win2 = hole;
        }
        if (n > best) best = n;
    }
    if (five) return 2 * k - 1;
    if (win2 >= 0) return 2 * k - 2;
    if (win1 >= 0) return 2 * k - 3;
    if (best == 0) return 0;
    int open = 0;
    for (int a = R - k + 1; a <= R - 1; a++) {
        if (a < 0 || a + k > last) continue;
        if (L[a] != 0 || L[a + k] != 0) continue;
        int n = 0;
        bool ok = true;
        for (int j = a + 1; j < a + k; j++) {
            if (L[j] == 2) {
                ok = false;
                break;
            }
            n += L[j] == 1;
        }
        if (!ok) continue;
        if (exact && ((a > 0 && L[a - 1] == 1) || (a + k < last && L[a + k + 1] == 1))) continue;
        if (n > open) open = n;
    }
    return 2 * open > 2 * best - 1 ? 2 * open : 2 * best - 1;
}

int pat_classify(const uint8_t *cells, int reach, int k, bool exact, Mark own)
{
    uint8_t L[2 * MB_MAX_SIDE + 3];
    for (int j = 0; j <= 2 * reach; j++)
        L[j] = cells[j] == own ? 1 : cells[j] == MARK_EMPTY ? 0 : 2;
    L[reach] = 1;
    return classify_view(L, reach, k, exact);
}

/* ---- The shared tables ---- */

static uint16_t *tables[7][2]; /* [k][exact], built on first use */

static int reach_of(int k, bool exact) { return exact ? k : k - 1; }

/* The table of k and rule: 4^2R entries, each code of O | code of X << 8.
 * NULL when out of memory. */
static uint16_t *build_table(int k, bool exact)
{
    int R = reach_of(k, exact), nb = 2 * R;
    size_t n3 = 1, n4 = (size_t)1 << (2 * nb);
    for (int j = 0; j < nb; j++) n3 *= 3;
    uint8_t *view = malloc(n3);
    uint16_t *t = malloc(n4 * sizeof *t);
    if (!view || !t) {
        free(view);
        free(t);
        return NULL;
    }
    uint8_t L[2 * 5 + 1];
    for (size_t v = 0; v < n3; v++) {
        size_t r = v;
        for (int j = 0; j < nb; j++) {
            L[j < R ? j : j + 1] = (uint8_t)(r % 3);
            r /= 3;
        }
        L[R] = 1;
        view[v] = (uint8_t)classify_view(L, R, k, exact);
    }
    static const uint8_t to_o[4] = {0, 1, 2, 2}, to_x[4] = {0, 2, 1, 2};
    for (size_t key = 0; key < n4; key++) {
        size_t vo = 0, vx = 0;
        for (int j = nb - 1; j >= 0; j--) {
            unsigned s = (unsigned)(key >> (2 * j)) & 3;
            vo = vo * 3 + to_o[s];
            vx = vx * 3 + to_x[s];
        }
        t[key] = (uint16_t)(view[vo] | view[vx] << 8);
    }
    free(view);
    return t;
}

/* The shared table of k and rule, made on first use; NULL when the key
 * does not fit (or no memory: the codes are then computed directly). */
static const uint16_t *table_for(int k, bool exact)
{
    int R = reach_of(k, exact);
    if (R < 1 || 4 * R > PAT_TABLE_BITS) return NULL;
    uint16_t **slot = &tables[k][exact];
    uint16_t *t = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (t) return t;
    t = build_table(k, exact);
    if (!t) return NULL;
    uint16_t *expected = NULL;
    if (!__atomic_compare_exchange_n(slot, &expected, t, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        free(t); /* another thread made it first */
        t = expected;
    }
    return t;
}

/* ---- Weights ---- */

PatWeights pat_default_weights(void)
{
    PatWeights w;
    memset(&w, 0, sizeof w);
    /* by level: win, open 4, 4, open 3, 3, open 2, 2, open 1, 1 (k = 5) */
    static const int32_t shape[] = {10000, 1200, 160, 140, 40, 36, 8, 3, 1};
    for (size_t i = 0; i < sizeof shape / sizeof shape[0]; i++) w.shape[i] = shape[i];
    w.combo[PAT_C_THREE2] = 300;
    w.combo[PAT_C_FOUR3] = 600;
    w.combo[PAT_C_FOUR2] = 1000;
    w.combo[PAT_C_OPEN4] = 1000;
    w.combo[PAT_C_WIN] = 10000;
    /* a move adds about this much to its side's sum: without it the
     * evaluation swings by twice that from one depth to the next */
    w.tempo = 800;
    return w;
}

static void load_weights(PatState *ps, const PatWeights *w)
{
    ps->weights = w ? *w : pat_default_weights();
    int top = pat_code_win(ps->k);
    memset(ps->wcode, 0, sizeof ps->wcode);
    for (int c = 1; c <= top; c++) {
        int level = top - c;
        ps->wcode[c] = level < PAT_SHAPES ? ps->weights.shape[level] : 0;
    }
}

/* ---- Layout ---- */

typedef struct PLayout {
    size_t value, key, idx_of, move_of, sets, code, cls, cell, near, total;
    int pad, pw, n;
    bool table;
} PLayout;

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

static PLayout playout(const Geometry *g, bool table)
{
    PLayout l;
    int R = reach_of(g->k, g->exact);
    l.pad = R > NEAR_R ? R : NEAR_R;
    l.pw = g->width + l.pad;
    l.n = (g->height + 2 * l.pad + 2) * l.pw;
    l.table = table;
    size_t n = (size_t)l.n;
    l.value = round8(n * 2 * sizeof(int32_t));
    l.key = table ? round8(n * 4 * sizeof(uint32_t)) : 0;
    l.idx_of = round8((size_t)g->ncells * sizeof(int16_t));
    l.move_of = round8(n * sizeof(int16_t));
    l.sets = round8(4 * n * sizeof(int16_t));
    l.code = round8(n * 8);
    l.cls = round8(n * 2);
    l.cell = round8(n);
    l.near = round8(n);
    l.total = l.value + l.key + l.idx_of + l.move_of + l.sets + l.code + l.cls + l.cell + l.near;
    return l;
}

static void pattach(PatState *ps, const PLayout *l)
{
    char *p = ps->mem;
    size_t n = (size_t)l->n;
    ps->value = (int32_t *)(void *)p;
    p += l->value;
    ps->key = l->table ? (uint32_t *)(void *)p : NULL;
    p += l->key;
    ps->idx_of = (int16_t *)(void *)p;
    p += l->idx_of;
    ps->move_of = (int16_t *)(void *)p;
    p += l->move_of;
    int16_t *sets = (int16_t *)(void *)p;
    ps->set4[0] = ps->pos4[0] = NULL;
    ps->set4[MARK_O] = sets;
    ps->set4[MARK_X] = sets + n;
    ps->pos4[MARK_O] = sets + 2 * n;
    ps->pos4[MARK_X] = sets + 3 * n;
    p += l->sets;
    ps->code = (uint8_t *)p;
    p += l->code;
    ps->cls = (uint8_t *)p;
    p += l->cls;
    ps->cell = (uint8_t *)p;
    p += l->cell;
    ps->near = (uint8_t *)p;
}

size_t pat_bytes(const Geometry *g)
{
    return sizeof(PatState) + playout(g, table_for(g->k, g->exact) != NULL).total;
}

/* A state with tab (or NULL: direct codes), empty board. */
static PatState *pnew(const Geometry *g, const PatWeights *w, const uint16_t *tab)
{
    PatState *ps = calloc(1, sizeof *ps);
    if (!ps) return NULL;
    PLayout l = playout(g, tab != NULL);
    ps->mem = calloc(1, l.total);
    if (!ps->mem) {
        free(ps);
        return NULL;
    }
    ps->geo = g;
    ps->w = g->width;
    ps->h = g->height;
    ps->k = g->k;
    ps->exact = g->exact;
    ps->reach = reach_of(g->k, g->exact);
    /* the lowest code that counts in a class: an open k-2 (k >= 3), else
     * a k-1 (k = 2), else a win */
    ps->class_from = g->k >= 3 ? 2 * g->k - 4 : 1;
    ps->pad = l.pad;
    ps->pw = l.pw;
    ps->n = l.n;
    ps->tab = tab;
    for (int d = 0; d < 4; d++) ps->delta[d] = dir_step[d][0] + dir_step[d][1] * ps->pw;
    pattach(ps, &l);
    for (int i = 0; i < ps->n; i++) {
        ps->cell[i] = WALL;
        ps->move_of[i] = -1;
    }
    for (int m = 0; m < g->ncells; m++) {
        int i = (g->y_of[m] + ps->pad + 1) * ps->pw + g->x_of[m];
        ps->idx_of[m] = (int16_t)i;
        ps->move_of[i] = (int16_t)m;
        ps->cell[i] = MARK_EMPTY;
    }
    load_weights(ps, w);
    return ps;
}

void pat_free(PatState *ps)
{
    if (!ps) return;
    free(ps->mem);
    free(ps);
}

PatState *pat_clone(const PatState *src)
{
    PatState *ps = malloc(sizeof *ps);
    if (!ps) return NULL;
    *ps = *src;
    PLayout l = playout(src->geo, src->tab != NULL);
    ps->mem = malloc(l.total);
    if (!ps->mem) {
        free(ps);
        return NULL;
    }
    memcpy(ps->mem, src->mem, l.total);
    pattach(ps, &l);
    return ps;
}

/* ---- Codes, classes, values ---- */

/* The codes of square i in direction d for both sides, from the table or
 * the squares. */
static inline uint16_t codes_of(const PatState *ps, int i, int d)
{
    if (ps->tab) return ps->tab[ps->key[i * 4 + d]];
    uint8_t line[2 * MB_MAX_SIDE + 3];
    int R = ps->reach, step = ps->delta[d];
    for (int j = -R; j <= R; j++) line[R + j] = ps->cell[i + j * step];
    line[R] = MARK_EMPTY;
    return (uint16_t)(pat_classify(line, R, ps->k, ps->exact, MARK_O) |
                      pat_classify(line, R, ps->k, ps->exact, MARK_X) << 8);
}

/* The class and value of the empty square i for p from its codes. */
static inline int class_of(const PatState *ps, int i, Mark p, int32_t *value)
{
    const uint8_t *c = &ps->code[i * 8 + p - 1];
    int win = 2 * ps->k - 1, o4 = win - 1, f4 = win - 2, o3 = win - 3;
    int n_o4 = 0, n_f4 = 0, n_o3 = 0;
    bool w = false;
    int32_t v = 0;
    for (int d = 0; d < 4; d++) {
        int code = c[2 * d];
        v += ps->wcode[code];
        if (code == win)
            w = true;
        else if (code == o4 && o4 >= 2)
            n_o4++;
        else if (code == f4 && f4 >= 1)
            n_f4++;
        else if (code == o3 && o3 >= 2)
            n_o3++;
    }
    int cls = w                   ? PAT_C_WIN
              : n_o4              ? PAT_C_OPEN4
              : n_f4 >= 2         ? PAT_C_FOUR2
              : n_f4 == 1 && n_o3 ? PAT_C_FOUR3
              : n_f4 == 1         ? PAT_C_FOUR
              : n_o3 >= 2         ? PAT_C_THREE2
              : n_o3 == 1         ? PAT_C_THREE
                                  : PAT_C_NONE;
    *value = v + ps->weights.combo[cls];
    return cls;
}

static inline void set4_add(PatState *ps, Mark p, int i)
{
    ps->pos4[p][i] = (int16_t)ps->n4[p];
    ps->set4[p][ps->n4[p]++] = (int16_t)i;
}

static inline void set4_remove(PatState *ps, Mark p, int i)
{
    int at = ps->pos4[p][i], last = ps->set4[p][--ps->n4[p]];
    ps->set4[p][at] = (int16_t)last;
    ps->pos4[p][last] = (int16_t)at;
    ps->pos4[p][i] = -1;
}

/* Square i (empty) joins the aggregates with its current class and value. */
static inline void cell_enter(PatState *ps, int i)
{
    for (Mark p = MARK_O; p <= MARK_X; p++) {
        int32_t v;
        int c = class_of(ps, i, p, &v);
        ps->cls[i * 2 + p - 1] = (uint8_t)c;
        ps->value[i * 2 + p - 1] = v;
        ps->count[p][c]++;
        ps->sum[p] += v;
        if (c >= PAT_C_FOUR) set4_add(ps, p, i);
    }
}

/* Square i (empty until now) leaves the aggregates. */
static inline void cell_leave(PatState *ps, int i)
{
    for (Mark p = MARK_O; p <= MARK_X; p++) {
        int c = ps->cls[i * 2 + p - 1];
        ps->count[p][c]--;
        ps->sum[p] -= ps->value[i * 2 + p - 1];
        if (c >= PAT_C_FOUR) set4_remove(ps, p, i);
    }
}

/* The code of the empty square i for p in one direction went from `old`
 * to `now` (already stored): its value follows at once, its class only
 * when either code is an open k-2 or better (nothing lower enters a
 * class). */
static inline void code_changed(PatState *ps, int i, Mark p, int old, int now)
{
    int at = i * 2 + p - 1, oc = ps->cls[at], nc = oc;
    int32_t dv = ps->wcode[now] - ps->wcode[old];
    if (old >= ps->class_from || now >= ps->class_from) {
        int32_t unused;
        nc = class_of(ps, i, p, &unused);
        dv += ps->weights.combo[nc] - ps->weights.combo[oc];
    }
    ps->value[at] += dv;
    ps->sum[p] += dv;
    if (nc != oc) {
        ps->cls[at] = (uint8_t)nc;
        ps->count[p][oc]--;
        ps->count[p][nc]++;
        if ((oc >= PAT_C_FOUR) != (nc >= PAT_C_FOUR)) {
            if (nc >= PAT_C_FOUR)
                set4_add(ps, p, i);
            else
                set4_remove(ps, p, i);
        }
    }
}

/* ---- Recount ---- */

/* Everything derived from cell[]: keys, codes, classes, values, sums,
 * counts, sets, near counts, the Zobrist key. */
static void rebuild(PatState *ps)
{
    int R = ps->reach;
    memset(ps->count, 0, sizeof ps->count);
    ps->sum[0] = ps->sum[1] = ps->sum[2] = 0;
    ps->n4[0] = ps->n4[1] = ps->n4[2] = 0;
    ps->zkey = 0;
    ps->stones = 0;
    memset(ps->near, 0, (size_t)ps->n);
    for (int i = 0; i < ps->n; i++) ps->pos4[MARK_O][i] = ps->pos4[MARK_X][i] = -1;
    for (int m = 0; m < ps->geo->ncells; m++) {
        int i = ps->idx_of[m];
        Mark c = ps->cell[i];
        if (ps->key)
            for (int d = 0; d < 4; d++) {
                uint32_t key = 0;
                for (int j = 2 * R - 1; j >= 0; j--) {
                    int off = j < R ? j - R : j - R + 1;
                    key = key << 2 | ps->cell[i + off * ps->delta[d]];
                }
                ps->key[i * 4 + d] = key;
            }
        if (c == MARK_EMPTY) continue;
        ps->stones++;
        ps->zkey ^= zobrist_value(m, c);
        for (int d = 0; d < 4; d++)
            for (int j = 1; j <= NEAR_R; j++) {
                ps->near[i + j * ps->delta[d]]++;
                ps->near[i - j * ps->delta[d]]++;
            }
    }
    for (int m = 0; m < ps->geo->ncells; m++) {
        int i = ps->idx_of[m];
        if (ps->cell[i] != MARK_EMPTY) continue;
        for (int d = 0; d < 4; d++) {
            uint16_t cc = codes_of(ps, i, d);
            ps->code[(i * 4 + d) * 2] = (uint8_t)(cc & 0xff);
            ps->code[(i * 4 + d) * 2 + 1] = (uint8_t)(cc >> 8);
        }
        cell_enter(ps, i);
    }
}

PatState *pat_new(const Geometry *g, const PatWeights *w)
{
    PatState *ps = pnew(g, w, table_for(g->k, g->exact));
    if (ps) rebuild(ps);
    return ps;
}

void pat_recount(PatState *ps, const Board *b)
{
    for (int m = 0; m < ps->geo->ncells; m++) ps->cell[ps->idx_of[m]] = board_get(b, m);
    rebuild(ps);
}

void pat_set_weights(PatState *ps, const PatWeights *w)
{
    load_weights(ps, w);
    rebuild(ps);
}

/* ---- Updates ---- */

/* The codes of the line squares around s in direction d changed (a mark
 * came or went on s): refresh the empty ones. With a table, first move
 * the mark's bits (set: `bits` = the mark, clear: 0) in their keys. */
static inline void update_lines(PatState *ps, int s, unsigned bits)
{
    int R = ps->reach;
    for (int d = 0; d < 4; d++) {
        int step = ps->delta[d];
        for (int side = -1; side <= 1; side += 2) {
            for (int j = 1; j <= R; j++) {
                int i = s + side * j * step;
                if (ps->cell[i] == WALL) break;
                if (ps->key) {
                    /* s lies at offset -side*j from i */
                    int off = -side * j, nb = off < 0 ? off + R : off + R - 1;
                    uint32_t *k = &ps->key[i * 4 + d];
                    *k = (*k & ~(3u << (2 * nb))) | bits << (2 * nb);
                }
                if (ps->cell[i] != MARK_EMPTY) continue;
                uint16_t cc = codes_of(ps, i, d);
                uint8_t *code = &ps->code[(i * 4 + d) * 2];
                int o = cc & 0xff, x = cc >> 8, oo = code[0], ox = code[1];
                if (o != oo) {
                    code[0] = (uint8_t)o;
                    code_changed(ps, i, MARK_O, oo, o);
                }
                if (x != ox) {
                    code[1] = (uint8_t)x;
                    code_changed(ps, i, MARK_X, ox, x);
                }
            }
        }
    }
}

static inline void near_add(PatState *ps, int s, int delta)
{
    for (int d = 0; d < 4; d++)
        for (int j = 1; j <= NEAR_R; j++) {
            ps->near[s + j * ps->delta[d]] = (uint8_t)(ps->near[s + j * ps->delta[d]] + delta);
            ps->near[s - j * ps->delta[d]] = (uint8_t)(ps->near[s - j * ps->delta[d]] + delta);
        }
}

void pat_place_idx(PatState *ps, int i, Mark p)
{
    cell_leave(ps, i);
    ps->cell[i] = p;
    ps->stones++;
    ps->zkey ^= zobrist_value(ps->move_of[i], p);
    near_add(ps, i, 1);
    update_lines(ps, i, p);
}

void pat_lift_idx(PatState *ps, int i, Mark p)
{
    ps->cell[i] = MARK_EMPTY;
    ps->stones--;
    ps->zkey ^= zobrist_value(ps->move_of[i], p);
    near_add(ps, i, -1);
    update_lines(ps, i, 0);
    for (int d = 0; d < 4; d++) {
        uint16_t cc = codes_of(ps, i, d);
        ps->code[(i * 4 + d) * 2] = (uint8_t)(cc & 0xff);
        ps->code[(i * 4 + d) * 2 + 1] = (uint8_t)(cc >> 8);
    }
    cell_enter(ps, i);
}

void pat_place(PatState *ps, int m, Mark p) { pat_place_idx(ps, ps->idx_of[m], p); }
void pat_lift(PatState *ps, int m, Mark p) { pat_lift_idx(ps, ps->idx_of[m], p); }

/* ---- Reading ---- */

int pat_wins(const PatState *ps, Mark p, int *out, int cap)
{
    int n = 0;
    for (int j = 0; j < ps->n4[p] && n < cap; j++) {
        int i = ps->set4[p][j];
        if (ps->cls[i * 2 + p - 1] == PAT_C_WIN) out[n++] = i;
    }
    return n;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int pat_forced(const PatState *ps, Mark me, int *out, int *reason)
{
    Mark opp = (Mark)(3 - me);
    int n = 0;
    *reason = 0;
    if (ps->count[me][PAT_C_WIN]) {
        n = pat_wins(ps, me, out, ps->n);
        *reason = 1;
    } else if (ps->count[opp][PAT_C_WIN]) {
        n = pat_wins(ps, opp, out, ps->n);
        *reason = 2;
    } else if (ps->count[opp][PAT_C_OPEN4] || ps->count[opp][PAT_C_FOUR2]) {
        for (int j = 0; j < ps->n4[me]; j++) out[n++] = ps->set4[me][j];
        for (int j = 0; j < ps->n4[opp]; j++)
            if (ps->pos4[me][ps->set4[opp][j]] < 0) out[n++] = ps->set4[opp][j];
        *reason = 3;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

/* ---- The checker ---- */

bool pat_ok(const PatState *ps, const Board *b)
{
    PatState *r = pnew(ps->geo, &ps->weights, NULL);
    if (!r) return true; /* cannot check without memory */
    pat_recount(r, b);
    bool ok = r->zkey == ps->zkey && r->stones == ps->stones &&
              memcmp(r->count, ps->count, sizeof r->count) == 0 &&
              r->sum[MARK_O] == ps->sum[MARK_O] && r->sum[MARK_X] == ps->sum[MARK_X] &&
              r->n4[MARK_O] == ps->n4[MARK_O] && r->n4[MARK_X] == ps->n4[MARK_X];
    for (int m = 0; ok && m < ps->geo->ncells; m++) {
        int i = ps->idx_of[m];
        ok = r->cell[i] == ps->cell[i] && r->near[i] == ps->near[i];
        if (!ok || ps->cell[i] != MARK_EMPTY) continue;
        ok = memcmp(&r->code[i * 8], &ps->code[i * 8], 8) == 0 &&
             memcmp(&r->cls[i * 2], &ps->cls[i * 2], 2) == 0 &&
             memcmp(&r->value[i * 2], &ps->value[i * 2], 2 * sizeof(int32_t)) == 0;
        for (Mark p = MARK_O; ok && p <= MARK_X; p++)
            ok = (ps->pos4[p][i] >= 0) == (ps->cls[i * 2 + p - 1] >= PAT_C_FOUR) &&
                 (ps->pos4[p][i] < 0 || ps->set4[p][ps->pos4[p][i]] == i);
    }
    pat_free(r);
    return ok;
}
