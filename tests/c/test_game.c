/* test_game.c: the game record's semantics (game.md §4, §5, §13): the
 * series' golden demos (move, cmove with its messages, unmove, remove_mark,
 * direct writes), full unmove after random playouts restores every field,
 * records replay and truncation, change_step, copies, back-end equivalence
 * over random games, and the seeded ai2 VS ai2 match (50,000 iterations
 * after seed(0)): the published counts and the stream checkpoint of rng.md. */
#include <stdlib.h>

#include "testutil.h"

/* Configuration c here is numbered T_PAIRS (testutil.h): back-end c / 2,
 * counters when c is odd. */

static void init3(Game *g, int cfg)
{
    GameOptions o = t_config(T_PAIRS, cfg, 3, 3, 0);
    CHECK_INT(game_init(g, &o, NULL, 0), MB_OK);
}

static const char *text(const Game *g)
{
    static char buf[2048];
    notation_text(g, buf);
    return buf;
}

TEST(start_state)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        CHECK_INT(g.turn, MARK_O);
        CHECK_INT(g.last_turn, MARK_EMPTY);
        CHECK_INT(g.status, STATUS_PLAYING);
        CHECK_INT(g.move_count, 0);
        CHECK_INT(g.last_move, MOVE_NONE);
        CHECK_INT(g.nrecords, 1);
        CHECK_INT(g.records[0], MOVE_NONE);
        int x, y;
        geometry_move_to_xy(game_geom(&g), g.records[0], &x, &y);
        CHECK(x == -1 && y == -1); /* records print as [(-1, -1)] */
        CHECK_STR(text(&g), "Turn o\n...\n...\n...\n");
        game_free(&g);
    }
}

TEST(demo_move)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        game_move(&g, geometry_xy_to_move(game_geom(&g), 0, 0));
        CHECK_STR(text(&g), "Turn x\nO..\n...\n...\n");
        game_move(&g, geometry_xy_to_move(game_geom(&g), 1, 0));
        CHECK_STR(text(&g), "Turn o\noX.\n...\n...\n");
        game_free(&g);
    }
}

/* game.md §13.3, byte for byte, with the Japanese messages. */
TEST(demo_cmove_messages)
{
    static const char expected[] = "Turn x\nO..\n...\n...\n\n"
                                   "Turn o\noX.\n...\n...\n\n"
                                   "( 0 , 0 ) のマスにはマークが配置済です\n"
                                   "Turn o\noX.\n...\n...\n\n"
                                   "( 3 , 5 ) はゲーム盤の範囲外の座標です\n"
                                   "Turn o\noX.\n...\n...\n\n"
                                   "整数の座標を入力して下さい\n"
                                   "Turn o\noX.\n...\n...\n\n";
    static const char *const calls[5][2] = {
        {"0", "0"}, {"1", "0"}, {"0", "0"}, {"3", "5"}, {"a", "b"}};
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        char out[1024] = "", msg[256];
        size_t used = 0;
        for (int i = 0; i < 5; i++) {
            if (notation_cmove(&g, calls[i][0], calls[i][1], LANG_JA, msg, sizeof msg) != MB_OK)
                used += (size_t)snprintf(out + used, sizeof out - used, "%s\n", msg);
            used += (size_t)snprintf(out + used, sizeof out - used, "%s\n", text(&g));
        }
        CHECK_STR(out, expected);
        CHECK_INT(g.move_count, 2);
        CHECK_INT(g.nrecords, 3);
        game_free(&g);
    }
}

TEST(cmove_python_int_rules)
{
    Game g;
    init3(&g, 0);
    char msg[256];
    CHECK_INT(notation_cmove(&g, " 1 ", "+1", LANG_JA, msg, sizeof msg), MB_OK);
    CHECK_INT(g.last_move, 4);
    CHECK_INT(notation_cmove(&g, "-0", "0_0", LANG_JA, msg, sizeof msg), MB_OK);
    CHECK_INT(g.last_move, 0);
    CHECK_INT(notation_cmove(&g, "-1", "2", LANG_JA, msg, sizeof msg), MB_ERANGE);
    CHECK_STR(msg, "( -1 , 2 ) はゲーム盤の範囲外の座標です"); /* negative: range, not conversion */
    CHECK_INT(notation_cmove(&g, "007", "99999999999999999999", LANG_EN, msg, sizeof msg),
              MB_ERANGE);
    CHECK_STR(msg, "( 7 , 99999999999999999999 ) is outside the board");
    CHECK_INT(notation_cmove(&g, "１", "２", LANG_EN, msg, sizeof msg), MB_OK); /* full-width */
    CHECK_INT(g.last_move, 5);
    CHECK_INT(notation_cmove(&g, "1", "1", LANG_EN, msg, sizeof msg), MB_EOCCUPIED);
    CHECK_STR(msg, "( 1 , 1 ) is already occupied");
    static const char *const bad[] = {"", " ", "1.0", "1_", "_1", "1__0", "0x1", "+", "1 2", "--1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(notation_cmove(&g, bad[i], "0", LANG_EN, msg, sizeof msg), MB_ENOTINT);
        CHECK_STR(msg, "Please enter integer coordinates");
        CHECK_INT(notation_cmove(&g, "0", bad[i], LANG_JA, msg, sizeof msg), MB_ENOTINT);
    }
    CHECK_INT(g.move_count, 3); /* failed calls changed nothing */
    CHECK_STR(text(&g), "Turn x\nx..\n.o.\n.O.\n");
    game_free(&g);
}

TEST(cmove_after_the_end)
{
    Game g;
    init3(&g, 4);
    char msg[256];
    static const int xy[5][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}};
    for (int i = 0; i < 5; i++) CHECK_INT(game_cmove(&g, xy[i][0], xy[i][1]), MB_OK);
    CHECK_INT(g.status, STATUS_O);
    CHECK_INT(game_cmove(&g, 2, 2), MB_EOVER);
    CHECK_INT(notation_cmove(&g, "2", "2", LANG_EN, msg, sizeof msg), MB_EOVER);
    CHECK_STR(msg, "The game is already over");
    CHECK_INT(game_play(&g, 8), MB_EOVER);
    CHECK_INT(g.move_count, 5);
    int moves[9];
    CHECK_INT(game_legal_moves(&g, moves), 0);
    game_free(&g);
}

/* game.md §13.4: five undos after (0,0) (1,0) (2,0) (0,1) (1,1). */
TEST(demo_unmove_five)
{
    static const char *const after[5] = {"Turn o\noxo\nX..\n...\n", "Turn x\noxO\n...\n...\n",
                                         "Turn o\noX.\n...\n...\n", "Turn x\nO..\n...\n...\n",
                                         "Turn o\n...\n...\n...\n"};
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        static const int xy[5][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}};
        for (int i = 0; i < 5; i++)
            game_move(&g, geometry_xy_to_move(game_geom(&g), xy[i][0], xy[i][1]));
        for (int i = 0; i < 5; i++) {
            game_unmove(&g);
            CHECK_STR(text(&g), after[i]);
        }
        CHECK_INT(g.nrecords, 1);
        CHECK_INT(g.records[0], MOVE_NONE);
        CHECK_INT(g.last_move, MOVE_NONE);
        CHECK_INT(g.last_turn, MARK_EMPTY); /* the project's decision: none at move 0 */
        game_unmove(&g);                    /* a no-op at the start */
        CHECK_STR(text(&g), after[4]);
        CHECK_INT(g.move_count, 0);
        CHECK_INT(g.turn, MARK_O);
        game_free(&g);
    }
}

TEST(demo_unmove_after_cmove)
{
    static const char *const seen[6] = {"Turn x\nO..\n", "Turn o\noX.\n", "Turn x\noxO\n",
                                        "Turn o\noX.\n", "Turn x\nO..\n", "Turn o\n...\n"};
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        for (int i = 0; i < 6; i++) {
            if (i < 3)
                CHECK_INT(game_cmove(&g, i, 0), MB_OK);
            else
                game_unmove(&g);
            CHECK(strncmp(text(&g), seen[i], strlen(seen[i])) == 0);
            CHECK(strcmp(text(&g) + strlen(seen[i]), "...\n...\n") == 0);
        }
        game_free(&g);
    }
}

TEST(demo_remove_mark)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        game_move(&g, 4);
        CHECK_STR(text(&g), "Turn x\n...\n.O.\n...\n");
        CHECK_INT(game_remove_mark(&g, 1, 1), MB_OK);
        CHECK_STR(text(&g), "Turn x\n...\n...\n...\n");
        CHECK_INT(game_remove_mark(&g, 1, 1), MB_EEMPTY);
        CHECK_INT(game_remove_mark(&g, 3, 0), MB_ERANGE);
        CHECK_INT(g.move_count, 1); /* turn, records, status untouched */
        CHECK_INT(g.nrecords, 2);
        char msg[256];
        notation_message(MB_EEMPTY, "1", "1", LANG_JA, msg, sizeof msg);
        CHECK_STR(msg, "( 1 , 1 ) のマスにはマークがありません");
        game_free(&g);
    }
}

/* game.md §13.7: writes through the board, legal moves, judge, key. */
TEST(demo_direct_writes)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        const Geometry *geo = game_geom(&g);
        CHECK_INT(game_place_mark(&g, 0, 0, MARK_O), MB_OK);
        CHECK_INT(game_place_mark(&g, 0, 1, MARK_X), MB_OK);
        CHECK_INT(game_get(&g, geometry_xy_to_move(geo, 0, 0)), MARK_O);
        CHECK_INT(game_get(&g, geometry_xy_to_move(geo, 0, 1)), MARK_X);
        CHECK_INT(game_get(&g, geometry_xy_to_move(geo, 0, 2)), MARK_EMPTY);
        int moves[9], n = game_legal_moves(&g, moves);
        static const int want[7][2] = {{1, 0}, {2, 0}, {1, 1}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
        CHECK_INT(n, 7);
        for (int i = 0; i < n && i < 7; i++)
            CHECK_INT(moves[i], geometry_xy_to_move(geo, want[i][0], want[i][1]));
        CHECK_INT(game_place_mark(&g, 0, 2, MARK_O), MB_OK);
        CHECK_INT(game_place_mark(&g, 1, 0, MARK_X), MB_OK);
        CHECK_INT(game_place_mark(&g, 1, 1, MARK_O), MB_OK);
        CHECK_INT(game_place_mark(&g, 1, 1, MARK_X), MB_EOCCUPIED);
        CHECK_INT(game_place_mark(&g, 0, 3, MARK_X), MB_ERANGE);
        /* board-level judge with last_turn o, last move (1,1), move_count 5 */
        g.last_turn = MARK_O;
        g.last_move = 4;
        g.move_count = 5;
        CHECK_INT(game_judge(&g), STATUS_PLAYING);
        char key[16];
        notation_key(&g, key);
        CHECK_STR(key, "oxoxo....");
        game_free(&g);
    }
}

TEST(keys_of_the_spec)
{
    static const struct {
        const char *moves, *key;
    } cases[] = {
        {"A1,A2,A3,B1,B2", "oxoxo...."},
        {"B2,B1,A1,C1", "o..xo.x.."},
        {"A1,B1,A2,C1,B3,B2,A3", "oooxxox.."},
    };
    for (int c = 0; c < T_NCONFIGS; c++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            Game g;
            init3(&g, c);
            int moves[MB_MAX_CELLS], n = t_parse_list(&g, cases[i].moves, moves);
            for (int j = 0; j < n; j++) CHECK_INT(game_play(&g, moves[j]), MB_OK);
            char key[16];
            notation_key(&g, key);
            CHECK_STR(key, cases[i].key);
            game_free(&g);
        }
}

/* Every field of two games (the board through its key and counters). */
static void check_same(const Game *a, const Game *b)
{
    char ka[MB_MAX_CELLS + 1], kb[MB_MAX_CELLS + 1];
    notation_key(a, ka);
    notation_key(b, kb);
    CHECK_STR(ka, kb);
    CHECK_INT(a->turn, b->turn);
    CHECK_INT(a->last_turn, b->last_turn);
    CHECK_INT(a->status, b->status);
    CHECK_INT(a->move_count, b->move_count);
    CHECK_INT(a->last_move, b->last_move);
    CHECK_INT(a->nrecords, b->nrecords);
    for (int i = 0; i < a->nrecords && i < b->nrecords; i++)
        CHECK_INT(a->records[i], b->records[i]);
    if (a->board.counters && b->board.counters) {
        const Geometry *geo = game_geom(a);
        CHECK(memcmp(a->board.line, b->board.line, (size_t)geo->nlines * sizeof(uint16_t)) == 0);
        CHECK(memcmp(a->board.hist, b->board.hist, (size_t)markpats_size(geo) * sizeof(int32_t)) ==
              0);
    }
}

TEST(random_playouts_unmove_to_start)
{
    static const int shapes[][3] = {{3, 3, 0}, {4, 4, 3}, {5, 4, 4},
                                    {7, 6, 4}, {3, 2, 2}, {9, 9, 5}};
    Rng r;
    rng_seed(&r, 2024);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int c = 0; c < T_NCONFIGS; c++) {
            GameOptions o = t_config(T_PAIRS, c, shapes[s][0], shapes[s][1], shapes[s][2]);
            Game g, start;
            CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
            CHECK_INT(game_init(&start, &o, NULL, 0), MB_OK);
            for (int rep = 0; rep < 200; rep++) {
                t_random_game(&g, &r);
                CHECK(game_ok(&g));
                while (g.move_count) game_unmove(&g);
                check_same(&g, &start);
                CHECK(game_ok(&g));
            }
            game_free(&g);
            game_free(&start);
        }
}

TEST(move_unmove_restores_every_field)
{
    Rng r;
    rng_seed(&r, 7);
    for (int c = 0; c < T_NCONFIGS; c++) {
        GameOptions o = t_config(T_PAIRS, c, 5, 5, 4);
        Game g, before;
        CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
        for (int rep = 0; rep < 300; rep++) {
            game_restart(&g);
            int plies = (int)rng_randbelow(&r, 20), moves[25];
            for (int i = 0; i < plies && g.status == STATUS_PLAYING; i++)
                game_move(&g, moves[rng_choice_index(&r, game_legal_moves(&g, moves))]);
            if (g.status != STATUS_PLAYING) continue;
            CHECK_INT(game_copy(&before, &g), MB_OK);
            int n = game_legal_moves(&g, moves);
            for (int i = 0; i < n; i++) {
                game_move(&g, moves[i]);
                game_unmove(&g);
                check_same(&g, &before);
            }
            game_free(&before);
        }
        game_free(&g);
    }
}

TEST(records_replay_and_truncation)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        static const int seq[6] = {4, 0, 8, 2, 6, 3};
        for (int i = 0; i < 6; i++) game_move(&g, seq[i]);
        CHECK_INT(g.nrecords, 7);
        game_change_step(&g, 3);
        CHECK_INT(g.move_count, 3);
        CHECK_INT(g.nrecords, 7); /* the recorded future stays */
        CHECK_INT(g.last_move, 8);
        CHECK_INT(g.turn, MARK_X);
        CHECK_STR(text(&g), "Turn x\nx..\n.o.\n..O\n");
        game_change_step(&g, 99); /* clamped to the end */
        CHECK_INT(g.move_count, 6);
        CHECK_INT(g.status, STATUS_PLAYING);
        game_change_step(&g, -5); /* clamped to the start */
        CHECK_INT(g.move_count, 0);
        CHECK_INT(g.last_turn, MARK_EMPTY);
        CHECK_INT(g.nrecords, 7);
        game_change_step(&g, 2);
        /* playing even the recorded move discards the future */
        game_move(&g, 8);
        CHECK_INT(g.nrecords, 4);
        CHECK_INT(g.records[3], 8);
        game_change_step(&g, 1);
        game_move(&g, 1); /* a different move overwrites records[2] */
        CHECK_INT(g.nrecords, 3);
        CHECK_INT(g.records[2], 1);
        /* unmove while replaying drops the future, then undoes the current move */
        for (int i = 0; i < 5; i++) game_move(&g, (int[]){0, 2, 3, 5, 6}[i]);
        CHECK_INT(g.status, STATUS_O); /* o holds row y = 0: moves 0, 3, 6 */
        game_change_step(&g, 4);
        game_unmove(&g);
        CHECK_INT(g.move_count, 3);
        CHECK_INT(g.nrecords, 4);
        CHECK_INT(g.last_move, 0);
        CHECK(game_ok(&g));
        game_free(&g);
    }
}

TEST(copy_is_independent)
{
    Game a, b;
    GameOptions o = t_config(T_PAIRS, 1, 4, 4, 3);
    CHECK_INT(game_init(&a, &o, NULL, 0), MB_OK);
    game_move(&a, 5);
    CHECK_INT(game_copy(&b, &a), MB_OK);
    game_move(&b, 6);
    CHECK_INT(a.move_count, 1);
    CHECK_INT(b.move_count, 2);
    CHECK_INT(game_get(&a, 6), MARK_EMPTY);
    CHECK(game_ok(&a) && game_ok(&b));
    game_free(&a);
    CHECK(game_ok(&b)); /* b keeps its own shape reference */
    game_free(&b);
}

TEST(backend_equivalence)
{
    static const int shapes[][3] = {{3, 3, 0}, {4, 4, 4},   {5, 5, 4},  {6, 5, 4},
                                    {4, 3, 3}, {15, 15, 5}, {10, 10, 5}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        Game g[T_NCONFIGS];
        Rng r[T_NCONFIGS];
        for (int c = 0; c < T_NCONFIGS; c++) {
            GameOptions o = t_config(T_PAIRS, c, shapes[s][0], shapes[s][1], shapes[s][2]);
            CHECK_INT(game_init(&g[c], &o, NULL, 0), MB_OK);
            rng_seed(&r[c], 99 + s);
        }
        int k1 = game_geom(&g[0])->k + 1;
        for (int rep = 0; rep < 100; rep++) {
            for (int c = 0; c < T_NCONFIGS; c++) game_restart(&g[c]);
            for (bool more = true; more;) {
                int moves[T_NCONFIGS][MB_MAX_CELLS], n[T_NCONFIGS];
                int32_t hist[T_NCONFIGS][(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
                char key[T_NCONFIGS][MB_MAX_CELLS + 1];
                for (int c = 0; c < T_NCONFIGS; c++) {
                    n[c] = game_legal_moves(&g[c], moves[c]);
                    markpats_of_game(&g[c], hist[c]);
                    notation_key(&g[c], key[c]);
                }
                for (int c = 1; c < T_NCONFIGS; c++) {
                    CHECK_STR(key[c], key[0]);
                    CHECK_INT(g[c].status, g[0].status);
                    CHECK_INT(n[c], n[0]);
                    CHECK(memcmp(moves[c], moves[0], (size_t)n[0] * sizeof(int)) == 0);
                    CHECK(memcmp(hist[c], hist[0], (size_t)(k1 * k1) * sizeof(int32_t)) == 0);
                }
                more = n[0] > 0;
                for (int c = 0; more && c < T_NCONFIGS; c++)
                    game_move(&g[c], moves[c][rng_choice_index(&r[c], n[c])]);
            }
        }
        for (int c = 0; c < T_NCONFIGS; c++) game_free(&g[c]);
    }
}

/* The golden ai2 VS ai2 match (matches.md §3) on the game API: counts from
 * ai[0]'s point of view and the stream checkpoint of rng.md §5. */
TEST(seeded_random_match_golden)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        init3(&g, c);
        Rng r;
        rng_seed(&r, 0);
        int tally[2][4] = {{0}}; /* [game 1 or 2][status] */
        for (int it = 0; it < 50000; it++)
            for (int game = 0; game < 2; game++) {
                game_restart(&g);
                t_random_game(&g, &r);
                tally[game][g.status]++;
                if (it == 0 && game == 0) CHECK_STR(text(&g), "winner x\no.o\nxXx\noxo\n");
            }
        /* row o: ai[0] is 〇 in game 1; row x: ai[0] is × in game 2 */
        CHECK_INT(tally[0][STATUS_O], 29454);
        CHECK_INT(tally[0][STATUS_X], 14352);
        CHECK_INT(tally[0][STATUS_DRAW], 6194);
        CHECK_INT(tally[1][STATUS_X], 14208);
        CHECK_INT(tally[1][STATUS_O], 29592);
        CHECK_INT(tally[1][STATUS_DRAW], 6200);
        CHECK_U64(r.draws, 1255695);
        CHECK_U64(rng_genrand32(&r), 1491266519u);
        game_free(&g);
    }
}

TEST(bad_options)
{
    Game g;
    char err[160];
    GameOptions o = {0, 0, 4, BOARD_BITS, false, false};
    CHECK_INT(game_init(&g, &o, err, sizeof err), MB_ESIZE);
    CHECK_STR(err, "k = 4 is not possible on a 3x3 board (1..3)");
    game_free(&g);
    o = (GameOptions){33, 3, 0, BOARD_LIST, false, false};
    CHECK_INT(game_init(&g, &o, err, sizeof err), MB_ESIZE);
    CHECK_STR(err, "board size 33x3 is not supported (each side 1..32)");
    game_free(&g);
    o = (GameOptions){3, 3, 0, (BoardKind)7, false, false};
    CHECK_INT(game_init(&g, &o, err, sizeof err), MB_EINVAL);
    game_free(&g);
    o = (GameOptions){32, 32, 0, BOARD_BITS, true, false};
    CHECK_INT(game_init(&g, &o, err, sizeof err), MB_OK); /* the largest board, 16 words */
    CHECK_INT(game_geom(&g)->k, 32);
    game_move(&g, 1023);
    CHECK(game_ok(&g));
    game_free(&g);
    GameOptions o2 = {4, 2, 0, BOARD_LIST, false, false};
    CHECK_INT(game_init(&g, &o2, err, sizeof err), MB_OK);
    CHECK_INT(game_geom(&g)->k, 2); /* default k = min(width, height) */
    game_free(&g);
}

/* game_mark / game_rewind: the moves since the mark are taken back and the
 * record, a replayed future included, is as it was; game_change_step keeps
 * the future through the same pair. */
TEST(mark_and_rewind)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        if (!t_open_game(&g, 3, 3, 0, c)) continue;
        t_play_list(&g, "A1,B2,C3,A3");
        game_change_step(&g, 1);
        char key[MB_MAX_CELLS + 1];
        board_key(&g.board, key);
        CHECK_STR(key, "o........");
        GameMark mark;
        game_mark(&g, &mark);
        game_move(&g, 8);
        game_move(&g, 7);
        game_unmove(&g);
        game_move(&g, 2);
        game_rewind(&g, &mark);
        board_key(&g.board, key);
        CHECK_STR(key, "o........");
        CHECK_INT(g.move_count, 1);
        CHECK_INT(g.nrecords, 5);
        CHECK_INT(g.records[2], 4); /* B2, A3 and C3 still recorded */
        CHECK_INT(g.records[3], 8);
        CHECK_INT(g.records[4], 2);
        CHECK(game_ok(&g));
        game_rewind(&g, &mark); /* nothing to undo: a no-op */
        CHECK_INT(g.nrecords, 5);
        game_free(&g);
    }
}

/* The back-end list (BOARD_BACKENDS): its names, their text for people, and
 * parsing by name or prefix. */
TEST(backend_names)
{
    CHECK_INT(BOARD_KINDS, 3);
    CHECK_STR(BOARD_NAMES, "list, list1d or bitboard");
    CHECK_STR(board_kind_name(BOARD_LIST), "list");
    CHECK_STR(board_kind_name(BOARD_LIST1D), "list1d");
    CHECK_STR(board_kind_name(BOARD_BITS), "bitboard");
    CHECK_STR(board_kind_name(BOARD_KINDS), "?");
    BoardKind k = BOARD_LIST;
    CHECK_INT(board_kind_parse("bits", &k), MB_OK);
    CHECK_INT(k, BOARD_BITS);
    for (int i = 0; i < BOARD_KINDS; i++) {
        CHECK_INT(board_kind_parse(board_kind_name((BoardKind)i), &k), MB_OK);
        CHECK_INT(k, i);
    }
    CHECK_INT(board_kind_parse("hex", &k), MB_EINVAL);
    CHECK_INT(board_kind_parse("", &k), MB_EINVAL);
}

const TestCase game_tests[] = {
    {"backend_names", backend_names},
    {"mark_and_rewind", mark_and_rewind},
    {"start_state", start_state},
    {"demo_move", demo_move},
    {"demo_cmove_messages", demo_cmove_messages},
    {"cmove_python_int_rules", cmove_python_int_rules},
    {"cmove_after_the_end", cmove_after_the_end},
    {"demo_unmove_five", demo_unmove_five},
    {"demo_unmove_after_cmove", demo_unmove_after_cmove},
    {"demo_remove_mark", demo_remove_mark},
    {"demo_direct_writes", demo_direct_writes},
    {"keys_of_the_spec", keys_of_the_spec},
    {"random_playouts_unmove_to_start", random_playouts_unmove_to_start},
    {"move_unmove_restores_every_field", move_unmove_restores_every_field},
    {"records_replay_and_truncation", records_replay_and_truncation},
    {"copy_is_independent", copy_is_independent},
    {"backend_equivalence", backend_equivalence},
    {"seeded_random_match_golden", seeded_random_match_golden},
    {"bad_options", bad_options},
    {0},
};
