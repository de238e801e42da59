/* game.c: the game record and the series' operations (see game.h). */
#include "game.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "board_backends.h"
#include "linefeat.h"
#include "game_hot.h"
#include "mberror.h"


GameOptions game_default_options(void) { return (GameOptions){3, 3, 0, BOARD_BITS, false, false}; }

int game_init(Game *g, const GameOptions *opt, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    GameOptions o = opt ? *opt : game_default_options();
    if (o.width == 0) o.width = 3;
    if (o.height == 0) o.height = 3;
    int rc = geometry_check(o.width, o.height, o.k, err, errlen);
    if (rc) return rc;
    if ((unsigned)o.board >= BOARD_KINDS) return MB_EINVAL;
    Geometry *geom = geometry_new_rule(o.width, o.height, o.k, o.exact);
    if (!geom) return MB_ENOMEM;
    rc = game_init_geometry(g, geom, o.board, o.count_linemark);
    geometry_unref(geom); /* the board holds its own reference */
    return rc;
}

int game_init_geometry(Game *g, Geometry *geo, BoardKind kind, bool count_linemark)
{
    memset(g, 0, sizeof *g);
    if ((unsigned)kind >= BOARD_KINDS) return MB_EINVAL;
    int rc = board_init(&g->board, geo, kind, count_linemark);
    if (rc) return rc;
    g->records = malloc(((size_t)geo->ncells + 1) * sizeof *g->records);
    if (!g->records) {
        board_free(&g->board);
        return MB_ENOMEM;
    }
    game_restart(g);
    return MB_OK;
}

void game_free(Game *g)
{
    board_free(&g->board);
    free(g->records);
    memset(g, 0, sizeof *g);
}

int game_copy(Game *dst, const Game *src)
{
    memset(dst, 0, sizeof *dst);
    int rc = board_copy(&dst->board, &src->board);
    if (rc) return rc;
    size_t n = (size_t)src->board.geom->ncells + 1;
    dst->records = malloc(n * sizeof *dst->records);
    if (!dst->records) {
        board_free(&dst->board);
        return MB_ENOMEM;
    }
    memcpy(dst->records, src->records, n * sizeof *dst->records);
    dst->turn = src->turn;
    dst->last_turn = src->last_turn;
    dst->status = src->status;
    dst->move_count = src->move_count;
    dst->last_move = src->last_move;
    dst->nrecords = src->nrecords;
    dst->edited = src->edited;
    return MB_OK;
}

GameOptions game_options(const Game *g)
{
    const Geometry *geo = g->board.geom;
    return (GameOptions){geo->width,    geo->height,       geo->k,
                         g->board.kind, g->board.counters, geo->exact};
}

void game_restart(Game *g)
{
    board_reset(&g->board);
    g->turn = MARK_O;
    g->last_turn = MARK_EMPTY;
    g->status = STATUS_PLAYING;
    g->move_count = 0;
    g->last_move = MOVE_NONE;
    g->records[0] = MOVE_NONE;
    g->nrecords = 1;
    g->edited = false;
}

static Status judge(const Game *g)
{
    if (g->move_count == 0) return STATUS_PLAYING;
    return judge_move(&g->board, g->last_turn, g->last_move, g->move_count);
}

Status game_judge(const Game *g) { return judge(g); }

__attribute__((noinline)) void game_store_judge(Game *g)
{
    g->status = judge(g);
    CHECK_INVARIANTS(g);
}

/* One copy of move and unmove per setting, each with only its own back-end's
 * code, so the bitboard's path has no calls and no spilled registers. The
 * index [kind][board.setting]: counters + 2 * features. */
#define MOVE_VARIANT(id, p, name, sep)                                                             \
    static void move_##p(Game *g, int m) { move_kf(g, m, BOARD_##id, false, false); }              \
    static void move_##p##_c(Game *g, int m) { move_kf(g, m, BOARD_##id, true, false); }           \
    static void move_##p##_f(Game *g, int m) { move_kf(g, m, BOARD_##id, false, true); }           \
    static void move_##p##_cf(Game *g, int m) { move_kf(g, m, BOARD_##id, true, true); }           \
    static void unmove_##p(Game *g) { unmove_kf(g, BOARD_##id, false, false); }                    \
    static void unmove_##p##_c(Game *g) { unmove_kf(g, BOARD_##id, true, false); }                 \
    static void unmove_##p##_f(Game *g) { unmove_kf(g, BOARD_##id, false, true); }                 \
    static void unmove_##p##_cf(Game *g) { unmove_kf(g, BOARD_##id, true, true); }
BOARD_BACKENDS(MOVE_VARIANT)
#undef MOVE_VARIANT

#define X(id, p, name, sep) {move_##p, move_##p##_c, move_##p##_f, move_##p##_cf},
static void (*const move_fns[BOARD_KINDS][4])(Game *, int) = {BOARD_BACKENDS(X)};
#undef X
#define X(id, p, name, sep) {unmove_##p, unmove_##p##_c, unmove_##p##_f, unmove_##p##_cf},
static void (*const unmove_fns[BOARD_KINDS][4])(Game *) = {BOARD_BACKENDS(X)};
#undef X

void game_move(Game *g, int m) { move_fns[g->board.kind][g->board.setting](g, m); }

int game_play(Game *g, int m)
{
    if (m < 0 || m >= g->board.geom->ncells) return MB_ERANGE;
    if (g->status != STATUS_PLAYING) return MB_EOVER;
    if (board_get(&g->board, m) != MARK_EMPTY) return MB_EOCCUPIED;
    game_move(g, m);
    return MB_OK;
}

int game_place_mark(Game *g, int x, int y, Mark mark)
{
    const Geometry *geo = g->board.geom;
    if (!geometry_on_board(geo, x, y)) return MB_ERANGE;
    int m = geometry_xy_to_move(geo, x, y);
    if (board_get(&g->board, m) != MARK_EMPTY) return MB_EOCCUPIED;
    board_place(&g->board, m, mark);
    g->edited = true;
    return MB_OK;
}

int game_cmove(Game *g, int x, int y)
{
    if (g->status != STATUS_PLAYING) return MB_EOVER;
    bool edited = g->edited;
    int rc = game_place_mark(g, x, y, g->turn);
    if (rc) return rc;
    g->edited = edited; /* the mark placed here is the move's own */
    /* place_mark has put the mark; the move records it (the series' placed=True) */
    int m = geometry_xy_to_move(g->board.geom, x, y);
    board_lift(&g->board, m, g->turn);
    game_move(g, m);
    return MB_OK;
}

int game_remove_mark(Game *g, int x, int y)
{
    const Geometry *geo = g->board.geom;
    if (!geometry_on_board(geo, x, y)) return MB_ERANGE;
    int m = geometry_xy_to_move(geo, x, y);
    if (board_get(&g->board, m) == MARK_EMPTY) return MB_EEMPTY;
    board_set(&g->board, m, MARK_EMPTY);
    g->edited = true;
    return MB_OK;
}

void game_unmove(Game *g) { unmove_fns[g->board.kind][g->board.setting](g); }

int game_legal_moves(const Game *g, int *out)
{
    if (g->status != STATUS_PLAYING) return 0;
    const Board *b = &g->board;
    if (b->kind == BOARD_BITS && b->geom->legal_table && !g->edited) {
        /* a game whose marks all came from its moves has ncells -
         * move_count empty squares: counted so, before the copy (whose
         * stores could alias the geometry), the caller's next step (a
         * random choice among them) need not wait for the copy's loads */
        int n = b->geom->ncells - g->move_count;
        bits_table_copy(b, out);
        return n;
    }
    return board_empty_squares_inline(b, out);
}

void game_mark(const Game *g, GameMark *mark)
{
    mark->move_count = g->move_count;
    mark->nrecords = g->nrecords;
    memcpy(mark->records, g->records, (size_t)g->nrecords * sizeof *mark->records);
}

/* The record of a mark, whatever the moves on the board. */
static void put_records(Game *g, const GameMark *mark)
{
    memcpy(g->records, mark->records, (size_t)mark->nrecords * sizeof *g->records);
    g->nrecords = mark->nrecords;
}

void game_rewind(Game *g, const GameMark *mark)
{
    assert(g->move_count >= mark->move_count);
    while (g->move_count > mark->move_count) game_unmove(g);
    put_records(g, mark);
}

void game_change_step(Game *g, int step)
{
    if (step > g->nrecords - 1) step = g->nrecords - 1;
    if (step < 0) step = 0;
    GameMark mark;
    game_mark(g, &mark);
    game_restart(g);
    for (int i = 1; i <= step; i++) game_move(g, mark.records[i]);
    put_records(g, &mark);
}

const char *status_name(Status s)
{
    switch (s) {
    case STATUS_O: return "o";
    case STATUS_X: return "x";
    case STATUS_DRAW: return "draw";
    default: return "playing";
    }
}

/* Recompute the counters from the marks and compare. */
static bool counters_ok(const Board *b)
{
    const Geometry *geo = b->geom;
    int k = geo->k, k1 = k + 1;
    int32_t hist[(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
    board_scan_line_counts(b, MARK_O, hist);
    if (memcmp(hist, b->hist, (size_t)k1 * (size_t)k1 * sizeof *hist) != 0) return false;
    for (int i = 0; i < geo->nlines; i++) {
        int c[3] = {0, 0, 0};
        for (int j = 0; j < k; j++) c[board_get(b, geo->line_cells[i * k + j])]++;
        if (b->line[i] != c[MARK_O] * k1 + c[MARK_X]) return false;
    }
    return true;
}

bool game_ok(const Game *g)
{
    const Board *b = &g->board;
    const Geometry *geo = b->geom;
    /* Step 1. the counters, when kept */
    if (b->counters && !counters_ok(b)) return false;
    if (b->feat && !linefeat_ok(b->feat, b)) return false;
    if (g->edited) return true; /* the record need not describe the board */
    int n_o, n_x;
    board_count_marks(b, &n_o, &n_x);
    /* Step 2. counts, turns and the record agree */
    if (n_o + n_x != g->move_count || n_o - n_x != (g->move_count & 1)) return false;
    if (g->turn != (g->move_count & 1 ? MARK_X : MARK_O)) return false;
    if (g->last_turn != (g->move_count == 0 ? MARK_EMPTY : mark_other(g->turn))) return false;
    if (g->nrecords < g->move_count + 1 || g->records[0] != MOVE_NONE) return false;
    if (g->last_move != g->records[g->move_count]) return false;
    for (int i = 1; i <= g->move_count; i++) {
        int m = g->records[i];
        if (m < 0 || m >= geo->ncells || board_get(b, m) != (i & 1 ? MARK_O : MARK_X)) return false;
    }
    /* Step 3. the status, which the series only recomputes at each move */
    return g->status == judge(g);
}
