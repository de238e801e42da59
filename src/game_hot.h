/* game_hot.h: the move, unmove and judge of game.c as inline functions of a
 * back-end and counter setting known at the call (private to the engine's
 * .c files). game.c instantiates them once per setting for game_move and
 * game_unmove; a tree walk that wants no call per move (perft.c)
 * instantiates its own loop per setting the same way, from BOARD_BACKENDS.
 * Uses game.h and board_backends.h. */
#ifndef MB_GAME_HOT_H
#define MB_GAME_HOT_H

#include <assert.h>

#include "board_backends.h"
#include "linefeat_hot.h"
#include "game.h"

/* Debug and sanitizer builds recheck every invariant after each change. */
#ifdef MB_CHECK_INVARIANTS
#define CHECK_INVARIANTS(g) assert(game_ok(g))
#else
#define CHECK_INVARIANTS(g) ((void)0)
#endif

/* The series' board-level judge after `t` played m as move n: only the side
 * that just moved can have completed a line, and only through its last move.
 * Before win_from nothing can end the game; win_from is at most ncells, so a
 * board too small to hold a win still ends in a draw when full. */
HOT Status judge_move_k(const Board *b, Mark t, int m, int n, BoardKind kind, bool counters)
{
    const Geometry *geo = b->geom;
    if (n < geo->win_from) return STATUS_PLAYING;
    bool won;
    if (kind == BOARD_BITS && !counters) /* the table, else a call: no saved registers */
        won = geo->win_table ? bits_table_wins(geo, b->plane[t][0], m) : bits_wins_call(b, t, m);
    else
        won = board_is_winner_k(b, t, m, kind, counters);
    if (won) return t;
    return n == geo->ncells ? STATUS_DRAW : STATUS_PLAYING;
}

static inline Status judge_move(const Board *b, Mark t, int m, int n)
{
    return judge_move_k(b, t, m, n, b->kind, b->counters);
}

/* g->status = the judge's answer for g's last move, and the invariants:
 * move_kf's rare path, out of line (game.c). */
void game_store_judge(Game *g);

/* move and unmove for one back-end, counter and feature setting (see
 * MOVE_VARIANT); `feat`: the board's line features are on (linefeat.h). */
HOT void move_kf(Game *g, int m, BoardKind kind, bool counters, bool feat)
{
    assert(m >= 0 && m < g->board.geom->ncells && g->move_count < g->board.geom->ncells);
    Board *b = &g->board;
    Mark t = g->turn;
    int n = g->move_count + 1;
    board_place_k(b, m, t, kind, counters);
    /* the features see a full window of the mover through m as they
     * update: under the freestyle rule that is the judge's answer */
    bool full = feat && linefeat_update_inline(b->feat, m, t, +1);
    /* the record first: the judge's rare calls (long lines, the exact
     * rule) then keep nothing but g alive, and the usual path saves no
     * registers */
    g->last_turn = t;
    g->turn = mark_other(t);
    g->move_count = n;
    g->last_move = m;
    /* playing any move, even the recorded one, discards a replayed future */
    g->records[n] = m;
    g->nrecords = n + 1;
    Status s;
    if (!feat && kind == BOARD_BITS && !counters && n >= b->geom->win_from && !b->geom->win_table) {
        /* a bitboard without a win table scans its lines out of line, in
         * a tail call: the usual path keeps nothing alive across a call,
         * so it saves fewer registers (two, against four) */
        game_store_judge(g);
        return;
    }
    if (feat) {
        const Geometry *geo = b->geom;
        if (n < geo->win_from)
            s = STATUS_PLAYING;
        else if (!geo->exact)
            s = full ? t : n == geo->ncells ? STATUS_DRAW : STATUS_PLAYING;
        else
            s = judge_move_k(b, t, m, n, kind, counters);
    } else {
        s = judge_move_k(b, t, m, n, kind, counters);
    }
    g->status = s;
    CHECK_INVARIANTS(g);
}

HOT void unmove_kf(Game *g, BoardKind kind, bool counters, bool feat)
{
    int n = g->move_count;
    if (n == 0) return;
    int m = g->records[n]; /* the current move, even while replaying */
    Mark mover = g->last_turn;
    if (g->edited)
        board_set(&g->board, m, MARK_EMPTY); /* whatever is there after remove_mark */
    else {
        board_lift_k(&g->board, m, mover, kind, counters);
        if (feat) linefeat_update_inline(g->board.feat, m, mover, -1);
    }
    g->move_count = n - 1;
    g->turn = mover;
    g->last_turn = n > 1 ? mark_other(mover) : MARK_EMPTY;
    g->status = STATUS_PLAYING;
    g->nrecords = n;
    g->last_move = g->records[n - 1];
    CHECK_INVARIANTS(g);
}

/* The same without features: a walk that never reads them (perft) may
 * take them off the board while it runs (its moves are balanced). */
HOT void move_k(Game *g, int m, BoardKind kind, bool counters)
{
    move_kf(g, m, kind, counters, false);
}
HOT void unmove_k(Game *g, BoardKind kind, bool counters) { unmove_kf(g, kind, counters, false); }

/* game_legal_moves for a known back-end. */
HOT int legal_moves_k(const Game *g, int *out, BoardKind kind)
{
    if (g->status != STATUS_PLAYING) return 0;
    return board_empty_squares_k(&g->board, out, kind);
}

/* The same without the small boards' table of lists (bits_empty_squares):
 * for a search, whose table traffic would evict the rows. */
HOT int legal_moves_scan_k(const Game *g, int *out, BoardKind kind)
{
    if (g->status != STATUS_PLAYING) return 0;
    if (kind == BOARD_BITS) return bits_empty_scan(&g->board, out);
    return board_empty_squares_k(&g->board, out, kind);
}

#endif
