/* cmd_match.c: `marubatsu match AI0 AI1`: the series' ai_match. The options
 * are checked here; mb.match_main (scripts/lib/match.lua) loads the AIs,
 * script files in the sandbox, and plays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mberror.h"

static const char usage[] =
    "usage: marubatsu [options] match AI0 AI1 [options]\n"
    "Play N iterations of two games, AI0 as o then as x, and print the series'\n"
    "table (counts and ratios from AI0's point of view). An AI is a name (ai2,\n"
    "ai14s, ...: the built-in scripts, then -I directories and MARUBATSU_PATH) or\n"
    "a Lua file. Built-in AIs run as they are; any other script (a file, or a\n"
    "name found in a -I directory) runs in the sandbox, as in a tournament: its\n"
    "own Lua state, no files or processes, budgets per move; a move it fails\n"
    "(time, an error, an illegal move, a changed game) stops the match with the\n"
    "reason, naming that AI.\n"
    "An AI takes parameters as in a tournament, NAME:key=value,key=value\n"
    "(ai14s:minimax=true): a key the AI does not take exits 2.\n"
    "A Gomocup brain plays as brain:COMMAND[:key=value,...] (keys as in a\n"
    "tournament, and name=): a process per game in a box of its own; a move it\n"
    "fails stops the match with the reason. Before the first game each AI is\n"
    "checked once (a brain started on the board and asked ABOUT, a built-in\n"
    "AI's rule called on the start position): one that cannot play this board\n"
    "exits 2 with one line naming it.\n"
    "\n"
    "options:\n"
    "  -n N, --match-num N     iterations (default 10000)\n"
    "  --seed S                seed the random stream once before the match,\n"
    "                          exactly like CPython's random.seed(S)\n"
    "  --move-time S           time control: at most S seconds per move\n"
    "  --game-time S[+INC]     time control: a clock of S seconds per AI and game,\n"
    "                          INC seconds added after each of its moves; with\n"
    "                          either, every move is timed, a loss on time counts\n"
    "                          as a lost game (the count follows the tables), and\n"
    "                          the AIs see params.timelimit and time_left\n" CLI_BUDGET_HELP
        CLI_SLACK_HELP
    "  --no-sandbox            run script files trusted (faster; only your own)\n" CLI_PROGRESS_HELP
        CLI_BOARD_HELP "\n"
    "With --seed 0, 'match ai2 ai2 -n 50000' prints the series' golden table.\n"
    "\n"
    "Ctrl-C stops the match: the tables of the games played so far are printed,\n"
    "marked partial.\n"
    "\n"
    "exit status: 0 done, 1 an AI failed (the message names it), 2 bad options\n"
    "or an AI that does not exist, 130 stopped by Ctrl-C.\n";

enum { OPT_N = 1, OPT_SEED, OPT_NO_PROGRESS, OPT_PROGRESS, OPT_SLACK };

/* The options: those with a key go to mb.match_main as they are (checked
 * by cli_take), the others are read below. */
static const CliOption options[] = {
    CLI_BOARD_OPTIONS,
    {"n", true, OPT_N, "match_num", CLI_INT, 1, 1000000000, NULL},
    {"match-num", true, OPT_N, "match_num", CLI_INT, 1, 1000000000, NULL},
    {"seed", true, OPT_SEED, "seed", CLI_BIGINT, 0, 0, NULL},
    {"no-progress", false, OPT_NO_PROGRESS, "progress", CLI_FLAG, 0, 0, "none"},
    {"progress", true, OPT_PROGRESS, NULL, CLI_TEXT, 0, 0, NULL},
    {"slack", true, OPT_SLACK, "slack", CLI_SECONDS, 0, 0, NULL},
    CLI_PLAYER_OPTIONS,
    {0}};

int cmd_match(int argc, char **argv, Host *h)
{
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    CliPairs p = {0};
    const char *arg = NULL, *ai[2] = {NULL, NULL};
    int nai = 0;
    bool board_set = false;
    for (int id; (id = cli_next(&a, options, &arg)) != CLI_END;) {
        int taken = cli_take(&a, options, id, arg, &p);
        if (taken < 0) return EXIT_USAGE;
        if (taken) continue;
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP: fputs(usage, stdout); return 0;
        case OPT_PROGRESS:
            if (!cli_progress(a.cmd, arg, &p)) return EXIT_USAGE;
            break;
        case CLI_POSITIONAL:
            if (nai == 2) {
                cli_error(a.cmd, "two AIs expected, got a third: '%s'", arg);
                return EXIT_USAGE;
            }
            ai[nai++] = arg;
            break;
        default: {
            if (!cli_board_option(a.cmd, id, arg, &opt)) return EXIT_USAGE;
            if (id == OPT_BOARD) board_set = true;
            break;
        }
        }
    }
    if (nai < 2) {
        cli_error(a.cmd, "two AIs are needed, e.g. marubatsu match ai2 ai2 (see --help)");
        return EXIT_USAGE;
    }
    CliBoardText board;
    if (!cli_put_board(a.cmd, &opt, board_set, &board, &p)) return EXIT_USAGE;
    cli_put(&p, "ai0", ai[0]);
    cli_put(&p, "ai1", ai[1]);
    host_catch_interrupts(h, true);
    return host_call_table(h, "match_main", p.keys, p.values, p.n);
}
