/* cli.c: option parsing and error reporting shared by the subcommands. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mberror.h"
#include "notation.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "marubatsu %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The edit distance of a and b (adding, dropping or changing a letter, or
 * swapping two neighbours, each 1), counted up to 3: 3 means 3 or more. */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40 || (la > lb ? la - lb : lb - la) >= 3) return 3;
    int d[41][41];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb] < 3 ? d[la][lb] : 3;
}

const char *cli_suggest(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL, *prefixed = NULL;
    int best_d = 3, nprefixed = 0;
    size_t len = strlen(word);
    for (size_t i = 0; i < n; i++) {
        if (len > 0 && strncmp(names[i], word, len) == 0 && names[i][len]) {
            if (!prefixed || strcmp(prefixed, names[i]) != 0) nprefixed++;
            prefixed = names[i];
        }
        int d = edit_distance(word, names[i]);
        if (d < best_d && 2 * (size_t)d < len) best = names[i], best_d = d;
    }
    if (best) return best;
    return nprefixed == 1 && len >= 2 ? prefixed : NULL;
}

CliArgs cli_args(int argc, char **argv)
{
    return (CliArgs){.cmd = argv[0], .argc = argc, .argv = argv, .i = 1};
}

int cli_next(CliArgs *a, const CliOption *opts, const char **arg)
{
    if (a->i >= a->argc) return CLI_END;
    const char *word = a->argv[a->i++];
    if (a->dashes || word[0] != '-' || word[1] == '\0' ||
        (word[1] != '-' && (word[1] < 'a' || word[1] > 'z'))) {
        *arg = word;
        return CLI_POSITIONAL;
    }
    if (strcmp(word, "--") == 0) {
        a->dashes = true;
        return cli_next(a, opts, arg);
    }
    const char *name = word + (word[1] == '-' ? 2 : 1);
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    snprintf(a->typed, sizeof a->typed, "%.*s", (int)(name - word + len), word);
    for (const CliOption *o = opts; o->name; o++) {
        if (strlen(o->name) != len || strncmp(o->name, name, len) != 0) continue;
        if (!o->has_arg) {
            if (!eq) return o->id;
            cli_error(a->cmd, "option --%s takes no value", o->name);
            return CLI_ERROR;
        }
        if (eq) {
            *arg = eq + 1;
        } else if (a->i < a->argc) {
            *arg = a->argv[a->i++];
        } else {
            cli_error(a->cmd, "option --%s needs a value", o->name);
            return CLI_ERROR;
        }
        return o->id;
    }
    const char *names[128];
    size_t n = 0;
    for (const CliOption *o = opts; o->name && n < 128; o++) names[n++] = o->name;
    char bare[64];
    snprintf(bare, sizeof bare, "%.*s", (int)len, name);
    const char *near = cli_suggest(bare, names, n);
    if (near)
        cli_error(a->cmd, "unknown option '%s' (did you mean '--%s'? see marubatsu %s --help)",
                  word, near, a->cmd);
    else
        cli_error(a->cmd, "unknown option '%s' (see marubatsu %s --help)", word, a->cmd);
    return CLI_ERROR;
}

bool cli_int(const char *cmd, const char *what, const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        cli_error(cmd, "%s must be an integer from %d to %d, not '%s'", what, lo, hi, text);
        return false;
    }
    *out = (int)v;
    return true;
}

bool cli_budget(const char *cmd, const char *name, const char *text)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v >= 0) || v > 1e300) {
        cli_error(cmd, "--%s must be a number >= 0, not '%s'", name, text);
        return false;
    }
    return true;
}

bool cli_seed64(const char *cmd, const char *what, const char *text)
{
    const char *p = text + (*text == '-' || *text == '+');
    bool digits = *p != '\0';
    for (; *p; p++) digits = digits && *p >= '0' && *p <= '9';
    errno = 0;
    if (digits) (void)strtoll(text, NULL, 10);
    if (!digits || errno == ERANGE) {
        cli_error(
            cmd, "%s must be an integer from -9223372036854775808 to 9223372036854775807, not '%s'",
            what, text);
        return false;
    }
    return true;
}

bool cli_progress(const char *cmd, const char *arg, CliPairs *p)
{
    static const char *const modes[] = {"bar", "lines", "none"};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(arg, modes[i]) == 0) {
            cli_put(p, "progress", modes[i]);
            return true;
        }
    }
    const char *near = cli_suggest(arg, modes, sizeof modes / sizeof modes[0]);
    if (near)
        cli_error(cmd, "--progress must be bar, lines or none, not '%s' (did you mean '%s'?)", arg,
                  near);
    else
        cli_error(cmd, "--progress must be bar, lines or none, not '%s'", arg);
    return false;
}

bool cli_board_option(const char *cmd, int id, const char *arg, GameOptions *opt)
{
    switch (id) {
    case OPT_WIDTH: return cli_int(cmd, "--width", arg, 1, MB_MAX_SIDE, &opt->width);
    case OPT_HEIGHT: return cli_int(cmd, "--height", arg, 1, MB_MAX_SIDE, &opt->height);
    case OPT_K: return cli_int(cmd, "--k", arg, 1, MB_MAX_SIDE, &opt->k);
    case OPT_COUNT_LINEMARK: opt->count_linemark = true; return true;
    case OPT_RULE: {
        char err[160];
        if (geometry_rule_parse(arg, &opt->exact, err, sizeof err) == MB_OK) return true;
        cli_error(cmd, "%s", err);
        return false;
    }
    case OPT_BOARD:
        if (board_kind_parse(arg, &opt->board) == MB_OK) return true;
        cli_error(cmd, "unknown board back-end '%s' (" BOARD_NAMES ")", arg);
        return false;
    default: return false;
    }
}

bool cli_put_board(const char *cmd, const GameOptions *opt, bool board_set, CliBoardText *buf,
                   CliPairs *p)
{
    int k = opt->k ? opt->k : (opt->width < opt->height ? opt->width : opt->height);
    char err[160];
    if (geometry_check(opt->width, opt->height, k, err, sizeof err) != MB_OK) {
        cli_error(cmd, "%s", err);
        return false;
    }
    snprintf(buf->width, sizeof buf->width, "%d", opt->width);
    snprintf(buf->height, sizeof buf->height, "%d", opt->height);
    snprintf(buf->k, sizeof buf->k, "%d", k);
    cli_put(p, "width", buf->width);
    cli_put(p, "height", buf->height);
    cli_put(p, "k", buf->k);
    if (opt->exact) cli_put(p, "rule", "exact");
    if (board_set) cli_put(p, "board", board_kind_name(opt->board));
    if (opt->count_linemark) cli_put(p, "count_linemark", "1");
    return true;
}

bool cli_make_game(const char *cmd, const GameOptions *opt, Game *g)
{
    char err[160];
    int rc = game_init(g, opt, err, sizeof err);
    if (rc == MB_OK) return true;
    cli_error(cmd, "%s", rc == MB_ESIZE ? err : mb_strerror(rc));
    return false;
}

bool cli_play_moves(const char *cmd, Game *g, const char *list, const char *what)
{
    const Geometry *geo = game_geom(g);
    int moves[MB_MAX_CELLS], n, bad;
    int rc = notation_parse_moves(geo, list, moves, geo->ncells, &n, &bad);
    if (rc == MB_ESYNTAX) {
        cli_error(cmd, "move %d of %s \"%s\" is not a square like A1", bad + 1, what, list);
        return false;
    }
    if (rc == MB_ERANGE) {
        cli_error(cmd, "move %d of %s \"%s\" is off the %dx%d board", bad + 1, what, list,
                  geo->width, geo->height);
        return false;
    }
    if (rc) {
        cli_error(cmd, "more moves than squares in %s \"%s\"", what, list);
        return false;
    }
    for (int i = 0; i < n; i++) {
        rc = game_play(g, moves[i]);
        if (rc) {
            char sq[16];
            int x, y;
            geometry_move_to_xy(geo, moves[i], &x, &y);
            notation_excel_format(x, y, sq);
            cli_error(cmd, "move %d (%s) of %s \"%s\" is illegal: %s", i + 1, sq, what, list,
                      rc == MB_EOVER ? "the game is already over" : "the square is occupied");
            return false;
        }
    }
    return true;
}

/* The slot of key in p: its own, or the next free one (-1: full, which
 * our option sets never are). */
static int pair_slot(CliPairs *p, const char *key)
{
    int i = 0;
    while (i < p->n && strcmp(p->keys[i], key) != 0) i++;
    if (i == (int)(sizeof p->keys / sizeof p->keys[0])) return -1;
    if (i == p->n) p->n++;
    p->keys[i] = key;
    return i;
}

void cli_put(CliPairs *p, const char *key, const char *value)
{
    int i = pair_slot(p, key);
    if (i >= 0) p->values[i] = value;
}

void cli_put_int(CliPairs *p, const char *key, long v)
{
    int i = pair_slot(p, key);
    if (i < 0) return;
    snprintf(p->text[i], sizeof p->text[i], "%ld", v);
    p->values[i] = p->text[i];
}

/* Is word one of choices ("a|b|c")? */
static bool one_of(const char *word, const char *choices)
{
    size_t n = strlen(word);
    for (const char *c = choices; *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, word, n) == 0) return true;
        if (!bar) break;
        c = bar + 1;
    }
    return false;
}

/* "a, b or c" from "a|b|c", into buf. */
static void choices_text(const char *choices, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *c = choices; *c && used + 1 < cap;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        const char *sep = used == 0 ? "" : bar ? ", " : " or ";
        used += (size_t)snprintf(buf + used, cap - used, "%s%.*s", sep, (int)len, c);
        if (!bar) break;
        c = bar + 1;
    }
}

int cli_take(const CliArgs *a, const CliOption *opts, int id, const char *arg, CliPairs *p)
{
    const CliOption *o = opts;
    while (o->name && o->id != id) o++;
    if (!o->name || !o->key) return 0;
    const char *cmd = a->cmd, *what = a->typed;
    int n;
    switch (o->kind) {
    case CLI_TEXT: cli_put(p, o->key, arg); return 1;
    case CLI_FLAG: cli_put(p, o->key, o->value ? o->value : "1"); return 1;
    case CLI_INT:
    case CLI_EVEN:
        if (!cli_int(cmd, what, arg, o->lo, o->hi, &n)) return -1;
        if (o->kind == CLI_EVEN && n % 2) {
            cli_error(cmd, "%s must be even (games come in pairs), not %d", what, n);
            return -1;
        }
        cli_put_int(p, o->key, n);
        return 1;
    case CLI_SEED:
        if (!cli_seed64(cmd, what, arg)) return -1;
        cli_put(p, o->key, arg);
        return 1;
    case CLI_BIGINT: {
        const char *q = arg + (*arg == '-' || *arg == '+');
        bool digits = *q != '\0';
        for (; *q; q++) digits = digits && *q >= '0' && *q <= '9';
        if (!digits) {
            cli_error(cmd, "%s must be an integer (any size), not '%s'", what, arg);
            return -1;
        }
        cli_put(p, o->key, arg);
        return 1;
    }
    case CLI_WORD:
        if (!*arg) {
            cli_error(cmd, "%s needs a value (see --help)", what);
            return -1;
        }
        cli_put(p, o->key, arg);
        return 1;
    case CLI_SECONDS:
        if (!cli_budget(cmd, o->name, arg)) return -1;
        cli_put(p, o->key, arg);
        return 1;
    case CLI_CHOICE:
        if (!one_of(arg, o->value)) {
            char list[160];
            choices_text(o->value, list, sizeof list);
            cli_error(cmd, "%s must be %s, not '%s'", what, list, arg);
            return -1;
        }
        cli_put(p, o->key, arg);
        return 1;
    }
    return 0;
}
