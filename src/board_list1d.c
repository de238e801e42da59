/* board_list1d.c: the 1-D back-end, cells[y + x*height] (the series'
 * List1dBoard), listing legal moves in the normative order, not its own
 * column order.
 *
 * Win checks count the player's run through the last move in each direction,
 * stepping the index by dx*height + dy and stopping at the board's edge. */
#include "board_backends.h"

#include <string.h>

static const int steps[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};

bool list1d_is_winner(const Board *b, Mark player, int m)
{
    const Geometry *g = b->geom;
    const uint8_t *c = b->cells;
    int w = g->width, h = g->height, k = g->k;
    int x0 = g->x_of[m], y0 = g->y_of[m];
    if (c[m] != player) return false;
    for (int d = 0; d < 4; d++) {
        int dx = steps[d][0], dy = steps[d][1], di = dx * h + dy, run = 1;
        for (int x = x0 + dx, y = y0 + dy, i = m + di; x >= 0 && x < w && y < h && c[i] == player;
             x += dx, y += dy, i += di)
            run++;
        for (int x = x0 - dx, y = y0 - dy, i = m - di; x >= 0 && x < w && y >= 0 && c[i] == player;
             x -= dx, y -= dy, i -= di)
            run++;
        if (run >= k) return true;
    }
    return false;
}

int list1d_empty_squares(const Board *b, int *out)
{
    const Geometry *g = b->geom;
    int n = 0, h = g->height;
    for (int y = 0; y < h; y++)
        for (int i = y; i < g->ncells; i += h)
            if (b->cells[i] == MARK_EMPTY) out[n++] = i;
    return n;
}

void list1d_scan_line_counts(const Board *b, Mark first, int32_t *hist)
{
    const Geometry *g = b->geom;
    int k = g->k;
    for (int i = 0; i < g->nlines; i++) {
        const int16_t *sq = &g->line_cells[i * k];
        int c[3] = {0, 0, 0};
        for (int j = 0; j < k; j++) c[b->cells[sq[j]]]++;
        hist[c[first] * (k + 1) + c[mark_other_(first)]]++;
    }
}

size_t list1d_storage(const Geometry *g) { return ((size_t)g->ncells + 7) & ~(size_t)7; }

void list1d_attach(Board *b, void *mem) { b->cells = mem; }

void list1d_clear(Board *b) { memset(b->cells, MARK_EMPTY, (size_t)b->geom->ncells); }

void list1d_key(const Board *b, char *buf)
{
    for (int m = 0; m < b->geom->ncells; m++) buf[m] = board_mark_char(b->cells[m]);
}
