/* cli.h: what the subcommands of the program share: long-option parsing,
 * the board options (--width --height --k --rule --board --count-linemark), number
 * parsing, and error reporting with the usage exit status 2.
 * Uses game.h. */
#ifndef MB_CLI_H
#define MB_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "lua/host.h"

#define EXIT_USAGE 2

/* How cli_take checks an option's value before it puts it under the
 * option's key (CliOption.key). */
typedef enum CliKind {
    CLI_TEXT = 0, /* as given */
    CLI_FLAG,     /* no value: puts `value` ("1" when NULL) */
    CLI_INT,      /* an integer in [lo, hi], put as its decimal text */
    CLI_EVEN,     /* the same, and even (games come in pairs) */
    CLI_SEED,     /* a 64-bit seed (cli_seed64) */
    CLI_BIGINT,   /* an integer of any size (CPython's random.seed) */
    CLI_WORD,     /* text that is not empty */
    CLI_SECONDS,  /* a number >= 0 (cli_budget) */
    CLI_CHOICE    /* one of `value`'s words, separated by '|' */
} CliKind;

typedef struct CliOption {
    const char *name; /* without the leading "--" */
    bool has_arg;
    int id;
    /* With a key, cli_take checks the value by kind and puts it there: the
     * option needs no code of its command's own. */
    const char *key;
    CliKind kind;
    int lo, hi;        /* CLI_INT, CLI_EVEN */
    const char *value; /* CLI_FLAG: what is put; CLI_CHOICE: "a|b|c" */
} CliOption;

enum { CLI_END = -1, CLI_POSITIONAL = -2, CLI_ERROR = -3 };

/* The arguments of one subcommand being read (argv[0] is its name). */
typedef struct CliArgs {
    const char *cmd;
    int argc;
    char **argv;
    int i;          /* next word */
    bool dashes;    /* "--" seen: the rest are words */
    char typed[72]; /* the last option as typed, without its value: -n, --games */
} CliArgs;

/* Start reading a subcommand's arguments. */
CliArgs cli_args(int argc, char **argv);
/* The next option: its id with *arg set when it takes one (--name=V or
 * --name V), CLI_POSITIONAL with *arg the word, CLI_END, or CLI_ERROR after
 * printing the problem. "-" and negative numbers are words. */
int cli_next(CliArgs *a, const CliOption *opts, const char **arg);

/* The name among names[0..n-1] that word most likely misspells (at most
 * two letters added, dropped, changed or swapped, and fewer than half of
 * its letters; or the one name word begins), else NULL. */
const char *cli_suggest(const char *word, const char *const *names, size_t n);

/* Options handed to a Lua function as string pairs (host_call_table). */
typedef struct CliPairs {
    const char *keys[48];
    const char *values[48];
    char text[48][24]; /* the values cli_put_int formats */
    int n;
} CliPairs;
/* Set key to value; a repeated option replaces the earlier one. */
void cli_put(CliPairs *p, const char *key, const char *value);
/* Set key to the decimal text of v (kept in p). */
void cli_put_int(CliPairs *p, const char *key, long v);
/* The option id of opts (just read by cli_next from a), checked and put
 * into p when it has a key (its kind above; a message names it as it was
 * typed): 1 when it was put, 0 when it has no key (the command handles
 * it), -1 after printing the problem. */
int cli_take(const CliArgs *a, const CliOption *opts, int id, const char *arg, CliPairs *p);

/* Board option ids, shared by every command that makes a game. */
enum { OPT_WIDTH = 1000, OPT_HEIGHT, OPT_K, OPT_RULE, OPT_BOARD, OPT_COUNT_LINEMARK, OPT_HELP };
#define CLI_BOARD_OPTIONS                                                                          \
    {.name = "width", .has_arg = true, .id = OPT_WIDTH},                                           \
        {.name = "height", .has_arg = true, .id = OPT_HEIGHT},                                     \
        {.name = "k", .has_arg = true, .id = OPT_K},                                               \
        {.name = "rule", .has_arg = true, .id = OPT_RULE},                                         \
        {.name = "board", .has_arg = true, .id = OPT_BOARD},                                       \
        {.name = "count-linemark", .has_arg = false, .id = OPT_COUNT_LINEMARK},                    \
    {                                                                                              \
        .name = "help", .has_arg = false, .id = OPT_HELP                                           \
    }
#define CLI_BOARD_HELP                                                                             \
    "  --width W, --height H   board size (default 3x3; each side 1..32)\n"                        \
    "  --k K                   marks in a row to win (default min(W, H))\n"                        \
    "  --rule RULE             freestyle (k or more in a row wins; the default) or\n"              \
    "                          exact (exactly k: an overline does not win)\n"                      \
    "  --board NAME            back-end: " BOARD_NAMES " (default bitboard)\n"                     \
    "  --count-linemark        keep per-line counters (the series' count_linemark)\n"              \
    "  --help                  show this help\n"

/* Player option rows, shared by match, tournament and tune: the per-move
 * budgets of sandboxed scripts (time, instructions, memory: seconds or
 * counts >= 0), the time control (move_time, game_time: checked by
 * scripts/lib/timecontrol.lua) and --no-sandbox (sandbox = "0"). */
enum {
    OPT_PLAYER_TIME = 1100,
    OPT_PLAYER_INSTR,
    OPT_PLAYER_MEMORY,
    OPT_PLAYER_MOVE_TIME,
    OPT_PLAYER_GAME_TIME,
    OPT_PLAYER_NO_SANDBOX
};
#define CLI_PLAYER_OPTIONS                                                                         \
    {"time", true, OPT_PLAYER_TIME, "time", CLI_SECONDS, 0, 0, NULL},                              \
        {"instructions", true, OPT_PLAYER_INSTR, "instructions", CLI_SECONDS, 0, 0, NULL},         \
        {"memory", true, OPT_PLAYER_MEMORY, "memory", CLI_SECONDS, 0, 0, NULL},                    \
        {"move-time", true, OPT_PLAYER_MOVE_TIME, "move_time", CLI_TEXT, 0, 0, NULL},              \
        {"game-time", true, OPT_PLAYER_GAME_TIME, "game_time", CLI_TEXT, 0, 0, NULL},              \
    {                                                                                              \
        "no-sandbox", false, OPT_PLAYER_NO_SANDBOX, "sandbox", CLI_FLAG, 0, 0, "0"                 \
    }
/* The help lines of the per-move budgets of sandboxed scripts (the
 * defaults of scripts/lib/sandbox.lua's mb.sandbox.defaults). */
#define CLI_BUDGET_HELP                                                                            \
    "  --time S, --memory BYTES\n"                                                                 \
    "                          per-move budgets of sandboxed scripts (defaults:\n"                 \
    "                          1 s, 64 MiB; 0 turns one off); under a time control\n"              \
    "                          the move's limit replaces the default --time, and\n"                \
    "                          a --time given can only shorten it\n"                               \
    "  --instructions N        also stop a sandboxed script's move after N Lua\n"                  \
    "                          instructions: the same forfeits on every machine,\n"                \
    "                          but its Lua code runs slower (default: off)\n"
/* The help line of --slack (tournament, match, play): the hard line under the
 * budgets (include/watchdog.h; WATCH_SLACK_DEFAULT). */
#define CLI_SLACK_HELP                                                                             \
    "  --slack S               the hard line: a sandboxed move still running S\n"                  \
    "                          seconds past its time budget is ended from outside\n"               \
    "                          (the process playing it is killed) and lost on\n"                   \
    "                          time (default 0.5)\n"

/* Apply one board option; false after printing an error. */
bool cli_board_option(const char *cmd, int id, const char *arg, GameOptions *opt);
/* The board options' numbers as text, kept alive for host_call_table. */
typedef struct CliBoardText {
    char width[16], height[16], k[16];
} CliBoardText;
/* Check the board's shape (k from the shorter side when not given) and put
 * width, height, k, rule (when exact), board (when board_set) and
 * count_linemark into p, the numbers' text in buf; false after printing
 * the error. */
bool cli_put_board(const char *cmd, const GameOptions *opt, bool board_set, CliBoardText *buf,
                   CliPairs *p);
/* Create the game, printing the error on failure. */
bool cli_make_game(const char *cmd, const GameOptions *opt, Game *g);
/* Play a comma-separated list of Excel moves on g (named `what` in
 * messages: "MOVES", "--moves"); false after printing which move is bad or
 * illegal and why. */
bool cli_play_moves(const char *cmd, Game *g, const char *list, const char *what);
/* Parse a decimal int in [lo, hi] for option `what`; false after an error. */
bool cli_int(const char *cmd, const char *what, const char *text, int lo, int hi, int *out);
/* A per-move budget of sandboxed scripts (--time, --instructions,
 * --memory: `name` without the dashes): a number >= 0; false after an
 * error. */
bool cli_budget(const char *cmd, const char *name, const char *text);
/* A 64-bit seed for option `what`: an integer from -2^63 to 2^63-1;
 * false after an error. */
bool cli_seed64(const char *cmd, const char *what, const char *text);
/* The help lines of --progress (match, tournament: scripts/lib/progress.lua). */
#define CLI_PROGRESS_HELP                                                                          \
    "  --progress MODE         the progress on stderr: bar (one line rewritten in\n"               \
    "                          place, as wide as the terminal, with the time\n"                    \
    "                          left), lines (a line every few seconds and at the\n"                \
    "                          end, for a log) or none; default bar when stderr\n"                 \
    "                          is a terminal, lines otherwise\n"                                   \
    "  --no-progress           the same as --progress none\n"
/* --progress MODE: bar, lines or none into p as "progress"; false after an
 * error (with the nearest mode). */
bool cli_progress(const char *cmd, const char *arg, CliPairs *p);
/* Print "marubatsu CMD: message" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- Subcommands: each returns the process exit status ---- */

int cmd_show(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_run(int argc, char **argv, Host *h);
int cmd_match(int argc, char **argv, Host *h);
int cmd_play(int argc, char **argv, Host *h);
int cmd_replay(int argc, char **argv, Host *h);
int cmd_tournament(int argc, char **argv, Host *h);
int cmd_merge(int argc, char **argv, Host *h);
int cmd_tune(int argc, char **argv, Host *h);
int cmd_serve(int argc, char **argv, Host *h);
int cmd_brain(int argc, char **argv, Host *h);

#endif
