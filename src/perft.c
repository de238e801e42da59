/* perft.c: game-tree counts by depth (see perft.h). */
#include "perft.h"

#include <stdlib.h>
#include <string.h>

#include "mberror.h"

typedef struct Walk {
    Game *g;
    int depth;
    int *moves; /* depth * ncells: the legal moves of each ply */
    uint64_t *nodes, *finished;
} Walk;

static void walk(Walk *w, int ply, PerftProgress progress, void *ud)
{
    Game *g = w->g;
    int *moves = w->moves + (size_t)ply * (size_t)game_geom(g)->ncells;
    int n = game_legal_moves(g, moves);
    w->nodes[ply + 1] += (uint64_t)n;
    for (int i = 0; i < n; i++) {
        game_move(g, moves[i]);
        if (g->status != STATUS_PLAYING)
            w->finished[ply + 1]++;
        else if (ply + 1 < w->depth)
            walk(w, ply + 1, NULL, NULL);
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
    walk(&w, 0, progress, ud);
    game_rewind(g, &mark);
    free(w.moves);
    return MB_OK;
}
