/* geometry.c: board shapes and their line windows (see geometry.h). */
#include "geometry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mberror.h"

int geometry_check(int width, int height, int k, char *err, size_t errlen)
{
    const char *what = NULL;
    char buf[128];
    if (width < 1 || width > MB_MAX_SIDE || height < 1 || height > MB_MAX_SIDE) {
        snprintf(buf, sizeof buf, "board size %dx%d is not supported (each side 1..%d)", width,
                 height, MB_MAX_SIDE);
        what = buf;
    } else {
        int longest = width > height ? width : height;
        if (k < 0 || k > longest) {
            snprintf(buf, sizeof buf, "k = %d is not possible on a %dx%d board (1..%d)", k, width,
                     height, longest);
            what = buf;
        }
    }
    if (!what) return MB_OK;
    if (err && errlen) snprintf(err, errlen, "%s", what);
    return MB_ESIZE;
}

int geometry_default_k(int width, int height) { return width < height ? width : height; }

/* The four directions, in canonical order. k = 1 keeps only the first. */
static const int8_t dir_step[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

/* Enumerate the windows of one direction in canonical order; with out NULL
 * only count them. Rows are listed y outer, columns x outer, diagonals by
 * their first square, row by row. */
static int list_windows(int w, int h, int k, int dir, Line *out)
{
    int dx = dir_step[dir][0], dy = dir_step[dir][1], n = 0;
    int x_lo = dx < 0 ? k - 1 : 0;
    int x_hi = dx > 0 ? w - k : w - 1;
    int y_hi = dy > 0 ? h - k : h - 1;
    if (dir == DIR_COLUMN) {
        for (int x = 0; x < w; x++)
            for (int y = 0; y <= y_hi; y++, n++)
                if (out) out[n] = (Line){(int8_t)x, (int8_t)y, 0, 1, (uint8_t)dir};
        return n;
    }
    for (int y = 0; y <= y_hi; y++)
        for (int x = x_lo; x <= x_hi; x++, n++)
            if (out) out[n] = (Line){(int8_t)x, (int8_t)y, (int8_t)dx, (int8_t)dy, (uint8_t)dir};
    return n;
}

static void *xcalloc(size_t n, size_t size, bool *failed)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) *failed = true;
    return p;
}

bool geometry_exact_run(const Geometry *g, uint64_t plane, int m)
{
    static const int8_t step[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    int x0 = g->x_of[m], y0 = g->y_of[m], k = g->k, w = g->width;
    for (int d = 0; d < 4; d++) {
        int dx = step[d][0], dy = step[d][1], run = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int x = x0 + s * dx, y = y0 + s * dy;
                 run <= k && geometry_on_board(g, x, y) && (plane >> (x + y * w) & 1);
                 x += s * dx, y += s * dy)
                run++;
        if (run == k) return true;
    }
    return false;
}

/* Step 5 for small boards: answer "does plane p hold a line through m?" by
 * one table lookup, so the judge of a bitboard has no loop and no branch.
 * Under the exact rule the table holds the exact answer, so the judge of a
 * small board costs the same under both rules. */
static bool build_win_table(Geometry *g)
{
    size_t planes = (size_t)1 << g->ncells;
    g->win_words = planes < 64 ? 1 : (int)(planes / 64);
    g->win_table = calloc((size_t)g->ncells * (size_t)g->win_words, sizeof *g->win_table);
    if (!g->win_table) return false;
    for (int m = 0; m < g->ncells; m++)
        for (size_t p = 0; p < planes; p++)
            for (int t = g->thru_start[m]; t < g->thru_start[m + 1]; t++)
                if ((p & g->thru_mask[t]) == g->thru_mask[t]) {
                    if (!g->exact || geometry_exact_run(g, p, m))
                        g->win_table[(size_t)m * (size_t)g->win_words + p / 64] |= 1ULL << (p % 64);
                    break;
                }
    return true;
}

/* Step 6 for the smallest boards: the legal moves of every empty mask. */
static bool build_legal_table(Geometry *g)
{
    size_t rows = (size_t)1 << g->ncells;
    g->legal_table = malloc(rows * GEOM_LEGAL_CELLS * sizeof *g->legal_table);
    if (!g->legal_table) return false;
    for (size_t e = 0; e < rows; e++) {
        int32_t *row = g->legal_table + e * GEOM_LEGAL_CELLS;
        int n = 0;
        for (int bit = 0; bit < g->ncells; bit++)
            if (e >> bit & 1) row[n++] = g->move_of[bit];
        while (n < GEOM_LEGAL_CELLS) row[n++] = -1;
    }
    return true;
}

Geometry *geometry_new(int width, int height, int k)
{
    return geometry_new_rule(width, height, k, false);
}

const char *geometry_rule_name(bool exact) { return exact ? "exact" : "freestyle"; }

int geometry_rule_parse(const char *name, bool *exact, char *err, size_t errlen)
{
    if (strcmp(name, "freestyle") == 0 || strcmp(name, "exact") == 0) {
        *exact = name[0] == 'e';
        return MB_OK;
    }
    if (err && errlen) {
        if (strcmp(name, "renju") == 0)
            snprintf(err, errlen,
                     "the renju rule is not supported (its forbidden moves are not "
                     "implemented): the rules are " GEOMETRY_RULE_NAMES);
        else
            snprintf(err, errlen, "unknown rule '%s' (" GEOMETRY_RULE_NAMES ")", name);
    }
    return MB_EINVAL;
}

Geometry *geometry_new_rule(int width, int height, int k, bool exact)
{
    if (k == 0) k = geometry_default_k(width, height);
    if (geometry_check(width, height, k, NULL, 0) != MB_OK) return NULL;
    Geometry *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->width = width;
    g->height = height;
    g->k = k;
    g->exact = exact;
    g->ncells = width * height;
    g->nwords = (g->ncells + 63) / 64;
    g->refs = 1;

    int ndirs = k == 1 ? 1 : 4, counts[4] = {0};
    for (int d = 0; d < ndirs; d++) {
        counts[d] = list_windows(width, height, k, d, NULL);
        g->nlines += counts[d];
    }
    bool failed = false;
    g->lines = xcalloc((size_t)g->nlines, sizeof *g->lines, &failed);
    g->line_cells = xcalloc((size_t)g->nlines * (size_t)k, sizeof *g->line_cells, &failed);
    g->thru_start = xcalloc((size_t)g->ncells + 1, sizeof *g->thru_start, &failed);
    g->thru = xcalloc((size_t)g->nlines * (size_t)k, sizeof *g->thru, &failed);
    g->bit_of = xcalloc((size_t)g->ncells, sizeof *g->bit_of, &failed);
    g->move_of = xcalloc((size_t)g->ncells, sizeof *g->move_of, &failed);
    g->line_mask = xcalloc((size_t)g->nlines * (size_t)g->nwords, sizeof *g->line_mask, &failed);
    g->full_mask = xcalloc((size_t)g->nwords, sizeof *g->full_mask, &failed);
    g->x_of = xcalloc((size_t)g->ncells, sizeof *g->x_of, &failed);
    g->y_of = xcalloc((size_t)g->ncells, sizeof *g->y_of, &failed);
    if (g->nwords == 1)
        g->thru_mask = xcalloc((size_t)g->nlines * (size_t)k, sizeof *g->thru_mask, &failed);
    /* nobody can complete a line before move 2k - 1, but a board smaller
     * than that (1x4 with k = 3) fills up first: its last move must still be
     * judged, as a draw */
    g->win_from = 2 * k - 1 < g->ncells ? 2 * k - 1 : g->ncells;
    if (failed) {
        geometry_unref(g);
        return NULL;
    }

    /* Step 1. the windows, direction by direction */
    for (int d = 0, n = 0; d < ndirs; n += counts[d], d++)
        list_windows(width, height, k, d, g->lines + n);

    /* Step 2. bit numbering: row-major, so bit order = legal-move order */
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            int m = y + x * height, b = x + y * width;
            g->bit_of[m] = (int16_t)b;
            g->x_of[m] = (int8_t)x;
            g->y_of[m] = (int8_t)y;
            g->move_of[b] = (int16_t)m;
            g->full_mask[b / 64] |= 1ULL << (b % 64);
        }

    /* Step 3. squares and masks of each line; count lines per square */
    for (int i = 0; i < g->nlines; i++) {
        const Line *ln = &g->lines[i];
        for (int j = 0; j < k; j++) {
            int x = ln->x + j * ln->dx, y = ln->y + j * ln->dy;
            int m = y + x * height, b = x + y * width;
            g->line_cells[i * k + j] = (int16_t)m;
            g->line_mask[i * g->nwords + b / 64] |= 1ULL << (b % 64);
            g->thru_start[m + 1]++;
        }
    }

    /* Step 4. lines through each square (CSR), in canonical line order */
    for (int m = 0; m < g->ncells; m++) g->thru_start[m + 1] += g->thru_start[m];
    int32_t *fill = calloc((size_t)g->ncells, sizeof *fill);
    if (!fill) {
        geometry_unref(g);
        return NULL;
    }
    for (int i = 0; i < g->nlines; i++)
        for (int j = 0; j < k; j++) {
            int m = g->line_cells[i * k + j], t = g->thru_start[m] + fill[m]++;
            g->thru[t] = (int16_t)i;
            if (g->thru_mask) g->thru_mask[t] = g->line_mask[i];
        }
    free(fill);
    if ((g->ncells <= GEOM_TABLE_CELLS && !build_win_table(g)) ||
        (g->ncells <= GEOM_LEGAL_CELLS && !build_legal_table(g))) {
        geometry_unref(g);
        return NULL;
    }
    return g;
}

Geometry *geometry_ref(Geometry *g)
{
    __atomic_add_fetch(&g->refs, 1, __ATOMIC_RELAXED);
    return g;
}

void geometry_unref(Geometry *g)
{
    if (!g || __atomic_sub_fetch(&g->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
    free(g->lines);
    free(g->line_cells);
    free(g->thru_start);
    free(g->thru);
    free(g->bit_of);
    free(g->move_of);
    free(g->line_mask);
    free(g->full_mask);
    free(g->thru_mask);
    free(g->win_table);
    free(g->legal_table);
    free(g->x_of);
    free(g->y_of);
    free(g);
}
