/* test_judge.c: the series' test_judge (game.md §12): its 28 cases print the
 * exact published output on every back-end x count_linemark, the final
 * positions are the published ones, and k-in-a-row wins by hand on 4x4 k4,
 * 5x5 k4, 6x5 k4, 7x7 k5 and 15x15 k5 (rows, columns, both diagonals, edges,
 * windows not through the last move). */
#include <stdlib.h>

#include "testutil.h"

typedef struct JudgeCase {
    const char *winner;
    const char *moves;
    const char *rows; /* final position, rows y = 0..2 separated by '/' */
    const char *last; /* last move as Excel, "" for none */
} JudgeCase;

static const JudgeCase cases[] = {
    {"playing", "", ".../.../...", ""},
    {"playing", "C3,A2,B1,B2,C2,C1,A3,B3", ".ox/xxo/oxo", "B3"},
    {"playing", "A1,A2,C3,B2,C2,C1,A3,B3", "o.x/xxo/oxo", "B3"},
    {"playing", "A1,A2,B1,B2,C2,C3,A3,B3", "oo./xxo/oxx", "B3"},
    {"playing", "A1,C3,B1,B2,C2,C1,A3,B3", "oox/.xo/oxx", "B3"},
    {"playing", "A1,A2,B1,C3,C2,C1,A3,B3", "oox/x.o/oxx", "B3"},
    {"playing", "A1,A2,B1,B2,C3,C1,A3,B3", "oox/xx./oxo", "B3"},
    {"playing", "A1,A2,B1,B2,C2,C1,C3,B3", "oox/xxo/.xo", "B3"},
    {"playing", "A1,A2,B1,B2,A3,C1,C2,C3", "oox/xxo/o.x", "C3"},
    {"playing", "A1,A2,B1,B2,C2,C1,A3,B3", "oox/xxo/ox.", "B3"},
    {"o", "A1,A2,B1,B2,C1", "ooo/xx./...", "C1"},
    {"o", "A2,A1,B2,B1,C2", "xx./ooo/...", "C2"},
    {"o", "A3,A1,B3,B1,C3", "xx./.../ooo", "C3"},
    {"o", "A1,B1,A2,B2,A3", "ox./ox./o..", "A3"},
    {"o", "B1,A1,B2,A2,B3", "xo./xo./.o.", "B3"},
    {"o", "C1,A1,C2,A2,C3", "x.o/x.o/..o", "C3"},
    {"o", "A1,A2,B2,A3,C3", "o../xo./x.o", "C3"},
    {"o", "A3,A1,B2,A2,C1", "x.o/xo./o..", "C1"},
    {"o", "A1,B1,A2,B2,B3,C1,C3,C2,A3", "oxx/oxx/ooo", "A3"},
    {"x", "A2,A1,B2,B1,A3,C1", "xxx/oo./o..", "C1"},
    {"x", "A1,A2,B1,B2,A3,C2", "oo./xxx/o..", "C2"},
    {"x", "A1,A3,B1,B3,A2,C3", "oo./o../xxx", "C3"},
    {"x", "B1,A1,B2,A2,C1,A3", "xoo/xo./x..", "A3"},
    {"x", "A1,B1,A2,B2,C1,B3", "oxo/ox./.x.", "B3"},
    {"x", "A1,C1,A2,C2,B1,C3", "oox/o.x/..x", "C3"},
    {"x", "A2,A1,A3,B2,B1,C3", "xo./ox./o.x", "C3"},
    {"x", "A1,C1,B1,B2,A2,A3", "oox/ox./x..", "A3"},
    {"draw", "A1,A2,B1,B2,C2,C1,A3,B3,C3", "oox/xxo/oxo", "C3"},
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

static const char expected_output[] = "Start\n"
                                      "test winner = playing\n"
                                      "oooooooooo\n"
                                      "test winner = o\n"
                                      "ooooooooo\n"
                                      "test winner = x\n"
                                      "oooooooo\n"
                                      "test winner = draw\n"
                                      "o\n"
                                      "Finished\n";

/* The series' harness on configuration c (T_PAIRS, testutil.h), printing
 * into out; a failure prints its report. */
static void run_test_judge(int c, char *out, size_t len)
{
    size_t used = 0;
    const char *group = NULL;
    used += (size_t)snprintf(out + used, len - used, "Start\n");
    for (int i = 0; i < NCASES; i++) {
        if (!group || strcmp(group, cases[i].winner) != 0) {
            if (group) used += (size_t)snprintf(out + used, len - used, "\n");
            group = cases[i].winner;
            used += (size_t)snprintf(out + used, len - used, "test winner = %s\n", group);
        }
        Game g;
        GameOptions opt = t_config(T_PAIRS, c, 3, 3, 0);
        CHECK_INT(game_init(&g, &opt, NULL, 0), MB_OK);
        t_play_list(&g, cases[i].moves);
        const char *actual = status_name(game_judge(&g));
        if (strcmp(actual, cases[i].winner) == 0) {
            used += (size_t)snprintf(out + used, len - used, "o");
        } else {
            char text[64];
            notation_text(&g, text);
            used += (size_t)snprintf(out + used, len - used,
                                     "\n====================\ntest_judge error!\n%s\n"
                                     "mb.judge(): %s\nwinner:     %s\n====================\n",
                                     text, actual, cases[i].winner);
        }
        game_free(&g);
    }
    snprintf(out + used, len - used, "\nFinished\n");
}

TEST(published_output_every_backend)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        char out[4096];
        run_test_judge(c, out, sizeof out);
        CHECK_STR(out, expected_output);
    }
}

TEST(final_positions)
{
    for (int i = 0; i < NCASES; i++) {
        Game g;
        CHECK_INT(game_init(&g, NULL, NULL, 0), MB_OK);
        t_play_list(&g, cases[i].moves);
        char rows[16] = {0}, key[16];
        notation_key(&g, key);
        for (int y = 0, p = 0; y < 3; y++) {
            for (int x = 0; x < 3; x++) rows[p++] = key[y + 3 * x];
            if (y < 2) rows[p++] = '/';
        }
        CHECK_STR(rows, cases[i].rows);
        char last[16] = "";
        if (g.last_move != MOVE_NONE) {
            int x, y;
            geometry_move_to_xy(game_geom(&g), g.last_move, &x, &y);
            notation_excel_format(x, y, last);
        }
        CHECK_STR(last, cases[i].last);
        /* the side to move: o after an even number of moves */
        CHECK_INT(g.turn, g.move_count % 2 ? MARK_X : MARK_O);
        CHECK_STR(status_name(g.status), cases[i].winner);
        game_free(&g);
    }
}

/* Play a list of Excel moves on a w x h board with k in a row, on every
 * back-end x counters (T_PAIRS, testutil.h), and check the status after the
 * last move. */
static void check_k(int w, int h, int k, const char *list, const char *status)
{
    for (int c = 0; c < T_NCONFIGS; c++) {
        Game g;
        GameOptions opt = t_config(T_PAIRS, c, w, h, k);
        CHECK_INT(game_init(&g, &opt, NULL, 0), MB_OK);
        int moves[MB_MAX_CELLS], n = t_parse_list(&g, list, moves);
        for (int i = 0; i < n; i++) {
            CHECK_INT(game_play(&g, moves[i]), MB_OK);
            if (i < n - 1 && g.status != STATUS_PLAYING)
                t_fail(__FILE__, __LINE__, "%s ended early at move %d", list, i + 1);
        }
        if (strcmp(status_name(g.status), status) != 0)
            t_fail(__FILE__, __LINE__, "%dx%d k%d %s board %s counters %d: %s, expected %s", w, h,
                   k, list, board_kind_name(opt.board), opt.count_linemark, status_name(g.status),
                   status);
        game_free(&g);
    }
}

TEST(k_in_a_row_4x4_k4)
{
    check_k(4, 4, 4, "A1,A2,B1,B2,C1,C2,D1", "o");       /* top row */
    check_k(4, 4, 4, "D1,C1,D2,C2,D3,C3,D4", "o");       /* right column */
    check_k(4, 4, 4, "A1,B1,B2,C1,C3,D1,D4", "o");       /* main diagonal */
    check_k(4, 4, 4, "D1,A1,C2,B1,B3,C1,A4", "o");       /* anti-diagonal */
    check_k(4, 4, 4, "A1,A2,B1,B2,C1,C2,A3,D2", "x");    /* × on row 2 */
    check_k(4, 4, 4, "A1,A2,B1,B2,C1,C2,A4", "playing"); /* three in a row only */
}

TEST(k_in_a_row_5x5_k4)
{
    check_k(5, 5, 4, "B3,A1,C3,A2,D3,A4,E3", "o");       /* row, window at the right edge */
    check_k(5, 5, 4, "A3,E1,B3,E2,C3,E4,E5", "playing"); /* 3 + gap: no win */
    check_k(5, 5, 4, "A3,E1,B3,E2,C3,E4,D3", "o");       /* row from the left edge */
    check_k(5, 5, 4, "B2,A1,C3,A2,D4,A3,E5", "o");       /* diagonal not from the corner */
    check_k(5, 5, 4, "E2,A1,D3,A2,C4,A3,B5", "o");       /* anti-diagonal off the long one */
    check_k(5, 5, 4, "C1,A1,C2,A2,C3,B5,C5", "playing"); /* C1 C2 C3 . C5: gap */
    check_k(5, 5, 4, "C1,A1,C2,A2,C3,B5,C5,B4,C4", "o"); /* filling the gap joins 5 */
}

TEST(k_in_a_row_6x5_k4)
{
    check_k(6, 5, 4, "C5,A1,D5,A2,E5,A3,F5", "o");    /* bottom row, right edge */
    check_k(6, 5, 4, "F2,A1,F3,A2,F4,B1,F5", "o");    /* column reaching the bottom */
    check_k(6, 5, 4, "C1,A1,D2,A2,E3,A3,F4", "o");    /* diagonal ending at the right */
    check_k(6, 5, 4, "F2,A1,E3,A2,D4,A3,C5", "o");    /* anti-diagonal to the bottom */
    check_k(6, 5, 4, "A5,F1,B5,F2,C5,F3,D1,F4", "x"); /* × on the right column */
}

TEST(k_in_a_row_7x7_k5)
{
    check_k(7, 7, 5, "C4,A1,D4,A2,E4,A3,F4,B1,G4", "o");       /* row C4..G4 */
    check_k(7, 7, 5, "C4,A1,D4,A2,E4,A3,F4,B1,B4", "o");       /* B4..F4, last at the left */
    check_k(7, 7, 5, "A1,G1,B2,G2,C3,G3,D4,F1,E5", "o");       /* main diagonal */
    check_k(7, 7, 5, "G3,A1,F4,A2,E5,A3,D6,B1,C7", "o");       /* anti-diagonal to the bottom */
    check_k(7, 7, 5, "A1,G7,B2,G6,C3,G5,D4,F7,F6", "playing"); /* 4 on the diagonal + gap */
}

TEST(k_in_a_row_15x15_k5)
{
    check_k(15, 15, 5, "K15,A1,L15,A2,M15,A3,N15,A4,O15", "o");       /* bottom-right corner row */
    check_k(15, 15, 5, "O1,A1,O2,A2,O3,A3,O4,A5,O5", "o");            /* right column from top */
    check_k(15, 15, 5, "K11,A1,L12,A2,M13,A3,N14,A5,O15", "o");       /* diagonal to the corner */
    check_k(15, 15, 5, "E1,A15,D2,B15,C3,C15,B4,D14,A5", "o");        /* anti-diagonal corner */
    check_k(15, 15, 5, "H8,A1,I8,A2,J8,A3,K8,A4,M8", "playing");      /* 4 + gap; × has 4 too */
    check_k(15, 15, 5, "H8,A1,I8,A2,J8,A3,K8,B5,F8,A5,G8", "o");      /* F..K: six in a row wins */
    check_k(15, 15, 5, "A1,B1,A2,B2,A3,B3,A4,C1,O15,B4,O14,B5", "x"); /* o's 4 does not count */
}

TEST(early_exit_before_2k_minus_1)
{
    /* the judge does not look at the board before move 2k-1: a board made
     * by hand with place_mark shows it, as in the series */
    Game g;
    CHECK_INT(game_init(&g, NULL, NULL, 0), MB_OK);
    CHECK_INT(game_place_mark(&g, 0, 0, MARK_O), MB_OK);
    CHECK_INT(game_place_mark(&g, 1, 0, MARK_O), MB_OK);
    game_move(&g, geometry_xy_to_move(game_geom(&g), 2, 0));
    CHECK_INT(g.status, STATUS_PLAYING); /* 3 o in a row, but move_count 1 < 5 */
    CHECK(board_is_winner(&g.board, MARK_O, g.last_move));
    game_free(&g);
}

const TestCase judge_tests[] = {
    {"published_output_every_backend", published_output_every_backend},
    {"final_positions", final_positions},
    {"k_in_a_row_4x4_k4", k_in_a_row_4x4_k4},
    {"k_in_a_row_5x5_k4", k_in_a_row_5x5_k4},
    {"k_in_a_row_6x5_k4", k_in_a_row_6x5_k4},
    {"k_in_a_row_7x7_k5", k_in_a_row_7x7_k5},
    {"k_in_a_row_15x15_k5", k_in_a_row_15x15_k5},
    {"early_exit_before_2k_minus_1", early_exit_before_2k_minus_1},
    {0},
};
