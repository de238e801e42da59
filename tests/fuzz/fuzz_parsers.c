/* fuzz_parsers.c: a libFuzzer target over every parser of text in the
 * project. Checks that no input crashes, reads out of bounds or meets
 * undefined behaviour (ASan + UBSan), and these properties, aborting when
 * one fails:
 *   - a parsed Excel square, move list, typed coordinate or back-end name
 *     formats back to text that parses to the same value;
 *   - journal_split output re-escaped and re-joined splits to the same
 *     fields; journal_escape returns the full length and writes a prefix;
 *   - a parsed G line formats (journal_format_game) to a line that parses
 *     to the same game (journal_game_equal), and formats again to the same text; a
 *     rejected one leaves the struct zeroed with a message;
 *   - a parsed player spec keeps its limits, its keys are identifiers and
 *     its typed values agree with their text;
 *   - a best-move table read from JSON, written and read again, is equal;
 *   - a Gomocup command, BOARD line or answer (gomocup.h) that parses
 *     formats to a line that parses to the same value; formatted lines
 *     never hold a line break; a refused one comes with a message;
 *   - a saved game record goes through the Lua loader of `marubatsu replay`
 *     (scripts/lib/play.lua) in a Lua state made once: Lua errors are fine.
 *
 * The first byte picks the parser, the rest is its text:
 *   'e' Excel square   'm' move list (2 bytes of board shape first)
 *   'i' typed coordinates "X,Y" (notation_cmove)   'k' back-end name
 *   's' journal_split (1 byte of field limit first)   'g' G line
 *   'p' player spec   't' best-move JSON   'r' saved game record
 *   'c' Gomocup command or BOARD line   'a' Gomocup answer
 * any other byte picks one of these by its value. tests/fuzz/corpus/ holds
 * the seeds, named by parser. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gomocup.h"
#include "l_module.h"
#include "marubatsu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_parsers: %s:%d: property failed: %s\n", __FILE__, __LINE__,      \
                    #cond);                                                                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* A NUL-terminated heap copy (so ASan sees reads past the text). */
static char *cstr(const uint8_t *d, size_t n)
{
    char *s = malloc(n + 1);
    REQUIRE(s);
    if (n) memcpy(s, d, n);
    s[n] = '\0';
    return s;
}

/* ---- notation.h ---- */

static void fuzz_excel(const uint8_t *d, size_t n)
{
    char *s = cstr(d, n);
    int x = -7, y = -7;
    if (notation_excel_parse(s, &x, &y) == MB_OK) {
        REQUIRE(x >= 0 && y >= 0);
        char back[16];
        notation_excel_format(x, y, back);
        int x2, y2;
        REQUIRE(notation_excel_parse(back, &x2, &y2) == MB_OK);
        REQUIRE(x2 == x && y2 == y);
    }
    free(s);
}

static void fuzz_moves(const uint8_t *d, size_t n)
{
    if (n < 2) return;
    GameOptions o = game_default_options();
    o.width = 1 + d[0] % 32;
    o.height = 1 + d[1] % 32;
    o.k = 0;
    Game g;
    REQUIRE(game_init(&g, &o, NULL, 0) == MB_OK);
    char *s = cstr(d + 2, n - 2);
    int cap = 1024, count = -1, bad = -1;
    int *moves = malloc(sizeof *moves * (size_t)cap);
    REQUIRE(moves);
    int rc = notation_parse_moves(game_geom(&g), s, moves, cap, &count, &bad);
    if (rc == MB_OK) {
        int ncells = o.width * o.height;
        for (int i = 0; i < count; i++) REQUIRE(moves[i] >= 0 && moves[i] < ncells);
        size_t len = 16 * (size_t)count + 1;
        char *text = malloc(len);
        REQUIRE(text);
        REQUIRE(notation_format_moves(game_geom(&g), moves, count, text, len) >= 0);
        int *again = malloc(sizeof *again * (size_t)cap);
        REQUIRE(again);
        int count2 = -1;
        REQUIRE(notation_parse_moves(game_geom(&g), text, again, cap, &count2, &bad) == MB_OK);
        REQUIRE(count2 == count);
        REQUIRE(count == 0 || memcmp(again, moves, sizeof *moves * (size_t)count) == 0);
        /* play them while they are legal */
        for (int i = 0; i < count && game_play(&g, moves[i]) == MB_OK; i++) continue;
        REQUIRE(game_ok(&g));
        free(again);
        free(text);
    } else {
        REQUIRE(rc == MB_ESYNTAX || rc == MB_ERANGE || rc == MB_EINVAL);
        REQUIRE(bad >= 0 && bad <= count);
    }
    free(moves);
    free(s);
    game_free(&g);
}

static Game coord_game;
static bool coord_game_ready;

static void fuzz_coordinates(const uint8_t *d, size_t n)
{
    char *s = cstr(d, n);
    char *comma = strchr(s, ',');
    const char *xs = s, *ys = "1";
    if (comma) {
        *comma = '\0';
        ys = comma + 1;
    }
    IntText t;
    if (notation_parse_int(xs, &t) == MB_OK && llabs(t.value) < 1000000000000000000LL) {
        IntText t2;
        REQUIRE(notation_parse_int(t.digits, &t2) == MB_OK);
        REQUIRE(t2.value == t.value);
        REQUIRE(strcmp(t2.digits, t.digits) == 0);
    }
    if (!coord_game_ready) {
        REQUIRE(game_init(&coord_game, NULL, NULL, 0) == MB_OK);
        coord_game_ready = true;
    }
    game_restart(&coord_game);
    for (int lang = LANG_JA; lang <= LANG_EN; lang++) {
        char msg[512] = "";
        int rc = notation_cmove(&coord_game, xs, ys, (Lang)lang, msg, sizeof msg);
        if (rc == MB_OK) {
            REQUIRE(coord_game.move_count == 1);
            game_restart(&coord_game);
        } else {
            REQUIRE(msg[0] != '\0');
            REQUIRE(coord_game.move_count == 0);
        }
    }
    free(s);
}

static void fuzz_board_kind(const uint8_t *d, size_t n)
{
    char *s = cstr(d, n);
    BoardKind kind;
    if (board_kind_parse(s, &kind) == MB_OK) {
        BoardKind again;
        REQUIRE(board_kind_parse(board_kind_name(kind), &again) == MB_OK);
        REQUIRE(again == kind);
    }
    free(s);
}

/* ---- journal.h ---- */

static void fuzz_split(const uint8_t *d, size_t n)
{
    if (n < 1) return;
    int max = 1 + d[0] % JOURNAL_MAX_FIELDS;
    const char *line = (const char *)d + 1;
    size_t len = n - 1;
    char **fields = malloc(sizeof *fields * (size_t)max);
    char *buf = malloc(len + 1); /* the documented "always enough" */
    REQUIRE(fields && buf);
    char err[256] = "";
    int nf = journal_split(line, len, fields, max, buf, len + 1, err, sizeof err);
    if (nf < 0) {
        REQUIRE(nf == -1 && err[0] != '\0');
    } else {
        REQUIRE(nf >= 1 && nf <= max);
        /* re-escape and re-join: the same fields */
        size_t need = 1;
        for (int i = 0; i < nf; i++) {
            REQUIRE(fields[i] >= buf && fields[i] < buf + len + 1);
            need += journal_escape(fields[i], NULL, 0) + 1;
        }
        char *joined = malloc(need);
        REQUIRE(joined);
        size_t used = 0;
        for (int i = 0; i < nf; i++) {
            if (i) joined[used++] = '\t';
            size_t w = journal_escape(fields[i], joined + used, need - used);
            REQUIRE(w == strlen(joined + used));
            used += w;
            /* a cut escape is a prefix of the full one */
            size_t cutsize = (w + (size_t)i) % (w + 1) + 1;
            char *cut = malloc(cutsize);
            REQUIRE(cut);
            REQUIRE(journal_escape(fields[i], cut, cutsize) == w);
            REQUIRE(strlen(cut) < cutsize && strncmp(cut, joined + used - w, strlen(cut)) == 0);
            free(cut);
        }
        char **fields2 = malloc(sizeof *fields2 * (size_t)max);
        char *buf2 = malloc(used + 1);
        REQUIRE(fields2 && buf2);
        REQUIRE(journal_split(joined, used, fields2, max, buf2, used + 1, err, sizeof err) == nf);
        for (int i = 0; i < nf; i++) REQUIRE(strcmp(fields[i], fields2[i]) == 0);
        free(fields2);
        free(buf2);
        free(joined);
    }
    free(fields);
    free(buf);
}

static void fuzz_game_line(const uint8_t *d, size_t n)
{
    static JournalGame g, again, zero;
    static char line[JOURNAL_LINE_MAX], line2[JOURNAL_LINE_MAX];
    char err[256] = "";
    char *copy = malloc(n ? n : 1); /* exact size, for ASan */
    REQUIRE(copy);
    if (n) memcpy(copy, d, n);
    int rc = journal_parse_game(copy, n, &g, err, sizeof err);
    if (rc != MB_OK) {
        REQUIRE(rc == MB_ESYNTAX || rc == MB_ERANGE);
        REQUIRE(err[0] != '\0');
        REQUIRE(memcmp(&g, &zero, sizeof g) == 0);
    } else {
        int len = journal_format_game(&g, line, sizeof line);
        REQUIRE(len > 0 && (size_t)len == strlen(line) && line[len - 1] == '\n');
        REQUIRE(journal_parse_game(line, (size_t)len, &again, err, sizeof err) == MB_OK);
        REQUIRE(journal_game_equal(&g, &again));
        int len2 = journal_format_game(&again, line2, sizeof line2);
        REQUIRE(len2 == len && memcmp(line, line2, (size_t)len) == 0);
        /* one byte short does not fit */
        REQUIRE(journal_format_game(&g, line2, (size_t)len) == -1);
    }
    free(copy);
}

static bool is_identifier(const char *s)
{
    if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))) return false;
    for (s++; *s; s++)
        if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

static void fuzz_spec(const uint8_t *d, size_t n)
{
    static PlayerSpec s, zero;
    char *text = cstr(d, n);
    char err[256] = "";
    int rc = playerspec_parse(text, &s, err, sizeof err);
    if (rc != MB_OK) {
        REQUIRE(rc == MB_ESYNTAX || rc == MB_ERANGE);
        REQUIRE(err[0] != '\0');
        REQUIRE(memcmp(&s, &zero, sizeof s) == 0);
    } else {
        size_t nlen = strlen(s.name);
        REQUIRE(nlen > 0 && nlen < JOURNAL_NAME_MAX && strncmp(s.name, text, nlen) == 0);
        REQUIRE(s.nparams >= 0 && s.nparams <= PLAYERSPEC_MAX_PARAMS);
        REQUIRE((s.nparams > 0) == (text[nlen] == ':'));
        for (int i = 0; i < s.nparams; i++) {
            const PlayerParam *p = &s.params[i];
            REQUIRE(is_identifier(p->key) && strlen(p->key) < PLAYERSPEC_KEY_MAX);
            REQUIRE(p->s[0] != '\0' && strlen(p->s) < PLAYERSPEC_VALUE_MAX && !strchr(p->s, ','));
            for (int j = 0; j < i; j++) REQUIRE(strcmp(s.params[j].key, p->key) != 0);
            switch (p->type) {
            case PARAM_INT: REQUIRE(strtoll(p->s, NULL, 10) == p->i); break;
            case PARAM_NUMBER: REQUIRE(isfinite(p->d)); break;
            case PARAM_BOOL: REQUIRE(strcmp(p->s, p->b ? "true" : "false") == 0); break;
            case PARAM_STRING:
                REQUIRE(strcmp(p->s, "true") != 0 && strcmp(p->s, "false") != 0);
                break;
            default: REQUIRE(!"a parameter type");
            }
        }
    }
    free(text);
}

/* ---- tree.h ---- */

static TreeTable table, table2;
static bool tables_ready;

static void fuzz_tree_json(const uint8_t *d, size_t n)
{
    if (!tables_ready) {
        REQUIRE(tree_table_init(&table) == MB_OK && tree_table_init(&table2) == MB_OK);
        tables_ready = true;
    }
    char *copy = malloc(n ? n : 1);
    REQUIRE(copy);
    if (n) memcpy(copy, d, n);
    char err[256] = "";
    int rc = tree_parse_json(&table, copy, n, err, sizeof err);
    if (getenv("MB_FUZZ_VERBOSE")) fprintf(stderr, "tree_parse_json: %d %s\n", rc, err);
    if (rc == MB_OK) {
        char *out = NULL;
        size_t outlen = 0;
        FILE *f = open_memstream(&out, &outlen);
        REQUIRE(f);
        REQUIRE(tree_save_json(&table, table.has_score, f) == MB_OK);
        REQUIRE(fclose(f) == 0);
        REQUIRE(tree_parse_json(&table2, out, outlen, err, sizeof err) == MB_OK);
        char diff[256] = "";
        if (!tree_table_equal(&table, &table2, diff, sizeof diff)) {
            fprintf(stderr, "fuzz_parsers: JSON table changed: %s\n", diff);
            abort();
        }
        free(out);
    } else {
        REQUIRE(rc == MB_ESYNTAX && err[0] != '\0');
    }
    free(copy);
}

/* ---- gomocup.h ---- */

static void fuzz_gomocup_command(const uint8_t *d, size_t n)
{
    char err[160] = "", buf[GOMOCUP_LINE_MAX + 64];
    GomocupCommand c, c2;
    int rc = gomocup_parse_command((const char *)d, n, &c, err, sizeof err);
    if (rc == MB_OK) {
        int len = gomocup_format_command(&c, buf, sizeof buf);
        REQUIRE(len >= 0 || c.kind == GC_EMPTY);
        if (len >= 0) {
            REQUIRE((size_t)len < sizeof buf && !strpbrk(buf, "\r\n"));
            REQUIRE(gomocup_parse_command(buf, (size_t)len, &c2, err, sizeof err) == MB_OK);
            REQUIRE(memcmp(&c, &c2, sizeof c) == 0);
        }
    } else {
        REQUIRE((rc == MB_ESYNTAX || rc == MB_ERANGE) && err[0] != '\0');
    }
    GomocupStone st;
    bool done;
    err[0] = '\0';
    rc = gomocup_parse_stone((const char *)d, n, &st, &done, err, sizeof err);
    if (rc == MB_OK && !done) REQUIRE(st.x >= 0 && st.y >= 0 && st.field >= 1 && st.field <= 3);
    if (rc != MB_OK) REQUIRE(err[0] != '\0');
}

static void fuzz_gomocup_answer(const uint8_t *d, size_t n)
{
    char err[160] = "", buf[GOMOCUP_TEXT_MAX + 64];
    GomocupAnswer a, a2;
    int rc = gomocup_parse_answer((const char *)d, n, &a, err, sizeof err);
    if (rc == MB_OK) {
        int len = gomocup_format_answer(&a, buf, sizeof buf);
        REQUIRE(len >= 0 || a.kind == GA_EMPTY);
        if (len >= 0) {
            REQUIRE((size_t)len < sizeof buf && !strpbrk(buf, "\r\n"));
            REQUIRE(gomocup_parse_answer(buf, (size_t)len, &a2, err, sizeof err) == MB_OK);
            /* tabs inside a text read back as they were; blanks at the
               ends are trimmed on both sides: the values agree */
            REQUIRE(a2.kind == a.kind && a2.x == a.x && a2.y == a.y &&
                    strcmp(a2.text, a.text) == 0);
        }
    } else {
        REQUIRE((rc == MB_ESYNTAX || rc == MB_ERANGE) && err[0] != '\0');
    }
}

/* ---- saved games, through the Lua loader ---- */

static lua_State *L;
static int record_fd = -1;
static char record_path[64];

static void lua_setup(void)
{
    L = luaL_newstate();
    REQUIRE(L);
    luaL_openlibs(L);
    luaL_requiref(L, "marubatsu", luaopen_marubatsu, 0);
    lua_setglobal(L, "mb");
    /* the replay prints boards and errors: send them nowhere, unless
     * MB_FUZZ_VERBOSE is set (to look at what one input does) */
    if (!getenv("MB_FUZZ_VERBOSE") &&
        luaL_dostring(L, "io.output('/dev/null') io.stderr = assert(io.open('/dev/null', 'w'))") !=
            LUA_OK) {
        fprintf(stderr, "fuzz_parsers: %s\n", lua_tostring(L, -1));
        abort();
    }
    /* one unlinked file, reached through /proc: nothing is left behind */
    char tmpl[] = "/tmp/fuzz_parsers.XXXXXX";
    record_fd = mkstemp(tmpl);
    REQUIRE(record_fd >= 0);
    unlink(tmpl);
    snprintf(record_path, sizeof record_path, "/proc/self/fd/%d", record_fd);
}

static void fuzz_record(const uint8_t *d, size_t n)
{
    if (!L) lua_setup();
    REQUIRE(ftruncate(record_fd, 0) == 0);
    REQUIRE(n == 0 || pwrite(record_fd, d, n, 0) == (ssize_t)n);
    int top = lua_gettop(L);
    lua_getglobal(L, "mb");
    lua_getfield(L, -1, "replay_terminal");
    REQUIRE(lua_isfunction(L, -1));
    lua_createtable(L, 0, 3);
    lua_pushstring(L, record_path);
    lua_setfield(L, -2, "file");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "all");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "ascii");
    if (lua_pcall(L, 1, 1, 0) == LUA_OK) {
        /* 0: the record loaded and replayed, 1: it was refused */
        REQUIRE(lua_isinteger(L, -1));
        lua_Integer status = lua_tointeger(L, -1);
        REQUIRE(status == 0 || status == 1);
        if (getenv("MB_FUZZ_VERBOSE")) fprintf(stderr, "replay status %d\n", (int)status);
    } else if (getenv("MB_FUZZ_VERBOSE")) {
        fprintf(stderr, "replay: Lua error: %s\n", lua_tostring(L, -1));
    }
    lua_settop(L, top);
    /* free what the call allocated now: libFuzzer runs a leak scan after
     * every input that leaves more allocations than it found */
    lua_gc(L, LUA_GCCOLLECT);
}

typedef void (*Target)(const uint8_t *, size_t);
static const struct {
    char tag;
    Target fn;
} targets[] = {
    {'e', fuzz_excel},          {'m', fuzz_moves},
    {'i', fuzz_coordinates},    {'k', fuzz_board_kind},
    {'s', fuzz_split},          {'g', fuzz_game_line},
    {'p', fuzz_spec},           {'t', fuzz_tree_json},
    {'r', fuzz_record},         {'c', fuzz_gomocup_command},
    {'a', fuzz_gomocup_answer},
};
enum { NTARGETS = sizeof targets / sizeof targets[0] };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    size_t pick = data[0] % NTARGETS;
    for (size_t i = 0; i < NTARGETS; i++)
        if (targets[i].tag == (char)data[0]) pick = i;
    targets[pick].fn(data + 1, size - 1);
    return 0;
}
