/* markpats.c: mark-pattern histograms (see markpats.h).
 *
 * The counters keep the histogram of lines by (o count, x count); the
 * (last, turn) view is a copy when 〇 moved last and a transpose when ×
 * did. The scan counts in (last, turn) order directly. */
#include "markpats.h"

#include <stdio.h>
#include <string.h>

/* Reorder an (o, x) histogram into (last_turn, turn) order. Only the
 * entries with o + x <= k can be non-zero; the others are set to 0. */
static void orient(const Geometry *g, const int32_t *ox, Mark last_turn, int32_t *hist)
{
    int k1 = g->k + 1, n = k1 * k1;
    if (last_turn == MARK_O) {
        memcpy(hist, ox, (size_t)n * sizeof *hist);
        return;
    }
    memset(hist, 0, (size_t)n * sizeof *hist);
    for (int o = 0; o < k1; o++)
        for (int x = 0; o + x < k1; x++) hist[x * k1 + o] = ox[o * k1 + x];
}

void markpats_count(const Board *b, Mark turn, Mark last_turn, int32_t *hist)
{
    if (!b->counters) {
        markpats_count_scan(b, turn, last_turn, hist);
        return;
    }
    orient(b->geom, b->hist, last_turn == MARK_EMPTY ? mark_other(turn) : last_turn, hist);
}

void markpats_count_scan(const Board *b, Mark turn, Mark last_turn, int32_t *hist)
{
    board_scan_line_counts(b, last_turn == MARK_EMPTY ? mark_other(turn) : last_turn, hist);
}

void markpats_of_game(const Game *g, int32_t *hist)
{
    markpats_count(&g->board, g->turn, g->last_turn, hist);
}

int markpats_format(const Geometry *g, const int32_t *hist, char *buf, size_t len)
{
    int k = g->k, k1 = k + 1;
    size_t used = 0;
    if (len == 0) return -1;
    buf[0] = '\0';
    for (int last = 0; last < k1; last++)
        for (int turn = 0; turn + last <= k; turn++) {
            int32_t n = hist[last * k1 + turn];
            if (!n) continue;
            int w = snprintf(buf + used, len - used, "(%d, %d, %d): %d\n", last, turn,
                             k - last - turn, (int)n);
            if (w < 0 || (size_t)w >= len - used) return -1;
            used += (size_t)w;
        }
    return (int)used;
}
