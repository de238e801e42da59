/* test_notation.c: text forms and coordinates: the text form's header and
 * upper-cased last move on square and non-square boards, board keys, Excel
 * coordinates both ways (past column Z and row 9, any case), move lists
 * ("" is no moves; malformed items are rejected with their position, never a
 * crash), Python int() parsing of typed coordinates, and the messages in both
 * languages. */
#include <stdlib.h>

#include "harness.h"
#include "marubatsu.h"

TEST(text_form)
{
    Game g;
    CHECK_INT(game_init(&g, NULL, NULL, 0), MB_OK);
    static const int seq[7] = {0, 3, 1, 6, 5, 4, 2}; /* game.md §7.3 */
    for (int i = 0; i < 7; i++) game_move(&g, seq[i]);
    char buf[64];
    CHECK_INT(notation_text(&g, buf), 21);
    CHECK_STR(buf, "winner o\noxx\nox.\nOo.\n");
    game_free(&g);

    GameOptions o = {4, 2, 3, BOARD_LIST1D, false, false};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    game_move(&g, geometry_xy_to_move(game_geom(&g), 3, 1));
    game_move(&g, geometry_xy_to_move(game_geom(&g), 0, 0));
    CHECK_STR((notation_text(&g, buf), buf), "Turn o\nX...\n...o\n");
    game_move(&g, geometry_xy_to_move(game_geom(&g), 2, 1));
    game_move(&g, geometry_xy_to_move(game_geom(&g), 1, 0));
    game_move(&g, geometry_xy_to_move(game_geom(&g), 0, 1));
    CHECK_STR((notation_text(&g, buf), buf), "Turn x\nxx..\nO.oo\n");
    char key[16];
    notation_key(&g, key);
    CHECK_STR(key, "xox..o.o"); /* column by column */
    game_free(&g);

    o = (GameOptions){3, 3, 0, BOARD_BITS, true, false};
    CHECK_INT(game_init(&g, &o, NULL, 0), MB_OK);
    static const int draw[9] = {0, 1, 3, 4, 7, 6, 2, 5, 8}; /* A1 A2 B1 B2 C2 C1 A3 B3 C3 */
    for (int i = 0; i < 9; i++) game_move(&g, draw[i]);
    CHECK_STR((notation_text(&g, buf), buf), "winner draw\noox\nxxo\noxO\n");
    game_free(&g);
}

TEST(excel_coordinates)
{
    static const struct {
        const char *text;
        int x, y;
    } ok[] = {
        {"A1", 0, 0},   {"c1", 2, 0},    {"A3", 0, 2},     {"b2", 1, 1},   {"Z9", 25, 8},
        {"AA1", 26, 0}, {"ab10", 27, 9}, {"AF32", 31, 31}, {" B2 ", 1, 1}, {"ZZ100", 701, 99},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int x = -9, y = -9;
        CHECK_INT(notation_excel_parse(ok[i].text, &x, &y), MB_OK);
        CHECK_INT(x, ok[i].x);
        CHECK_INT(y, ok[i].y);
        char back[16];
        notation_excel_format(ok[i].x, ok[i].y, back);
        char upper[16];
        size_t n = 0;
        for (const char *p = ok[i].text; *p; p++)
            if (*p != ' ') upper[n++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        upper[n] = '\0';
        CHECK_STR(back, upper);
    }
    static const char *const bad[] = {"",
                                      "A",
                                      "1",
                                      "A0",
                                      "A01",
                                      "1A",
                                      "A1B",
                                      "A-1",
                                      "A 1",
                                      "é1",
                                      "A1,",
                                      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1",
                                      "A99999999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int x, y;
        if (notation_excel_parse(bad[i], &x, &y) != MB_ESYNTAX)
            t_fail(__FILE__, __LINE__, "\"%s\" was accepted", bad[i]);
    }
}

TEST(move_lists)
{
    Geometry *g = geometry_new(3, 3, 0);
    int moves[16], n = -1, bad = -1;
    CHECK_INT(notation_parse_moves(g, "", moves, 16, &n, &bad), MB_OK);
    CHECK_INT(n, 0); /* "" is no moves, not one empty item */
    CHECK_INT(notation_parse_moves(g, "  ", moves, 16, &n, &bad), MB_OK);
    CHECK_INT(n, 0);
    CHECK_INT(notation_parse_moves(g, "A1,b2, C3", moves, 16, &n, &bad), MB_OK);
    CHECK_INT(n, 3);
    CHECK_INT(moves[0], 0);
    CHECK_INT(moves[1], 4);
    CHECK_INT(moves[2], 8);
    CHECK_INT(notation_parse_moves(g, "A1,,B2", moves, 16, &n, &bad), MB_ESYNTAX);
    CHECK_INT(bad, 1);
    CHECK_INT(notation_parse_moves(g, "A1,B2,", moves, 16, &n, &bad), MB_ESYNTAX);
    CHECK_INT(bad, 2);
    CHECK_INT(notation_parse_moves(g, "A1,D1", moves, 16, &n, &bad), MB_ERANGE);
    CHECK_INT(bad, 1);
    CHECK_INT(notation_parse_moves(g, "A4", moves, 16, &n, &bad), MB_ERANGE);
    CHECK_INT(bad, 0);
    CHECK_INT(notation_parse_moves(g, "A1,A2,A3", moves, 2, &n, &bad), MB_EINVAL);
    CHECK_INT(bad, 2);
    char text[64];
    int list[3] = {0, 4, 8};
    CHECK_INT(notation_format_moves(g, list, 3, text, sizeof text), 8);
    CHECK_STR(text, "A1,B2,C3");
    CHECK_INT(notation_format_moves(g, list, 3, text, 5), -1);
    geometry_unref(g);

    g = geometry_new(30, 12, 5);
    CHECK_INT(notation_parse_moves(g, "AD12,a1,AA10", moves, 16, &n, &bad), MB_OK);
    CHECK_INT(moves[0], 11 + 29 * 12);
    CHECK_INT(moves[2], 9 + 26 * 12);
    CHECK_INT(notation_format_moves(g, moves, 3, text, sizeof text), 12);
    CHECK_STR(text, "AD12,A1,AA10");
    geometry_unref(g);
}

TEST(python_int)
{
    static const struct {
        const char *text;
        long long v;
        const char *digits;
    } ok[] = {
        {"0", 0, "0"},
        {"-0", 0, "0"},
        {"+7", 7, "7"},
        {" 12 ", 12, "12"},
        {"\t3\n", 3, "3"},
        {"1_000", 1000, "1000"},
        {"007", 7, "7"},
        {"-15", -15, "-15"},
        {"３", 3, "3"},
        {"\xe3\x80\x80"
         "2",
         2, "2"},
        {"123456789012345678901234567890", 1000000000000000000LL, "123456789012345678901234567890"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        IntText t;
        CHECK_INT(notation_parse_int(ok[i].text, &t), MB_OK);
        CHECK_INT(t.value, ok[i].v);
        CHECK_STR(t.digits, ok[i].digits);
    }
    static const char *const bad[] = {"",    "-",   "1_",  "_1",   "1__2", "1.5",
                                      "1e3", "one", "1 2", "0x10", "++1",  "\xef\xbc"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        IntText t;
        if (notation_parse_int(bad[i], &t) != MB_ENOTINT)
            t_fail(__FILE__, __LINE__, "\"%s\" was accepted", bad[i]);
    }
    IntText t;
    char huge[200];
    memset(huge, '9', 150);
    huge[150] = '\0';
    CHECK_INT(notation_parse_int(huge, &t), MB_OK); /* digits cut, never overflowing */
    CHECK(strlen(t.digits) < sizeof t.digits);
    CHECK(strstr(t.digits, "...") != NULL);
}

TEST(messages_both_languages)
{
    static const struct {
        int err;
        const char *xs, *ys;
        Lang lang;
        const char *want;
    } cases[] = {
        {MB_ERANGE, "3", "5", LANG_JA, "( 3 , 5 ) はゲーム盤の範囲外の座標です"},
        {MB_ERANGE, "3", "5", LANG_EN, "( 3 , 5 ) is outside the board"},
        {MB_EOCCUPIED, "0", "0", LANG_JA, "( 0 , 0 ) のマスにはマークが配置済です"},
        {MB_EOCCUPIED, "0", "0", LANG_EN, "( 0 , 0 ) is already occupied"},
        {MB_ENOTINT, "a", "b", LANG_JA, "整数の座標を入力して下さい"},
        {MB_EEMPTY, "1", "1", LANG_EN, "( 1 , 1 ) has no mark"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char msg[256];
        notation_message(cases[i].err, cases[i].xs, cases[i].ys, cases[i].lang, msg, sizeof msg);
        CHECK_STR(msg, cases[i].want);
    }
}

const TestCase notation_tests[] = {
    {"text_form", text_form},
    {"excel_coordinates", excel_coordinates},
    {"move_lists", move_lists},
    {"python_int", python_int},
    {"messages_both_languages", messages_both_languages},
    {0},
};
