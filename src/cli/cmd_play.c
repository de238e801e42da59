/* cmd_play.c: `marubatsu play` (the series' play loop in the terminal) and
 * `marubatsu replay FILE` (step through a saved game). The options are
 * checked here; the games run in Lua (scripts/lib/play.lua:
 * mb.play_terminal, mb.replay_terminal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mberror.h"

static const char play_usage[] =
    "usage: marubatsu [options] play [options]\n"
    "Play a game in the terminal, the series' play loop: the position is shown\n"
    "before every move, a person types a move, an AI plays its own. An AI is a\n"
    "name (ai2, ai14s, ...: the built-in scripts, then -I directories and\n"
    "MARUBATSU_PATH) or a Lua file. When both players are AIs the game plays to\n"
    "the end. At the end the final position and the result are printed.\n"
    "As in a match, an AI that is not built in (a file, or a name found in a -I\n"
    "directory) runs in the sandbox: its own Lua state and random stream, no\n"
    "files or processes, budgets per move; a move it fails ends the game with\n"
    "the reason, naming that AI. As the hint AI it gives only its move.\n"
    "A Gomocup brain plays as brain:COMMAND[:key=value,...] (as in a match),\n"
    "stopped while the person thinks; a player that cannot play the board (a\n"
    "brain off k = 5 or failing its handshake) exits 2 before the first move.\n"
    "With a sandboxed AI the game runs in a worker process, under the hard line:\n"
    "a move stuck inside one call past its time budget and the slack (the\n"
    "budgets act between Lua instructions) is ended by killing that process. A\n"
    "player's move is then lost on time, with the reason; the hint AI's gives\n"
    "its reason and the game goes on in a new worker process.\n"
    "\n"
    "options:\n"
    "  --o PLAYER              who plays o (first): human or an AI (default human)\n"
    "  --x PLAYER              who plays x: human or an AI (default ai14s)\n"
    "  --seed S                seed the random stream before the game, exactly\n"
    "                          like CPython's random.seed(S)\n"
    "  --hint AI               the AI that answers 'hint' (default ai14s)\n"
    "  --move-time S           an AI's moves get S seconds: it sees\n"
    "                          params.timelimit (0.8 S) and loses on time past S\n" CLI_BUDGET_HELP
        CLI_SLACK_HELP
    "  --no-sandbox            run script files trusted (only your own): a hint\n"
    "                          AI then shows its analysis\n"
    "  --ascii                 the series' plain text board; by default the board\n"
    "                          has colour and the marks 〇 and × when stdout is a\n"
    "                          terminal, TERM is not dumb and the locale is UTF-8\n"
    "                          (the first set of LC_ALL, LC_CTYPE, LANG)\n"
    "  --lang LANG             the language of play's messages: en or ja (the\n"
    "                          series' Japanese wording); default ja when the\n"
    "                          locale (the first set of LC_ALL, LC_MESSAGES,\n"
    "                          LANG) starts with ja, else en\n"
    "  --input FILE            read the typed lines from FILE instead of stdin, for\n"
    "                          scripted play and tests (lines that do not come from\n"
    "                          a terminal are echoed after the prompt)\n" CLI_BOARD_HELP "\n"
    "typed at the prompt:\n"
    "  x,y                     a move: column x and row y, counted from 0 (the\n"
    "                          series' form; '1,2' is B3)\n"
    "  B2                      a move as an Excel square: column letter, row from 1\n"
    "  undo                    take back your last move and the AI's reply\n"
    "  hint                    what the hint AI would play, with its score of each\n"
    "                          move for a score AI (its analysis, which draws no\n"
    "                          random numbers)\n"
    "  save FILE               write the game record to FILE\n"
    "  load FILE               read a game record and go on from there (a bad file:\n"
    "                          a message naming the line, and the game goes on)\n"
    "  exit                    quit; the end of the input quits too\n"
    "The prompt, the AI's moves and the messages about moves follow --lang (and\n"
    "mb.lang is that language while play runs). The commands' messages are in\n"
    "English.\n"
    "\n"
    "game record files (save, load, replay):\n"
    "  # marubatsu game record     lines starting with # are comments\n"
    "  # board 3x3 k=3             optional, before the moves: the shape (default\n"
    "                              3x3; without k=K, k is the shorter side)\n"
    "  A1,B2,C3                    the moves in order, Excel squares separated by\n"
    "                              commas and/or blanks and newlines\n"
    "The moves line that save writes is also valid input for show:\n"
    "  marubatsu show \"$(grep -v '^#' game.txt)\"   (3x3; else add --width W\n"
    "                                              --height H --k K)\n"
    "\n"
    "exit status: 0 when the game ends or is quit, 1 on an error (an unknown AI,\n"
    "an AI that fails, an unreadable --input file), 2 on bad options, 130 after\n"
    "Ctrl-C while a worker process plays the game.\n";

static const char replay_usage[] =
    "usage: marubatsu [options] replay FILE [options]\n"
    "       marubatsu [options] replay JOURNAL GAME_NO\n"
    "Step through a saved game record (the format is in 'marubatsu play --help'):\n"
    "print the start position, then the position after each move. On a terminal\n"
    "it waits for Enter before each move (q quits).\n"
    "\n"
    "options:\n"
    "  --all                   print every position at once, without waiting\n"
    "                          (also what happens when stdin is not a terminal)\n"
    "  --ascii                 the series' plain text board (see play --help)\n"
    "  --psq FILE              (journal games) write the game as a Piskvork .psq\n"
    "                          record for Gomoku GUIs instead (\"-\": stdout)\n"
    "  --svg FILE              (journal games) write an SVG of the final position\n"
    "                          with move numbers instead (\"-\": stdout)\n"
    "  --help                  show this help\n"
    "\n"
    "With a tournament journal (journal.tsv) and a game number, print that game:\n"
    "its players, seed, result and forfeit reason, then every position.\n"
    "\n"
    "exit status: 0 ok, 1 an unreadable or malformed file (the message names the\n"
    "line), 2 bad options.\n";

enum {
    OPT_O = 1,
    OPT_X,
    OPT_SEED,
    OPT_HINT,
    OPT_ASCII,
    OPT_INPUT,
    OPT_ALL,
    OPT_PSQ,
    OPT_SVG,
    OPT_SLACK,
    OPT_LANG
};

/* play's options: those with a key go to mb.play_terminal as they are
 * (checked by cli_take), the others are read below. */
static const CliOption play_options[] = {
    CLI_BOARD_OPTIONS,
    {"o", true, OPT_O, "o", CLI_WORD, 0, 0, NULL},
    {"x", true, OPT_X, "x", CLI_WORD, 0, 0, NULL},
    {"seed", true, OPT_SEED, "seed", CLI_BIGINT, 0, 0, NULL},
    {"hint", true, OPT_HINT, "hint", CLI_WORD, 0, 0, NULL},
    {"ascii", false, OPT_ASCII, "ascii", CLI_FLAG, 0, 0, NULL},
    {"input", true, OPT_INPUT, "input", CLI_WORD, 0, 0, NULL},
    {"move-time", true, OPT_PLAYER_MOVE_TIME, "move_time", CLI_TEXT, 0, 0, NULL}, /* play.lua */
    {"time", true, OPT_PLAYER_TIME, "time", CLI_SECONDS, 0, 0, NULL},
    {"instructions", true, OPT_PLAYER_INSTR, "instructions", CLI_SECONDS, 0, 0, NULL},
    {"memory", true, OPT_PLAYER_MEMORY, "memory", CLI_SECONDS, 0, 0, NULL},
    {"no-sandbox", false, OPT_PLAYER_NO_SANDBOX, "sandbox", CLI_FLAG, 0, 0, "0"},
    {"slack", true, OPT_SLACK, "slack", CLI_SECONDS, 0, 0, NULL},
    {"lang", true, OPT_LANG, "lang", CLI_TEXT, 0, 0, NULL}, /* checked in play.lua */
    {0}};

int cmd_play(int argc, char **argv, Host *h)
{
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    CliPairs p = {0};
    const char *arg = NULL;
    bool board_set = false;
    for (int id; (id = cli_next(&a, play_options, &arg)) != CLI_END;) {
        int taken = cli_take(&a, play_options, id, arg, &p);
        if (taken < 0) return EXIT_USAGE;
        if (taken) continue;
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP: fputs(play_usage, stdout); return 0;
        case CLI_POSITIONAL:
            cli_error(a.cmd, "unexpected argument '%s' (see --help)", arg);
            return EXIT_USAGE;
        default: {
            if (!cli_board_option(a.cmd, id, arg, &opt)) return EXIT_USAGE;
            if (id == OPT_BOARD) board_set = true;
            break;
        }
        }
    }
    CliPairs all = {0};
    CliBoardText board;
    if (!cli_put_board(a.cmd, &opt, board_set, &board, &all)) return EXIT_USAGE;
    for (int i = 0; i < p.n; i++) cli_put(&all, p.keys[i], p.values[i]);
    return host_call_table(h, "play_terminal", all.keys, all.values, all.n);
}

int cmd_replay(int argc, char **argv, Host *h)
{
    static const CliOption opts[] = {{.name = "all", .has_arg = false, .id = OPT_ALL},
                                     {.name = "ascii", .has_arg = false, .id = OPT_ASCII},
                                     {.name = "psq", .has_arg = true, .id = OPT_PSQ},
                                     {.name = "svg", .has_arg = true, .id = OPT_SVG},
                                     {.name = "help", .has_arg = false, .id = OPT_HELP},
                                     {0}};
    CliArgs a = cli_args(argc, argv);
    CliPairs p = {0};
    const char *arg = NULL, *file = NULL, *game_no = NULL;
    bool record = false;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP: fputs(replay_usage, stdout); return 0;
        case OPT_ALL: cli_put(&p, "all", "1"); break;
        case OPT_ASCII: cli_put(&p, "ascii", "1"); break;
        case OPT_PSQ:
            cli_put(&p, "psq", arg);
            record = true;
            break;
        case OPT_SVG:
            cli_put(&p, "svg", arg);
            record = true;
            break;
        default: /* CLI_POSITIONAL */
            if (file && !game_no) {
                bool digits = *arg != '\0';
                for (const char *c = arg; *c; c++) digits = digits && *c >= '0' && *c <= '9';
                if (!digits) {
                    cli_error(
                        a.cmd,
                        "one game file expected, got a second: '%s' (a journal takes a game number: replay JOURNAL N)",
                        arg);
                    return EXIT_USAGE;
                }
                game_no = arg;
                break;
            }
            if (file) {
                cli_error(
                    a.cmd,
                    "a game file (or a journal and a game number) expected, got a third word: '%s'",
                    arg);
                return EXIT_USAGE;
            }
            file = arg;
            break;
        }
    }
    if (!file) {
        cli_error(a.cmd, "a game file is needed, e.g. marubatsu replay game.txt (see --help)");
        return EXIT_USAGE;
    }
    cli_put(&p, "file", file);
    if (record && !game_no) {
        cli_error(a.cmd, "--psq and --svg take a journal game: replay JOURNAL N --psq FILE");
        return EXIT_USAGE;
    }
    if (record) {
        cli_put(&p, "game", game_no);
        return host_call_table(h, "game_record_main", p.keys, p.values, p.n);
    }
    if (game_no) {
        cli_put(&p, "game", game_no);
        return host_call_table(h, "replay_journal_main", p.keys, p.values, p.n);
    }
    return host_call_table(h, "replay_terminal", p.keys, p.values, p.n);
}
