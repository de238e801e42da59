/* perft.c: game-tree counts by depth (see perft.h). The walk below the
 * root is instantiated per back-end and counter setting (game_hot.h), so a
 * node costs no call for its move, judge and unmove. */
#include "perft.h"

#include <stdlib.h>
#include <string.h>

#include "game_hot.h"
#include "mberror.h"

typedef struct Walk {
    Game *g;
    int depth;
    int *moves; /* depth * ncells: the legal moves of each ply */
    uint64_t *nodes, *finished;
} Walk;

/* One ply below the root, for a back-end and counter setting known at the
 * call, recursing through `self` (its own instance): no call per move. */
typedef void (*WalkFn)(Walk *w, int ply);
HOT void walk_k(Walk *w, int ply, BoardKind kind, bool counters, WalkFn self)
{
    Game *g = w->g;
    int *moves = w->moves + (size_t)ply * (size_t)game_geom(g)->ncells;
    int n = legal_moves_k(g, moves, kind);
    w->nodes[ply + 1] += (uint64_t)n;
    uint64_t finished = 0;
    for (int i = 0; i < n; i++) {
        move_k(g, moves[i], kind, counters);
        if (g->status != STATUS_PLAYING)
            finished++;
        else if (ply + 1 < w->depth)
            self(w, ply + 1);
        unmove_k(g, kind, counters);
    }
    w->finished[ply + 1] += finished;
}

/* One walk per setting (BOARD_BACKENDS x counters). */
#define WALK_VARIANT(id, p, name, sep)                                                             \
    static void walk_##p(Walk *w, int ply) { walk_k(w, ply, BOARD_##id, false, walk_##p); }        \
    static void walk_##p##_c(Walk *w, int ply) { walk_k(w, ply, BOARD_##id, true, walk_##p##_c); }
BOARD_BACKENDS(WALK_VARIANT)
#undef WALK_VARIANT
#define X(id, p, name, sep) {walk_##p, walk_##p##_c},
static const WalkFn walks[BOARD_KINDS][2] = {BOARD_BACKENDS(X)};
#undef X

/* The bitboard without counters on a one-word board: below the root a node
 * needs only the two planes and the move count, so the walk plays on copies
 * passed down (no record, no Board writes, no bit -> move -> bit round trip)
 * and judges like judge_move_k: nothing ends a game before win_from, then
 * a line through the move or the last square does. Same counts as walk_k;
 * `mover` is the plane of the side to move, `n` the move count so far. */
static void walk_word(Walk *w, uint64_t mover, uint64_t other, int n, int ply)
{
    const Geometry *geo = game_geom(w->g);
    uint64_t empty = geo->full_mask[0] & ~(mover | other);
    int next = n + 1;
    bool can_end = next >= geo->win_from, full = next == geo->ncells, deeper = ply + 1 < w->depth;
    uint64_t count = 0, finished = 0;
    for (; empty; empty &= empty - 1) {
        uint64_t p = mover | (empty & (0 - empty));
        count++;
        if (can_end && (full || bits_word_wins(geo, p, geo->move_of[__builtin_ctzll(empty)])))
            finished++;
        else if (deeper)
            walk_word(w, other, p, next, ply + 1);
    }
    w->nodes[ply + 1] += count;
    w->finished[ply + 1] += finished;
}

/* The walk below the root after a move left g playing. */
static void walk_below(Walk *w)
{
    Game *g = w->g;
    Board *b = &g->board;
    /* the counts need no line features: they are off while the walk's
     * balanced moves run, and untouched by them */
    struct LineFeat *feat = b->feat;
    b->feat = NULL;
    if (b->kind == BOARD_BITS && !b->counters && b->geom->nwords == 1)
        walk_word(w, b->plane[g->turn][0], b->plane[mark_other(g->turn)][0], g->move_count, 1);
    else
        walks[b->kind][b->counters](w, 1);
    b->feat = feat;
}

/* The root ply: every move, the walk below it, the progress callback. */
static void walk_root(Walk *w, PerftProgress progress, void *ud)
{
    Game *g = w->g;
    int *moves = w->moves;
    int n = game_legal_moves(g, moves);
    w->nodes[1] += (uint64_t)n;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        if (g->status != STATUS_PLAYING)
            w->finished[1]++;
        else if (w->depth > 1)
            walk_below(w);
        game_unmove(g);
        if (progress) progress(ud, i + 1, n);
    }
}

int perft_run(Game *g, int depth, uint64_t *nodes, uint64_t *finished, PerftProgress progress,
              void *ud)
{
    int ncells = game_geom(g)->ncells;
    if (depth < 0 || depth > ncells - g->move_count) return MB_EINVAL;
    memset(nodes, 0, ((size_t)depth + 1) * sizeof *nodes);
    memset(finished, 0, ((size_t)depth + 1) * sizeof *finished);
    nodes[0] = 1;
    finished[0] = g->status != STATUS_PLAYING;
    if (depth == 0 || g->status != STATUS_PLAYING) return MB_OK;
    Walk w = {g, depth, malloc((size_t)depth * (size_t)ncells * sizeof(int)), nodes, finished};
    if (!w.moves) return MB_ENOMEM;
    /* the record past the current move is replaced by the walk: keep it */
    GameMark mark;
    game_mark(g, &mark);
    walk_root(&w, progress, ud);
    game_rewind(g, &mark);
    free(w.moves);
    return MB_OK;
}
