/* cmd_tune.c: `marubatsu tune AI`: self-play tuning of an AI's declared
 * parameters by SPSA, then an SPRT confirmation. The options are checked
 * here, the work is host.tune_main (scripts/lib/tune.lua). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: marubatsu tune AI [options]\n"
    "       marubatsu tune --list AI\n"
    "Tune the parameters the AI declares (mb.make_ai's tune field: docs/tune.md)\n"
    "by self-play: each SPSA iteration plays --pairs game pairs (each opening\n"
    "with both colours) between the values perturbed up and down, and moves the\n"
    "values toward the side that scored more. At the end an SPRT match plays\n"
    "the tuned values against the start. AI is an AI name or a Lua script file\n"
    "(run in the sandbox), with fixed parameters: gomoku:nodes=3000.\n"
    "\n"
    "options:\n"
    "  --list                  print the AI's tunable parameters and stop\n"
    "  --params A,B,...        tune only these (default: every one declared)\n"
    "  --start A=V,B=V,...     start values (default: the declared defaults)\n"
    "  --start-scale F         start every tuned parameter at F times its default\n"
    "  --iterations N          SPSA iterations (default 100)\n"
    "  --pairs N               game pairs per iteration (default 8)\n"
    "  --spsa KEY=V,...        the SPSA constants: r (gain at the end, in steps per\n"
    "                          unit of result; default 0.2), c (perturbation at the\n"
    "                          end, in steps; default 1), A (default: a tenth of\n"
    "                          the iterations), alpha (0.602), gamma (0.101)\n"
    "  --max-time S            start no iteration after S seconds\n"
    "  --confirm-games N       the SPRT match's most games (default 2000; 0: none)\n"
    "  --sprt elo0=E0,elo1=E1,alpha=A,beta=B\n"
    "                          its bounds (default elo0=0,elo1=10,alpha=0.05,\n"
    "                          beta=0.05)\n"
    "  --seed S                master seed (default 1): the signs and every game\n"
    "  --jobs J                worker processes (default: the number of cores)\n"
    "  --openings FILE         openings, shuffled for each iteration by its seed\n"
    "  --openings-plies N      play only the first N moves of each opening\n"
    "  --adjudicate            end games once their result is proven\n"
    "  --max-moves N           a game with N stones on the board is a draw\n"
    "  --move-time S, --game-time S[+INC]\n"
    "                          a time control (fixed nodes or depth through the\n"
    "                          AI's parameters give games that do not depend on\n"
    "                          the machine: gomoku:nodes=3000)\n" CLI_BUDGET_HELP
    "  --no-sandbox            run a script file trusted\n"
    "  --out DIR               write tune.tsv (the journal: one line per\n"
    "                          iteration), tune.csv, tune.svg (each parameter's\n"
    "                          trajectory), tuned.txt (the player spec), tuned.lua\n"
    "                          (a Lua table), summary.json and confirm/ (the SPRT\n"
    "                          match's tournament files) there\n"
    "  --slurm N               play each iteration's games as a Slurm job array of\n"
    "                          N tasks (sbatch --wait; one shard each, merged;\n"
    "                          --out must be on a disk the nodes share)\n"
    "  --sbatch 'ARGS'         more sbatch options for those arrays (a partition,\n"
    "                          --cpus-per-task=8, ...)\n"
    "  --resume                continue the journal in --out: the same result as\n"
    "                          an uninterrupted run when games do not depend on\n"
    "                          timing\n"
    "  --progress MODE         the confirmation's progress (bar, lines, none)\n"
    "  --quiet                 print nothing (the files in --out still appear)\n" CLI_BOARD_HELP
    "\n"
    "A line per iteration goes to stderr: the values, theta+'s score, games,\n"
    "time used and left. Ctrl-C stops the run; --resume continues it.\n"
    "\n"
    "exit status: 0 done, 1 a run that failed (unwritable files, a journal of\n"
    "another run), 2 bad options, AI or parameters, 130 stopped by Ctrl-C.\n";

enum {
    OPT_LIST = 1,
    OPT_PARAMS,
    OPT_START,
    OPT_START_SCALE,
    OPT_ITERATIONS,
    OPT_PAIRS,
    OPT_SPSA,
    OPT_MAX_TIME,
    OPT_CONFIRM_GAMES,
    OPT_SPRT,
    OPT_SEED,
    OPT_JOBS,
    OPT_OPENINGS,
    OPT_OPENINGS_PLIES,
    OPT_ADJUDICATE,
    OPT_MAX_MOVES,
    OPT_OUT,
    OPT_RESUME,
    OPT_PROGRESS,
    OPT_QUIET,
    OPT_SLURM,
    OPT_SBATCH
};

/* The options: those with a key go to mb.tune_main as they are (checked
 * by cli_take), the others are read below. */
static const CliOption options[] = {
    CLI_BOARD_OPTIONS,
    {"list", false, OPT_LIST, NULL, CLI_FLAG, 0, 0, NULL},
    {"params", true, OPT_PARAMS, "params", CLI_TEXT, 0, 0, NULL},
    {"start", true, OPT_START, "start", CLI_TEXT, 0, 0, NULL},
    {"start-scale", true, OPT_START_SCALE, "start_scale", CLI_TEXT, 0, 0, NULL},
    {"iterations", true, OPT_ITERATIONS, "iterations", CLI_INT, 1, 10000000, NULL},
    {"pairs", true, OPT_PAIRS, "pairs", CLI_INT, 1, 1000000, NULL},
    {"spsa", true, OPT_SPSA, "spsa", CLI_TEXT, 0, 0, NULL},
    {"max-time", true, OPT_MAX_TIME, "max_time", CLI_SECONDS, 0, 0, NULL},
    {"confirm-games", true, OPT_CONFIRM_GAMES, "confirm_games", CLI_EVEN, 0, 1000000000, NULL},
    {"sprt", true, OPT_SPRT, "sprt", CLI_TEXT, 0, 0, NULL},
    {"seed", true, OPT_SEED, "seed", CLI_SEED, 0, 0, NULL},
    {"jobs", true, OPT_JOBS, "jobs", CLI_INT, 1, 256, NULL},
    {"openings", true, OPT_OPENINGS, "openings", CLI_TEXT, 0, 0, NULL},
    {"openings-plies", true, OPT_OPENINGS_PLIES, "openings_plies", CLI_INT, 1, 1024, NULL},
    {"adjudicate", false, OPT_ADJUDICATE, "adjudicate", CLI_FLAG, 0, 0, NULL},
    {"max-moves", true, OPT_MAX_MOVES, "max_moves", CLI_INT, 1, 1024, NULL},
    {"out", true, OPT_OUT, "out", CLI_TEXT, 0, 0, NULL},
    {"resume", false, OPT_RESUME, "resume", CLI_FLAG, 0, 0, NULL},
    {"progress", true, OPT_PROGRESS, NULL, CLI_TEXT, 0, 0, NULL},
    {"quiet", false, OPT_QUIET, "quiet", CLI_FLAG, 0, 0, NULL},
    {"slurm", true, OPT_SLURM, "slurm", CLI_INT, 1, 100000, NULL},
    {"sbatch", true, OPT_SBATCH, "sbatch", CLI_TEXT, 0, 0, NULL},
    CLI_PLAYER_OPTIONS,
    {0}};

int cmd_tune(int argc, char **argv, Host *h)
{
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    CliPairs p = {0};
    const char *ai = NULL, *arg = NULL;
    bool list = false, board_set = false;
    /* 1. the options and the AI */
    for (int id; (id = cli_next(&a, options, &arg)) != CLI_END;) {
        int taken = cli_take(&a, options, id, arg, &p);
        if (taken < 0) return EXIT_USAGE;
        if (taken) continue;
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP: fputs(usage, stdout); return 0;
        case OPT_LIST: list = true; break;
        case OPT_PROGRESS:
            if (!cli_progress(a.cmd, arg, &p)) return EXIT_USAGE;
            break;
        case CLI_POSITIONAL:
            if (ai) {
                cli_error(a.cmd, "one AI expected, got a second: '%s'", arg);
                return EXIT_USAGE;
            }
            ai = arg;
            break;
        default: {
            if (!cli_board_option(a.cmd, id, arg, &opt)) return EXIT_USAGE;
            if (id == OPT_BOARD) board_set = true;
            break;
        }
        }
    }
    if (!ai) {
        cli_error(a.cmd, "an AI to tune is needed, e.g. marubatsu tune gomoku (see --help)");
        return EXIT_USAGE;
    }
    cli_put(&p, "player", ai);
    if (list) return host_call_table(h, "tune_list_main", p.keys, p.values, p.n);
    /* 2. the board, and the program the Slurm arrays' tasks run: this one */
    CliBoardText board;
    if (!cli_put_board(a.cmd, &opt, board_set, &board, &p)) return EXIT_USAGE;
    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        cli_put(&p, "program", self);
    }
    /* 3. the run */
    host_catch_interrupts(h, true);
    return host_call_table(h, "tune_main", p.keys, p.values, p.n);
}
