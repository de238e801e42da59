/* test_journal.c: the tournament text formats of journal.h. Checks the exact
 * G line of a known game; format-then-parse round trips giving the same
 * struct (names and reasons with tabs, newlines, carriage returns,
 * backslashes and UTF-8, the largest numbers, the longest fields); "\r\n"
 * and a missing line end accepted; every rejected G line with its status
 * and the field its message names (wrong record type, missing and extra
 * fields, bad and out-of-range numbers, seed above 2^64-1, game 0, unknown
 * escape, lone backslash, NUL byte, raw line breaks, result "win", bad
 * moves "Z" and "B2,,A1", empty names, fields too long); journal_split and
 * journal_escape on their own (truncation like snprintf, small buffers,
 * field limits); player specifications: names alone, typed parameters
 * (int, number, bool, string; "nan"/"inf" are strings), paths whose colon
 * comes before a slash, and every rejected spec with its message. */
#include <limits.h>
#include <locale.h>
#include <stdlib.h>

#include "harness.h"
#include "marubatsu.h"

/* journal_parse_game on a C string (no NUL inside). */
static int parse(const char *line, JournalGame *g, char *err, size_t errlen)
{
    return journal_parse_game(line, strlen(line), g, err, errlen);
}

/* Set a string member, zeroing the rest of its array (structs compare
 * with memcmp). */
#define SET(member, text) (memset(member, 0, sizeof member), strcpy(member, text))

static JournalGame sample_game(void)
{
    JournalGame g;
    memset(&g, 0, sizeof g);
    g.game = 3;
    g.pairing = 2;
    g.index = 1;
    g.seed = UINT64_MAX;
    strcpy(g.player[0], "ai14s");
    strcpy(g.player[1], "ai2");
    strcpy(g.moves, "B2,A1,C3");
    strcpy(g.result, "o");
    return g;
}

TEST(format_known_game)
{
    JournalGame g = sample_game();
    char line[JOURNAL_LINE_MAX];
    const char *want = "G\t3\t2\t1\t18446744073709551615\tai14s\tai2\tB2,A1,C3\to\t\n";
    CHECK_INT(journal_format_game(&g, line, sizeof line), (long long)strlen(want));
    CHECK_STR(line, want);

    strcpy(g.player[1], "dir\\my ai\t2");
    g.moves[0] = '\0';
    strcpy(g.result, "draw");
    strcpy(g.reason, "error: bad\nmove\r");
    g.seed = 0;
    CHECK_INT(journal_format_game(&g, line, sizeof line), 55);
    CHECK_STR(line, "G\t3\t2\t1\t0\tai14s\tdir\\\\my ai\\t2\t\tdraw\terror: bad\\nmove\\r\n");

    /* too small: -1 and an empty string, never a partial line */
    CHECK_INT(journal_format_game(&g, line, 55), -1);
    CHECK_STR(line, "");
    CHECK_INT(journal_format_game(&g, line, 56), 55);
    CHECK_INT(journal_format_game(&g, line, 0), -1);
}

/* Format g, parse the line back, and compare every field. */
static void round_trip(const JournalGame *g)
{
    char line[JOURNAL_LINE_MAX], err[256] = "";
    int n = journal_format_game(g, line, sizeof line);
    CHECK(n > 0);
    CHECK_INT(line[n - 1], '\n');
    JournalGame back;
    memset(&back, 0x5a, sizeof back);
    int rc = journal_parse_game(line, (size_t)n, &back, err, sizeof err);
    if (rc != MB_OK) t_fail(__FILE__, __LINE__, "parse of %s: %s", line, err);
    CHECK_INT(back.game, g->game);
    CHECK_INT(back.pairing, g->pairing);
    CHECK_INT(back.index, g->index);
    CHECK_U64(back.seed, g->seed);
    CHECK_STR(back.player[0], g->player[0]);
    CHECK_STR(back.player[1], g->player[1]);
    CHECK_STR(back.moves, g->moves);
    CHECK_STR(back.result, g->result);
    CHECK_STR(back.reason, g->reason);
    CHECK(journal_game_equal(&back, g));
}

TEST(round_trips)
{
    JournalGame g = sample_game();
    round_trip(&g);

    SET(g.player[0], "〇 player\twith\ttabs");
    SET(g.player[1], "C:\\ais\\new\nline\r\\t not a tab");
    SET(g.reason, "error: scripts/bad.lua:3: attempt to index a nil value\n\tstack\\");
    SET(g.result, "x");
    SET(g.moves, "AA10,b2,ZZ100,A1");
    g.game = LONG_MAX;
    g.pairing = 1;
    g.index = LONG_MAX;
    g.seed = 0;
    round_trip(&g);

    SET(g.result, "draw");
    SET(g.reason, "time");
    SET(g.moves, "");
    round_trip(&g);

    /* the longest fields: every byte escaped */
    memset(g.player[0], '\\', JOURNAL_NAME_MAX - 1);
    g.player[0][JOURNAL_NAME_MAX - 1] = '\0';
    memset(g.player[1], '\t', JOURNAL_NAME_MAX - 1);
    g.player[1][JOURNAL_NAME_MAX - 1] = '\0';
    memset(g.reason, '\n', JOURNAL_REASON_MAX - 1);
    g.reason[JOURNAL_REASON_MAX - 1] = '\0';
    size_t used = 0;
    while (used + 5 < JOURNAL_MOVES_MAX) {
        memcpy(g.moves + used, used ? ",AB99" : "AB99", used ? 5 : 4);
        used += used ? 5 : 4;
    }
    g.moves[used] = '\0';
    round_trip(&g);
}

TEST(line_ends)
{
    const char *base = "G\t1\t1\t2\t42\tai2\tai14s\tB2,A1\tx\ttime";
    char line[128], err[256] = "";
    JournalGame a, b, c;
    CHECK_INT(parse(base, &a, err, sizeof err), MB_OK);
    snprintf(line, sizeof line, "%s\n", base);
    CHECK_INT(parse(line, &b, err, sizeof err), MB_OK);
    snprintf(line, sizeof line, "%s\r\n", base);
    CHECK_INT(parse(line, &c, err, sizeof err), MB_OK);
    CHECK(journal_game_equal(&a, &b));
    CHECK(journal_game_equal(&a, &c));
    CHECK_INT(a.index, 2);
    CHECK_U64(a.seed, 42);
    CHECK_STR(a.player[1], "ai14s");
    CHECK_STR(a.moves, "B2,A1");
    CHECK_STR(a.reason, "time");
    /* one line end only; a lone "\r" at the end is not one */
    snprintf(line, sizeof line, "%s\n\n", base);
    CHECK_INT(parse(line, &a, err, sizeof err), MB_ESYNTAX);
    CHECK_STR(err, "field 10 (REASON): an unescaped newline at column 34 (write \\n)");
    snprintf(line, sizeof line, "%s\r", base);
    CHECK_INT(parse(line, &a, err, sizeof err), MB_ESYNTAX);
    CHECK_STR(err, "field 10 (REASON): an unescaped carriage return at column 34 (write \\r)");
}

static void bad_line(const char *line, size_t len, int want_rc, const char *want_text, int lineno)
{
    JournalGame g;
    char err[256] = "";
    int rc = journal_parse_game(line, len, &g, err, sizeof err);
    if (rc != want_rc)
        t_fail(__FILE__, lineno, "status %d, expected %d, for \"%s\" (%s)", rc, want_rc, line, err);
    if (!strstr(err, want_text))
        t_fail(__FILE__, lineno, "message \"%s\" lacks \"%s\"", err, want_text);
    /* nothing half-parsed is left */
    CHECK_INT(g.game, 0);
    CHECK_STR(g.player[0], "");
    CHECK_STR(g.reason, "");
}
#define BAD(line, rc, text) bad_line(line, strlen(line), rc, text, __LINE__)

TEST(game_errors)
{
    BAD("H\tmarubatsu-journal\t1\n", MB_ESYNTAX, "not a game record: the line starts with \"H\"");
    BAD("P\t1\tai14s\tai14s:w=1\n", MB_ESYNTAX, "starts with \"P\", not \"G\"");
    BAD("g\t1\t1\t1\t0\ta\tb\t\to\t\n", MB_ESYNTAX, "starts with \"g\"");
    BAD("GG\t1\t1\t1\t0\ta\tb\t\to\t\n", MB_ESYNTAX, "starts with \"GG\"");
    BAD("", MB_ESYNTAX, "starts with \"\"");
    BAD("\n", MB_ESYNTAX, "starts with \"\"");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2\to\n", MB_ESYNTAX,
        "missing fields: a G line has 10 tab-separated fields, this one 9 (field 10, REASON, is missing)");
    BAD("G\t1\t1\n", MB_ESYNTAX, "this one 3 (field 4, INDEX, is missing)");
    BAD("G\n", MB_ESYNTAX, "this one 1 (field 2, GAME, is missing)");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2\to\t\textra\n", MB_ESYNTAX,
        "extra fields: a G line has 10 tab-separated fields, this one more (field 11 starts at column 21)");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2\to\t\t\t\t\t\t\t\t\t\t\n", MB_ESYNTAX, "extra fields");

    BAD("G\tx1\t1\t1\t0\ta\tb\t\to\t\n", MB_ESYNTAX,
        "field 2 (GAME): \"x1\" is not a decimal integer");
    BAD("G\t-1\t1\t1\t0\ta\tb\t\to\t\n", MB_ESYNTAX, "field 2 (GAME): \"-1\" is not");
    BAD("G\t+1\t1\t1\t0\ta\tb\t\to\t\n", MB_ESYNTAX, "field 2 (GAME): \"+1\" is not");
    BAD("G\t\t1\t1\t0\ta\tb\t\to\t\n", MB_ESYNTAX, "field 2 (GAME): \"\" is not");
    BAD("G\t1\t 1\t1\t0\ta\tb\t\to\t\n", MB_ESYNTAX, "field 3 (PAIRING): \" 1\" is not");
    BAD("G\t1\t1\t1.0\t0\ta\tb\t\to\t\n", MB_ESYNTAX, "field 4 (INDEX): \"1.0\" is not");
    BAD("G\t1\t1\t1\t0x10\ta\tb\t\to\t\n", MB_ESYNTAX, "field 5 (SEED): \"0x10\" is not");
    BAD("G\t1\t1\t1\t-0\ta\tb\t\to\t\n", MB_ESYNTAX, "field 5 (SEED): \"-0\" is not");
    BAD("G\t0\t1\t1\t0\ta\tb\t\to\t\n", MB_ERANGE,
        "field 2 (GAME): \"0\" is out of range (1 to 9223372036854775807)");
    BAD("G\t1\t0\t1\t0\ta\tb\t\to\t\n", MB_ERANGE, "field 3 (PAIRING): \"0\" is out of range");
    BAD("G\t1\t1\t000\t0\ta\tb\t\to\t\n", MB_ERANGE, "field 4 (INDEX): \"000\" is out of range");
    BAD("G\t9223372036854775808\t1\t1\t0\ta\tb\t\to\t\n", MB_ERANGE,
        "field 2 (GAME): \"9223372036854775808\" is out of range");
    BAD("G\t1\t1\t1\t18446744073709551616\ta\tb\t\to\t\n", MB_ERANGE,
        "field 5 (SEED): \"18446744073709551616\" is out of range (0 to 18446744073709551615)");
    BAD("G\t1\t1\t1\t99999999999999999999999\ta\tb\t\to\t\n", MB_ERANGE, "field 5 (SEED)");

    BAD("G\t1\t1\t1\t0\ta\tb\t\to\tboom\\x\n", MB_ESYNTAX,
        "field 10 (REASON): unknown escape \\x at column 22 (only \\\\ \\t \\n \\r exist)");
    BAD("G\t1\t1\t1\t0\ta\\a\tb\t\to\t\n", MB_ESYNTAX,
        "field 6 (O): unknown escape \\a at column 12");
    BAD("G\t1\t1\t1\t0\ta\tb\t\to\tboom\\\n", MB_ESYNTAX,
        "field 10 (REASON): a lone backslash at its end (column 22)");
    BAD("G\t1\t1\t1\t0\ta\tb\\\t\to\t\n", MB_ESYNTAX,
        "field 7 (X): a lone backslash at its end (column 14)");
    BAD("G\t1\t1\t1\t0\ta\tb\t\to\ta\rb\n", MB_ESYNTAX,
        "field 10 (REASON): an unescaped carriage return at column 19");
    BAD("G\t1\t1\t1\t0\ta\tb\t\to\ta\nb\n", MB_ESYNTAX, "field 10 (REASON): an unescaped newline");
    static const char nul[] = "G\t1\t1\t1\t0\ta\tb\t\to\tcut\0here\n";
    bad_line(nul, sizeof nul - 1, MB_ESYNTAX, "field 10 (REASON): a NUL byte at column 21",
             __LINE__);
    static const char nul2[] = "G\t1\t1\t1\t0\ta\0\tb\t\to\t\n";
    bad_line(nul2, sizeof nul2 - 1, MB_ESYNTAX, "field 6 (O): a NUL byte at column 12", __LINE__);
    static const char nul3[] = "G\t1\t1\t1\t0\ta\tb\t\to\t\0";
    bad_line(nul3, sizeof nul3 - 1, MB_ESYNTAX, "field 10 (REASON): a NUL byte", __LINE__);

    BAD("G\t1\t1\t1\t0\ta\tb\t\twin\t\n", MB_ESYNTAX,
        "field 9 (RESULT): \"win\" is not \"o\", \"x\" or \"draw\"");
    BAD("G\t1\t1\t1\t0\ta\tb\t\t\t\n", MB_ESYNTAX, "field 9 (RESULT): \"\" is not");
    BAD("G\t1\t1\t1\t0\ta\tb\t\tO\t\n", MB_ESYNTAX, "field 9 (RESULT): \"O\" is not");
    BAD("G\t1\t1\t1\t0\ta\tb\t\tdraw \t\n", MB_ESYNTAX, "field 9 (RESULT): \"draw \" is not");

    BAD("G\t1\t1\t1\t0\ta\tb\tZ\to\t\n", MB_ESYNTAX,
        "field 8 (MOVES): move 1 \"Z\" is not a square like B2 or AA10");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2,,A1\to\t\n", MB_ESYNTAX,
        "field 8 (MOVES): move 2 is empty (at byte 4 of the list)");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2,\to\t\n", MB_ESYNTAX, "move 2 is empty");
    BAD("G\t1\t1\t1\t0\ta\tb\t,B2\to\t\n", MB_ESYNTAX, "move 1 is empty");
    BAD("G\t1\t1\t1\t0\ta\tb\t,\to\t\n", MB_ESYNTAX, "move 1 is empty");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2,A0\to\t\n", MB_ESYNTAX, "move 2 \"A0\" is not a square");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2, A1\to\t\n", MB_ESYNTAX, "move 2 \" A1\" is not a square");
    BAD("G\t1\t1\t1\t0\ta\tb\t2B\to\t\n", MB_ESYNTAX, "move 1 \"2B\"");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2x\to\t\n", MB_ESYNTAX, "move 1 \"B2x\"");
    BAD("G\t1\t1\t1\t0\ta\tb\tB\to\t\n", MB_ESYNTAX, "move 1 \"B\"");
    BAD("G\t1\t1\t1\t0\ta\tb\tB2\\tA1\to\t\n", MB_ESYNTAX, "move 1 \"B2\\tA1\"");
    BAD("G\t1\t1\t1\t0\ta\tb\tA1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1\to\t\n",
        MB_ESYNTAX, "move 2 \"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...\" is not");

    BAD("G\t1\t1\t1\t0\t\tb\t\to\t\n", MB_ESYNTAX, "field 6 (O): the player's name is empty");
    BAD("G\t1\t1\t1\t0\ta\t\t\to\t\n", MB_ESYNTAX, "field 7 (X): the player's name is empty");

    /* fields too long for their arrays */
    static char line[3 * JOURNAL_MOVES_MAX];
    char name[JOURNAL_NAME_MAX + 1];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    snprintf(line, sizeof line, "G\t1\t1\t1\t0\t%s\tb\t\to\t\n", name);
    BAD(line, MB_ERANGE, "field 6 (O): longer than 255 bytes");
    name[sizeof name - 2] = '\0'; /* 255 bytes fit */
    snprintf(line, sizeof line, "G\t1\t1\t1\t0\ta\t%s\t\to\t\n", name);
    JournalGame g;
    char err[256] = "";
    CHECK_INT(parse(line, &g, err, sizeof err), MB_OK);
    CHECK_INT((long long)strlen(g.player[1]), 255);
    size_t n = (size_t)snprintf(line, sizeof line, "G\t1\t1\t1\t0\ta\tb\t");
    for (int i = 0; i < JOURNAL_MOVES_MAX / 3; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "A1,");
    snprintf(line + n, sizeof line - n, "A1\to\t\n");
    BAD(line, MB_ERANGE, "field 8 (MOVES): longer than 8191 bytes");
    char reason[JOURNAL_REASON_MAX + 1];
    memset(reason, 'r', sizeof reason - 1);
    reason[sizeof reason - 1] = '\0';
    snprintf(line, sizeof line, "G\t1\t1\t1\t0\ta\tb\t\to\t%s\n", reason);
    BAD(line, MB_ERANGE, "field 10 (REASON): longer than 1023 bytes");

    /* no room for a message is fine */
    CHECK_INT(journal_parse_game("x", 1, &g, NULL, 0), MB_ESYNTAX);
    char tiny[8];
    CHECK_INT(journal_parse_game("x", 1, &g, tiny, sizeof tiny), MB_ESYNTAX);
    CHECK_STR(tiny, "not a g");
}

TEST(game_accepts)
{
    JournalGame g;
    char err[256] = "";
    CHECK_INT(parse("G\t007\t1\t1\t18446744073709551615\t〇\t×\tb2,aa10,Zz100\tdraw\t\n", &g, err,
                    sizeof err),
              MB_OK);
    CHECK_INT(g.game, 7);
    CHECK_U64(g.seed, UINT64_MAX);
    CHECK_STR(g.player[0], "〇");
    CHECK_STR(g.player[1], "×");
    CHECK_STR(g.moves, "b2,aa10,Zz100"); /* kept as written */
    CHECK_STR(g.result, "draw");
    CHECK_INT(parse("G\t9223372036854775807\t1\t1\t0\ta\\\\b\\t\tc\\n\\r\t\tx\t\\\\\n", &g, err,
                    sizeof err),
              MB_OK);
    CHECK_INT(g.game, LONG_MAX);
    CHECK_STR(g.player[0], "a\\b\t");
    CHECK_STR(g.player[1], "c\n\r");
    CHECK_STR(g.moves, "");
    CHECK_STR(g.reason, "\\");
}

TEST(split)
{
    char *f[8];
    char buf[64], err[256] = "";
    const char *h = "H\tmarubatsu-journal\t1\r\n";
    CHECK_INT(journal_split(h, strlen(h), f, 8, buf, sizeof buf, err, sizeof err), 3);
    CHECK_STR(f[0], "H");
    CHECK_STR(f[1], "marubatsu-journal");
    CHECK_STR(f[2], "1");
    const char *p = "P\t1\tmy\\tai\t\t\\\\x\n";
    CHECK_INT(journal_split(p, strlen(p), f, 8, buf, sizeof buf, err, sizeof err), 5);
    CHECK_STR(f[2], "my\tai");
    CHECK_STR(f[3], "");
    CHECK_STR(f[4], "\\x");
    CHECK_INT(journal_split("", 0, f, 8, buf, sizeof buf, err, sizeof err), 1);
    CHECK_STR(f[0], "");
    CHECK_INT(journal_split("\t\n", 2, f, 8, buf, sizeof buf, err, sizeof err), 2);
    /* exactly len + 1 bytes are enough */
    char small[8];
    CHECK_INT(journal_split("a\tb\tc\\n", 7, f, 8, small, 8, err, sizeof err), 3);
    CHECK_STR(f[2], "c\n");
    CHECK_INT(journal_split("a\tb\tc\\n", 7, f, 8, small, 5, err, sizeof err), -1);
    CHECK_STR(err, "the buffer (5 bytes) is too small for the fields (field 3)");
    CHECK_INT(journal_split("a\tb\tc", 5, f, 8, small, 5, err, sizeof err), -1);
    CHECK_STR(err, "the buffer (5 bytes) is too small for the fields (field 3)");

    CHECK_INT(journal_split("a\tb\tc", 5, f, 2, buf, sizeof buf, err, sizeof err), -1);
    CHECK_STR(err, "more than 2 fields (field 3 starts at column 5)");
    CHECK_INT(journal_split("a\tb\\q", 5, f, 8, buf, sizeof buf, err, sizeof err), -1);
    CHECK_STR(err, "field 2: unknown escape \\q at column 4 (only \\\\ \\t \\n \\r exist)");
    CHECK_INT(journal_split("a\\\tb", 4, f, 8, buf, sizeof buf, err, sizeof err), -1);
    CHECK_STR(err, "field 1: a lone backslash at its end (column 2); write \\\\ for a backslash");
    CHECK_INT(journal_split("ab\\", 3, f, 8, buf, sizeof buf, err, sizeof err), -1);
    CHECK_STR(err, "field 1: a lone backslash at its end (column 3); write \\\\ for a backslash");
    CHECK_INT(journal_split("a\\\x01", 3, f, 8, buf, sizeof buf, err, sizeof err), -1);
    CHECK_STR(err, "field 1: unknown escape \\<01> at column 2 (only \\\\ \\t \\n \\r exist)");
    CHECK_INT(journal_split("a\tb\0c", 5, f, 8, buf, sizeof buf, err, sizeof err), -1);
    CHECK_STR(err, "field 2: a NUL byte at column 4");
    CHECK_INT(journal_split("a", 1, f, 0, buf, sizeof buf, err, sizeof err), -1);
    CHECK_STR(err, "journal_split: no line, no field array or max < 1");
}

TEST(escape)
{
    char out[32];
    CHECK_INT(journal_escape("a\tb\\c\nd\re", out, sizeof out), 13);
    CHECK_STR(out, "a\\tb\\\\c\\nd\\re");
    CHECK_INT(journal_escape("", out, sizeof out), 0);
    CHECK_STR(out, "");
    CHECK_INT(journal_escape("〇×", out, sizeof out), 5); /* UTF-8 bytes as they are */
    CHECK_STR(out, "〇×");
    /* like snprintf: the needed length, a cut output ends before an escape
     * that does not fit whole */
    CHECK_INT(journal_escape("ab\tc", out, 4), 5);
    CHECK_STR(out, "ab");
    CHECK_INT(journal_escape("ab\tc", out, 5), 5);
    CHECK_STR(out, "ab\\t");
    CHECK_INT(journal_escape("ab\tc", out, 6), 5);
    CHECK_STR(out, "ab\\tc");
    CHECK_INT(journal_escape("a\tbcdef", out, 3), 8);
    CHECK_STR(out, "a");
    CHECK_INT(journal_escape("abc", NULL, 0), 3);
}

TEST(spec_plain)
{
    PlayerSpec s;
    char err[256] = "";
    CHECK_INT(playerspec_parse("ai14s", &s, err, sizeof err), MB_OK);
    CHECK_STR(s.name, "ai14s");
    CHECK_INT(s.nparams, 0);
    CHECK_INT(playerspec_parse("my ais/win,or=block.lua", &s, err, sizeof err), MB_OK);
    CHECK_STR(s.name, "my ais/win,or=block.lua");
    CHECK_INT(s.nparams, 0);
    CHECK_INT(playerspec_parse("dir:x/ai.lua", &s, err, sizeof err), MB_OK);
    CHECK_STR(s.name, "dir:x/ai.lua");
    CHECK_INT(s.nparams, 0);
    CHECK_INT(playerspec_parse("dir:x/ai.lua:a=1", &s, err, sizeof err), MB_OK);
    CHECK_STR(s.name, "dir:x/ai.lua");
    CHECK_INT(s.nparams, 1);
    CHECK_STR(s.params[0].key, "a");
    CHECK_INT(s.params[0].type, PARAM_INT);
    CHECK_INT(s.params[0].i, 1);
    /* a value may hold '/' (a brain's log file) */
    CHECK_INT(playerspec_parse("brain:/usr/bin/pbrain-x:log=/tmp/b.log,timeout_turn=500", &s, err,
                               sizeof err),
              MB_OK);
    CHECK_STR(s.name, "brain:/usr/bin/pbrain-x");
    CHECK_INT(s.nparams, 2);
    CHECK_STR(s.params[0].key, "log");
    CHECK_STR(s.params[0].s, "/tmp/b.log");
    CHECK_STR(s.params[1].key, "timeout_turn");
    CHECK_INT(playerspec_parse("/abs/path/ai.lua:depth=3:x", &s, err, sizeof err), MB_OK);
    CHECK_STR(s.name, "/abs/path/ai.lua");
    CHECK_STR(s.params[0].key, "depth");
    CHECK_INT(s.params[0].type, PARAM_STRING);
    CHECK_STR(s.params[0].s, "3:x");
}

TEST(spec_params)
{
    PlayerSpec s;
    char err[256] = "";
    CHECK_INT(playerspec_parse("ai14s:w1=3,w2=-1.5,deep=true,mode=fast", &s, err, sizeof err),
              MB_OK);
    CHECK_STR(s.name, "ai14s");
    CHECK_INT(s.nparams, 4);
    CHECK_STR(s.params[0].key, "w1");
    CHECK_INT(s.params[0].type, PARAM_INT);
    CHECK_INT(s.params[0].i, 3);
    CHECK_STR(s.params[0].s, "3");
    CHECK_STR(s.params[1].key, "w2");
    CHECK_INT(s.params[1].type, PARAM_NUMBER);
    CHECK(s.params[1].d == -1.5);
    CHECK_STR(s.params[1].s, "-1.5");
    CHECK_STR(s.params[2].key, "deep");
    CHECK_INT(s.params[2].type, PARAM_BOOL);
    CHECK(s.params[2].b);
    CHECK_STR(s.params[3].key, "mode");
    CHECK_INT(s.params[3].type, PARAM_STRING);
    CHECK_STR(s.params[3].s, "fast");

    static const struct {
        const char *value;
        ParamType type;
        long long i;
        double d;
    } v[] = {
        {"0", PARAM_INT, 0, 0},
        {"-0", PARAM_INT, 0, 0},
        {"+42", PARAM_INT, 42, 0},
        {"007", PARAM_INT, 7, 0},
        {"9223372036854775807", PARAM_INT, LLONG_MAX, 0},
        {"-9223372036854775808", PARAM_INT, LLONG_MIN, 0},
        {"1.", PARAM_NUMBER, 0, 1.0},
        {".25", PARAM_NUMBER, 0, 0.25},
        {"-.5", PARAM_NUMBER, 0, -0.5},
        {"2e3", PARAM_NUMBER, 0, 2000.0},
        {"1.5E-2", PARAM_NUMBER, 0, 0.015},
        {"+1e+2", PARAM_NUMBER, 0, 100.0},
        {"1e-999", PARAM_NUMBER, 0, 0.0}, /* underflow: zero, not an error */
        {"nan", PARAM_STRING, 0, 0},
        {"NaN", PARAM_STRING, 0, 0},
        {"inf", PARAM_STRING, 0, 0},
        {"-inf", PARAM_STRING, 0, 0},
        {"infinity", PARAM_STRING, 0, 0},
        {"0x10", PARAM_STRING, 0, 0},
        {"1e", PARAM_STRING, 0, 0},
        {".", PARAM_STRING, 0, 0},
        {"-", PARAM_STRING, 0, 0},
        {"1.2.3", PARAM_STRING, 0, 0},
        {" 1", PARAM_STRING, 0, 0},
        {"1 ", PARAM_STRING, 0, 0},
        {"True", PARAM_STRING, 0, 0},
        {"a=b", PARAM_STRING, 0, 0},
        {"〇×", PARAM_STRING, 0, 0},
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        char text[128];
        snprintf(text, sizeof text, "ai:x=%s", v[k].value);
        int rc = playerspec_parse(text, &s, err, sizeof err);
        if (rc != MB_OK) t_fail(__FILE__, __LINE__, "%s: %s", text, err);
        if (s.params[0].type != v[k].type)
            t_fail(__FILE__, __LINE__, "%s: type %d, expected %d", text, (int)s.params[0].type,
                   (int)v[k].type);
        if (v[k].type == PARAM_INT) CHECK_INT(s.params[0].i, v[k].i);
        if (v[k].type == PARAM_NUMBER && s.params[0].d != v[k].d)
            t_fail(__FILE__, __LINE__, "%s: %.17g, expected %.17g", text, s.params[0].d, v[k].d);
        CHECK_STR(s.params[0].s, v[k].value);
    }
    CHECK_INT(playerspec_parse("ai:off=false", &s, err, sizeof err), MB_OK);
    CHECK_INT(s.params[0].type, PARAM_BOOL);
    CHECK(!s.params[0].b);

    /* numbers read the same in a locale whose decimal point is a comma */
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
        CHECK_INT(playerspec_parse("ai:w=2.5", &s, err, sizeof err), MB_OK);
        CHECK(s.params[0].d == 2.5);
        setlocale(LC_NUMERIC, "C");
    }

    /* the limits themselves are fine */
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "ai:");
    for (int k = 0; k < PLAYERSPEC_MAX_PARAMS; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%sp%d=%d", k ? "," : "", k, k);
    CHECK_INT(playerspec_parse(text, &s, err, sizeof err), MB_OK);
    CHECK_INT(s.nparams, PLAYERSPEC_MAX_PARAMS);
    CHECK_STR(s.params[31].key, "p31");
    CHECK_INT(s.params[31].i, 31);
    char key[PLAYERSPEC_KEY_MAX], value[PLAYERSPEC_VALUE_MAX];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    memset(value, 'v', sizeof value - 1);
    value[sizeof value - 1] = '\0';
    snprintf(text, sizeof text, "ai:%s=%s", key, value);
    CHECK_INT(playerspec_parse(text, &s, err, sizeof err), MB_OK);
    CHECK_INT((long long)strlen(s.params[0].s), PLAYERSPEC_VALUE_MAX - 1);
}

static void bad_spec(const char *text, int want_rc, const char *want, int lineno)
{
    PlayerSpec s;
    char err[256] = "";
    int rc = playerspec_parse(text, &s, err, sizeof err);
    if (rc != want_rc)
        t_fail(__FILE__, lineno, "status %d, expected %d, for \"%s\" (%s)", rc, want_rc, text, err);
    if (strcmp(err, want) != 0)
        t_fail(__FILE__, lineno, "message\n\"%s\"\nexpected\n\"%s\"", err, want);
    CHECK_INT(s.nparams, 0);
}
#define BAD_SPEC(text, rc, msg) bad_spec(text, rc, msg, __LINE__)

TEST(spec_errors)
{
    BAD_SPEC("", MB_ESYNTAX, "the player's name is empty (expected NAME or NAME:key=value,...)");
    BAD_SPEC(":a=1", MB_ESYNTAX,
             "the player's name is empty (expected NAME or NAME:key=value,...)");
    BAD_SPEC("ai:", MB_ESYNTAX, "nothing after ':' (expected ai:key=value,...)");
    BAD_SPEC("ai:=1", MB_ESYNTAX, "parameter 1 \"=1\": the key before '=' is empty");
    BAD_SPEC(
        "ai:1x=2", MB_ESYNTAX,
        "parameter 1: the key \"1x\" is not an identifier (a letter or _, then letters, digits or _)");
    BAD_SPEC(
        "ai:a-b=2", MB_ESYNTAX,
        "parameter 1: the key \"a-b\" is not an identifier (a letter or _, then letters, digits or _)");
    BAD_SPEC("ai:a", MB_ESYNTAX, "parameter 1 \"a\": expected key=value");
    BAD_SPEC("ai:a=", MB_ESYNTAX, "parameter 1 (a): the value after '=' is empty");
    BAD_SPEC("ai:a=1,b=", MB_ESYNTAX, "parameter 2 (b): the value after '=' is empty");
    BAD_SPEC("ai:a=1,a=2", MB_ESYNTAX,
             "parameter 2: the key \"a\" is given twice (also parameter 1)");
    BAD_SPEC("ai:a=1,,b=2", MB_ESYNTAX, "parameter 2 is empty (two commas, or a comma at the end)");
    BAD_SPEC("ai:a=1,", MB_ESYNTAX, "parameter 2 is empty (two commas, or a comma at the end)");
    BAD_SPEC("ai:,a=1", MB_ESYNTAX, "parameter 1 is empty (two commas, or a comma at the end)");
    BAD_SPEC("ai:n=9223372036854775808", MB_ERANGE,
             "parameter 1 (n): the integer \"9223372036854775808\" does not fit in 64 bits");
    BAD_SPEC("ai:n=-9223372036854775809", MB_ERANGE,
             "parameter 1 (n): the integer \"-9223372036854775809\" does not fit in 64 bits");
    BAD_SPEC("ai:n=99999999999999999999999999", MB_ERANGE,
             "parameter 1 (n): the integer \"99999999999999999999999999\" does not fit in 64 bits");
    BAD_SPEC("ai:d=1e999", MB_ERANGE,
             "parameter 1 (d): the number \"1e999\" is too large for a double");
    BAD_SPEC("ai:d=-2e308", MB_ERANGE,
             "parameter 1 (d): the number \"-2e308\" is too large for a double");

    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "ai:");
    for (int k = 0; k <= PLAYERSPEC_MAX_PARAMS; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%sp%d=%d", k ? "," : "", k, k);
    BAD_SPEC(text, MB_ERANGE, "more than 32 parameters");

    char key[PLAYERSPEC_KEY_MAX + 1], value[PLAYERSPEC_VALUE_MAX + 1], msg[512];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    snprintf(text, sizeof text, "ai:%s=1", key);
    BAD_SPEC(
        text, MB_ERANGE,
        "parameter 1: the key \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...\" is longer than 63 bytes");
    memset(value, 'v', sizeof value - 1);
    value[sizeof value - 1] = '\0';
    snprintf(text, sizeof text, "ai:a=%s", value);
    BAD_SPEC(text, MB_ERANGE, "parameter 1 (a): the value is longer than 255 bytes");
    char name[JOURNAL_NAME_MAX + 1];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    snprintf(msg, sizeof msg, "the player's name \"%.40s...\" is longer than 255 bytes", name);
    BAD_SPEC(name, MB_ERANGE, msg);
}

/* journal_parse_result: the same fields as journal_parse_game but for the
 * moves, which it neither copies nor checks; other errors still count. */
TEST(parse_result)
{
    const char line[] = "G\t7\t2\t3\t99\tai\\tx\tai14s\tB2,A1\tx\terror: boom\n";
    JournalGame full, res;
    char err[256];
    CHECK_INT(journal_parse_game(line, sizeof line - 1, &full, err, sizeof err), MB_OK);
    CHECK_INT(journal_parse_result(line, sizeof line - 1, &res, err, sizeof err), MB_OK);
    CHECK_INT(res.game, 7);
    CHECK_INT(res.pairing, 2);
    CHECK_INT(res.index, 3);
    CHECK_U64(res.seed, 99);
    CHECK_STR(res.player[0], "ai\tx");
    CHECK_STR(res.player[1], "ai14s");
    CHECK_STR(res.moves, "");
    CHECK_STR(res.result, "x");
    CHECK_STR(res.reason, "error: boom");
    const char bad_moves[] = "G\t7\t2\t3\t99\ta\tb\tZZ,,\tx\t\n";
    CHECK_INT(journal_parse_result(bad_moves, sizeof bad_moves - 1, &res, err, sizeof err), MB_OK);
    CHECK(journal_parse_game(bad_moves, sizeof bad_moves - 1, &full, err, sizeof err) != MB_OK);
    const char bad_result[] = "G\t7\t2\t3\t99\ta\tb\tB2\twin\t\n";
    CHECK_INT(journal_parse_result(bad_result, sizeof bad_result - 1, &res, err, sizeof err),
              MB_ESYNTAX);
}

const TestCase journal_tests[] = {
    {"parse_result", parse_result},
    {"format_known_game", format_known_game},
    {"round_trips", round_trips},
    {"line_ends", line_ends},
    {"game_errors", game_errors},
    {"game_accepts", game_accepts},
    {"split", split},
    {"escape", escape},
    {"spec_plain", spec_plain},
    {"spec_params", spec_params},
    {"spec_errors", spec_errors},
    {0},
};
