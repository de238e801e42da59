/* board_list.c: the 2-D back-end, cols[x][y] (the series' ListBoard).
 *
 * Win checks walk outwards from the last move in each of the four directions
 * and count the player's consecutive marks: a run of k or more through the
 * square is exactly a full line window through it. */
#include "board_backends.h"

#include <string.h>

static const int steps[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

bool list_is_winner(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    int w = g->width, h = g->height, k = g->k;
    int x0 = g->x_of[m], y0 = g->y_of[m];
    if (b->cols[x0][y0] != player) return false;
    for (int d = 0; d < 4; d++) {
        int dx = steps[d][0], dy = steps[d][1], run = 1;
        for (int x = x0 + dx, y = y0 + dy; x >= 0 && x < w && y < h && b->cols[x][y] == player;
             x += dx, y += dy)
            run++;
        for (int x = x0 - dx, y = y0 - dy; x >= 0 && x < w && y >= 0 && b->cols[x][y] == player;
             x -= dx, y -= dy)
            run++;
        if (run >= k) return true;
    }
    return false;
}

int list_empty_squares(const Board *b, int *out)
{
    const Geometry *g = b->geom;
    int n = 0;
    for (int y = 0; y < g->height; y++)
        for (int x = 0; x < g->width; x++)
            if (b->cols[x][y] == MARK_EMPTY) out[n++] = y + x * g->height;
    return n;
}

void list_scan_line_counts(const Board *b, Mark first, int32_t *hist)
{
    const Geometry *g = b->geom;
    int k = g->k;
    for (int i = 0; i < g->nlines; i++) {
        const Line *ln = &g->lines[i];
        int c[3] = {0, 0, 0};
        for (int j = 0, x = ln->x, y = ln->y; j < k; j++, x += ln->dx, y += ln->dy)
            c[b->cols[x][y]]++;
        hist[c[first] * (k + 1) + c[mark_other_(first)]]++;
    }
}

/* The storage: the column pointers, then the squares, column after column
 * (so that the columns are contiguous in move order). */
static size_t cols_bytes(const Geometry *g)
{
    return ((size_t)g->width * sizeof(uint8_t *) + 7) & ~(size_t)7;
}

size_t list_storage(const Geometry *g)
{
    return cols_bytes(g) + (((size_t)g->ncells + 7) & ~(size_t)7);
}

void list_attach(Board *b, void *mem)
{
    const Geometry *g = b->geom;
    b->cols = mem;
    uint8_t *cells = (uint8_t *)mem + cols_bytes(g);
    for (int x = 0; x < g->width; x++) b->cols[x] = cells + (size_t)x * (size_t)g->height;
}

void list_clear(Board *b) { memset(b->cols[0], MARK_EMPTY, (size_t)b->geom->ncells); }

void list_key(const Board *b, char *buf)
{
    const uint8_t *c = b->cols[0]; /* the columns are contiguous, in move order */
    for (int m = 0; m < b->geom->ncells; m++) buf[m] = board_mark_char(c[m]);
}
