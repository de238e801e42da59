/* cmd_match.c: `marubatsu match AI0 AI1`: the series' ai_match. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "mberror.h"

static const char usage[] =
    "usage: marubatsu [options] match AI0 AI1 [options]\n"
    "Play N iterations of two games, AI0 as o then as x, and print the series'\n"
    "table (counts and ratios from AI0's point of view). An AI is a name (ai2,\n"
    "ai14s, ...: the built-in scripts, then -I directories and MARUBATSU_PATH) or\n"
    "a Lua file.\n"
    "\n"
    "options:\n"
    "  -n N, --match-num N     iterations (default 10000)\n"
    "  --seed S                seed the random stream once before the match,\n"
    "                          exactly like CPython's random.seed(S)\n"
    "  --no-progress           no progress bar (it is shown only on a terminal)\n" CLI_BOARD_HELP
    "\n"
    "With --seed 0, 'match ai2 ai2 -n 50000' prints the series' golden table.\n";

enum { OPT_N = 1, OPT_SEED, OPT_NO_PROGRESS };

int cmd_match(int argc, char **argv, Host *h)
{
    static const CliOption opts[] = {CLI_BOARD_OPTIONS,
                                     {"n", true, OPT_N},
                                     {"match-num", true, OPT_N},
                                     {"seed", true, OPT_SEED},
                                     {"no-progress", false, OPT_NO_PROGRESS},
                                     {0}};
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    MatchArgs m = {{NULL, NULL}, 10000, NULL, 0, 0, 0, NULL, false, true};
    const char *arg = NULL;
    int nai = 0, n = 0;
    bool board_set = false;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP: fputs(usage, stdout); return 0;
        case OPT_N:
            if (!cli_int(a.cmd, "-n", arg, 1, 1000000000, &n)) return EXIT_USAGE;
            m.match_num = n;
            break;
        case OPT_SEED: {
            const char *p = arg + (*arg == '-' || *arg == '+');
            bool digits = *p != '\0';
            for (; *p; p++) digits = digits && *p >= '0' && *p <= '9';
            if (!digits) {
                cli_error(a.cmd, "--seed must be an integer (any size), not '%s'", arg);
                return EXIT_USAGE;
            }
            m.seed = arg;
            break;
        }
        case OPT_NO_PROGRESS: m.progress = false; break;
        case CLI_POSITIONAL:
            if (nai == 2) {
                cli_error(a.cmd, "two AIs expected, got a third: '%s'", arg);
                return EXIT_USAGE;
            }
            m.ai[nai++] = arg;
            break;
        default:
            if (!cli_board_option(a.cmd, id, arg, &opt)) return EXIT_USAGE;
            if (id == OPT_BOARD) board_set = true;
            break;
        }
    }
    if (nai < 2) {
        cli_error(a.cmd, "two AIs are needed, e.g. marubatsu match ai2 ai2 (see --help)");
        return EXIT_USAGE;
    }
    char err[160];
    if (geometry_check(opt.width, opt.height, opt.k, err, sizeof err) != MB_OK) {
        cli_error(a.cmd, "%s", err);
        return EXIT_USAGE;
    }
    m.width = opt.width;
    m.height = opt.height;
    m.k = opt.k;
    m.board = board_set ? board_kind_name(opt.board) : NULL;
    m.count_linemark = opt.count_linemark;
    return host_match(h, &m);
}
