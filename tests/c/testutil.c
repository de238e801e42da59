/* testutil.c: the helpers shared by the C tests (see testutil.h). */
#include "testutil.h"

GameOptions t_config(TOrder order, int c, int w, int h, int k)
{
    if (order == T_PAIRS) return (GameOptions){w, h, k, (BoardKind)(c / 2), c % 2, false};
    return (GameOptions){w, h, k, (BoardKind)(c % BOARD_KINDS), c >= BOARD_KINDS, false};
}

bool t_open_game_at(const char *file, int line, Game *g, int w, int h, int k, int config)
{
    GameOptions o = t_config(T_KINDS_FIRST, config, w, h, k);
    char err[128] = "";
    int rc = game_init(g, &o, err, sizeof err);
    if (rc != MB_OK) t_fail(file, line, "game_init %dx%d k%d: %d %s", w, h, k, rc, err);
    return rc == MB_OK;
}

bool t_open_games_at(const char *file, int line, Game games[T_NCONFIGS], int w, int h, int k)
{
    bool ok = true;
    for (int c = 0; c < T_NCONFIGS; c++) ok &= t_open_game_at(file, line, &games[c], w, h, k, c);
    if (!ok) t_free_games(games);
    return ok;
}

void t_free_games(Game games[T_NCONFIGS])
{
    for (int c = 0; c < T_NCONFIGS; c++) game_free(&games[c]);
}

int t_xy(const Game *g, int x, int y) { return geometry_xy_to_move(game_geom(g), x, y); }

void t_random_position(Game *g, Rng *r)
{
    int moves[MB_MAX_CELLS];
    game_restart(g);
    int stop = (int)rng_randbelow(r, (uint64_t)game_geom(g)->ncells + 1);
    while (g->move_count < stop) {
        int n = game_legal_moves(g, moves);
        if (n == 0) break;
        game_move(g, moves[rng_randbelow(r, (uint64_t)n)]);
    }
}

void t_random_game(Game *g, Rng *r)
{
    int moves[MB_MAX_CELLS];
    while (g->status == STATUS_PLAYING) {
        int n = game_legal_moves(g, moves);
        game_move(g, moves[rng_choice_index(r, n)]);
    }
}

int t_parse_list_at(const char *file, int line, const Game *g, const char *list, int *moves)
{
    int n = 0, bad = -1;
    int rc = notation_parse_moves(game_geom(g), list, moves, MB_MAX_CELLS, &n, &bad);
    if (rc != MB_OK) {
        t_fail(file, line, "move list \"%s\": notation_parse_moves %d at item %d", list, rc, bad);
        return 0;
    }
    return n;
}

void t_play_list_at(const char *file, int line, Game *g, const char *list)
{
    int moves[MB_MAX_CELLS];
    int n = t_parse_list_at(file, line, g, list, moves);
    for (int i = 0; i < n; i++) game_move(g, moves[i]);
}
