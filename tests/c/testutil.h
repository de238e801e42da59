/* testutil.h: helpers shared by the engine's C tests, on top of harness.h.
 *
 * - configurations: the T_NCONFIGS back-end x count_linemark settings the
 *   game-level tests run on, numbered in one of two documented orders
 *   (TOrder; each test keeps the order it always used, so seeded runs visit
 *   the same positions), with t_config and t_open_game to start one and
 *   t_open_games / t_free_games for one game on each;
 * - t_xy: a square's move number from its (x, y);
 * - random play from the CPython-compatible Rng, so runs repeat:
 *   t_random_position (restart, then play to a random ply) and
 *   t_random_game (play on to the end);
 * - Excel move lists: t_parse_list (asserting the list parses) and
 *   t_play_list (parse, then play every move).
 * The helpers that assert report through t_fail with the file and line of
 * their caller (the macros below pass __FILE__ and __LINE__). */
#ifndef MB_TEST_UTIL_H
#define MB_TEST_UTIL_H

#include "harness.h"
#include "marubatsu.h"

/* Every back-end, each without and with the line counters. */
#define T_NCONFIGS (BOARD_KINDS * 2)

/* How a configuration index c in 0 .. T_NCONFIGS-1 names a setting. */
typedef enum TOrder {
    /* back-end c % BOARD_KINDS, counters when c >= BOARD_KINDS: every
     * back-end without counters (list, list1d, bits), then each with them */
    T_KINDS_FIRST,
    /* back-end c / 2, counters when c is odd: list, list + counters,
     * list1d, list1d + counters, bits, bits + counters */
    T_PAIRS,
} TOrder;

/* Options for a w x h board with k in a row (0: the defaults) on configuration c, numbered in `order`. */
GameOptions t_config(TOrder order, int c, int w, int h, int k);

/* Start g on configuration c (order T_KINDS_FIRST); on failure t_fail at the caller and return false. */
#define t_open_game(g, w, h, k, c) t_open_game_at(__FILE__, __LINE__, (g), (w), (h), (k), (c))
bool t_open_game_at(const char *file, int line, Game *g, int w, int h, int k, int config);

/* Start games[c] on every configuration c (T_KINDS_FIRST); if any fails, t_fail at the caller, free them all, return false. */
#define t_open_games(games, w, h, k) t_open_games_at(__FILE__, __LINE__, (games), (w), (h), (k))
bool t_open_games_at(const char *file, int line, Game games[T_NCONFIGS], int w, int h, int k);

/* Free the T_NCONFIGS games opened by t_open_games. */
void t_free_games(Game games[T_NCONFIGS]);

/* The move number of square (x, y) on g's board. */
int t_xy(const Game *g, int x, int y);

/* Restart g and play uniform random legal moves (rng_randbelow) up to a random ply in 0 .. ncells, or until the game ends. */
void t_random_position(Game *g, Rng *r);

/* Play g on from where it stands to the end, each move uniform among the legal ones (rng_choice_index). */
void t_random_game(Game *g, Rng *r);

/* Parse an Excel move list ("A1,B2") for g's board into moves[MB_MAX_CELLS]; its length, or 0 after a t_fail at the caller. */
#define t_parse_list(g, list, moves) t_parse_list_at(__FILE__, __LINE__, (g), (list), (moves))
int t_parse_list_at(const char *file, int line, const Game *g, const char *list, int *moves);

/* Play every move of an Excel move list with game_move (unchecked), asserting the list parses. */
#define t_play_list(g, list) t_play_list_at(__FILE__, __LINE__, (g), (list))
void t_play_list_at(const char *file, int line, Game *g, const char *list);

#endif
