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

typedef struct CliOption {
    const char *name; /* without the leading "--" */
    bool has_arg;
    int id;
} CliOption;

enum { CLI_END = -1, CLI_POSITIONAL = -2, CLI_ERROR = -3 };

/* The arguments of one subcommand being read (argv[0] is its name). */
typedef struct CliArgs {
    const char *cmd;
    int argc;
    char **argv;
    int i;       /* next word */
    bool dashes; /* "--" seen: the rest are words */
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
    int n;
} CliPairs;
/* Set key to value; a repeated option replaces the earlier one. */
void cli_put(CliPairs *p, const char *key, const char *value);

/* Board option ids, shared by every command that makes a game. */
enum { OPT_WIDTH = 1000, OPT_HEIGHT, OPT_K, OPT_RULE, OPT_BOARD, OPT_COUNT_LINEMARK, OPT_HELP };
#define CLI_BOARD_OPTIONS                                                                          \
    {"width", true, OPT_WIDTH}, {"height", true, OPT_HEIGHT}, {"k", true, OPT_K},                  \
        {"rule", true, OPT_RULE}, {"board", true, OPT_BOARD},                                      \
        {"count-linemark", false, OPT_COUNT_LINEMARK},                                             \
    {                                                                                              \
        "help", false, OPT_HELP                                                                    \
    }
#define CLI_BOARD_HELP                                                                             \
    "  --width W, --height H   board size (default 3x3; each side 1..32)\n"                        \
    "  --k K                   marks in a row to win (default min(W, H))\n"                        \
    "  --rule RULE             freestyle (k or more in a row wins; the default) or\n"              \
    "                          exact (exactly k: an overline does not win)\n"                      \
    "  --board NAME            back-end: " BOARD_NAMES " (default bitboard)\n"                     \
    "  --count-linemark        keep per-line counters (the series' count_linemark)\n"              \
    "  --help                  show this help\n"

/* Player option ids, shared by match and tournament: the per-move budgets
 * of sandboxed scripts, the time control and --no-sandbox. */
enum {
    OPT_PLAYER_TIME = 1100,
    OPT_PLAYER_INSTR,
    OPT_PLAYER_MEMORY,
    OPT_PLAYER_MOVE_TIME,
    OPT_PLAYER_GAME_TIME,
    OPT_PLAYER_NO_SANDBOX
};
#define CLI_PLAYER_OPTIONS                                                                         \
    {"time", true, OPT_PLAYER_TIME}, {"instructions", true, OPT_PLAYER_INSTR},                     \
        {"memory", true, OPT_PLAYER_MEMORY}, {"move-time", true, OPT_PLAYER_MOVE_TIME},            \
        {"game-time", true, OPT_PLAYER_GAME_TIME},                                                 \
    {                                                                                              \
        "no-sandbox", false, OPT_PLAYER_NO_SANDBOX                                                 \
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
/* Put one player option into p (time, instructions, memory, move_time,
 * game_time, sandbox = "0"): 1 when id is one, 0 when it is not, -1 after
 * printing an error (a budget that is not a number >= 0; the time control
 * is checked by scripts/lib/timecontrol.lua). */
int cli_player_option(const char *cmd, int id, const char *arg, CliPairs *p);

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
