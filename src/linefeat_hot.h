/* linefeat_hot.h: the incremental update of a board's line features
 * (linefeat.h) as an inline function, for move and unmove (game_hot.h) and
 * the board's writes (board.c). Private to the engine's .c files. */
#ifndef MB_LINEFEAT_HOT_H
#define MB_LINEFEAT_HOT_H

#include "linefeat.h"
#include "pattern.h"

/* Put window li into the hot set (on) or take it out. */
static inline void linefeat_hot_flip(LineFeat *f, int li, bool on)
{
    if (on) {
        f->hot_pos[li] = f->nhot;
        f->hot_list[f->nhot++] = li;
    } else {
        int at = f->hot_pos[li], last = f->hot_list[--f->nhot];
        f->hot_list[at] = last;
        f->hot_pos[last] = at;
        f->hot_pos[li] = -1;
    }
}

/* `mark` gained (delta +1) or lost (delta -1) square m: the key changes by
 * the square's Zobrist value, every window through m moves one step along
 * the histogram, and a window entering or leaving a hot class enters or
 * leaves the hot set. Both that and a window becoming full (a win, when it
 * is `mark`'s) change the window's class bits (LINEFEAT_HOT, LINEFEAT_FULL),
 * so the common case costs one test. Returns true when a window through m
 * became full of `mark`'s marks. */
static inline __attribute__((always_inline)) bool linefeat_update_inline(LineFeat *f, int m,
                                                                         Mark mark, int delta)
{
    const Geometry *g = f->geo;
    f->key ^= f->zob[2 * m + mark - 1];
    f->cell[m] = delta > 0 ? mark : MARK_EMPTY;
    f->cached = f->cached_win = false;
    if (f->pat) { /* pattern codes (pattern.h), when a game asked for them */
        if (delta > 0)
            pat_place(f->pat, m, mark);
        else
            pat_lift(f->pat, m, mark);
    }
    int step = (mark == MARK_O ? f->k1 : 1) * delta;
    const uint8_t *cls = f->hot;
    uint16_t *line = f->line;
    int32_t *hist = f->hist;
    bool full = false;
    for (int t = g->thru_start[m], end = g->thru_start[m + 1]; t < end; t++) {
        int li = g->thru[t];
        int v = line[li], nv = v + step;
        line[li] = (uint16_t)nv;
        hist[v]--;
        hist[nv]++;
        if (__builtin_expect(cls[v] != cls[nv], 0)) {
            if ((cls[v] ^ cls[nv]) & LINEFEAT_HOT) linefeat_hot_flip(f, li, cls[nv] & LINEFEAT_HOT);
            full |= (cls[nv] & LINEFEAT_FULL) != 0;
        }
    }
    return full;
}

#endif
