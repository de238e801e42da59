/* cmd_perft.c: `marubatsu perft`: game-tree counts by depth. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "mberror.h"
#include "notation.h"
#include "perft.h"
#include "clock.h"

static const char usage[] =
    "usage: marubatsu perft [options]\n"
    "Count the game tree from the start (or from --moves) by move, judge and unmove:\n"
    "for each depth d >= 1 a line \"d NODES FINISHED\" (positions reached at ply d,\n"
    "and how many are finished games), then \"total NODES FINISHED\" including the\n"
    "root. Finished games are not expanded. On 3x3: total 549946 255168.\n"
    "\n"
    "options:\n" CLI_BOARD_HELP
    "  --depth D               plies to count (default: to the end on boards of at\n"
    "                          most 9 squares, else 4)\n"
    "  --moves LIST            start after these Excel moves (\"A1,B2\")\n"
    "  --time                  print the time and nodes per second on stderr\n"
    "\n"
    "A progress line is shown on stderr when it is a terminal.\n";

enum { OPT_DEPTH = 1, OPT_MOVES, OPT_TIME };

static void progress(void *ud, int done, int total)
{
    (void)ud;
    fprintf(stderr, "\rroot moves %d/%d", done, total);
    if (done == total) fputs("\r\033[K", stderr);
    fflush(stderr);
}


int cmd_perft(int argc, char **argv)
{
    static const CliOption opts[] = {CLI_BOARD_OPTIONS,
                                     {.name = "depth", .has_arg = true, .id = OPT_DEPTH},
                                     {.name = "moves", .has_arg = true, .id = OPT_MOVES},
                                     {.name = "time", .has_arg = false, .id = OPT_TIME},
                                     {0}};
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    const char *arg = NULL, *depth_text = NULL, *list = "";
    bool timed = false;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        if (id == CLI_ERROR) return EXIT_USAGE;
        if (id == OPT_HELP) {
            fputs(usage, stdout);
            return 0;
        }
        if (id == OPT_DEPTH) {
            depth_text = arg;
        } else if (id == OPT_MOVES) {
            list = arg;
        } else if (id == OPT_TIME) {
            timed = true;
        } else if (id == CLI_POSITIONAL) {
            cli_error(a.cmd, "unexpected argument '%s' (see marubatsu perft --help)", arg);
            return EXIT_USAGE;
        } else if (!cli_board_option(a.cmd, id, arg, &opt)) {
            return EXIT_USAGE;
        }
    }

    Game g;
    if (!cli_make_game(a.cmd, &opt, &g)) return EXIT_USAGE;
    const Geometry *geo = game_geom(&g);
    int status = cli_play_moves(a.cmd, &g, list, "--moves") ? 0 : EXIT_USAGE;
    int left = geo->ncells - g.move_count;
    int depth = geo->ncells <= 9 ? left : (left < 4 ? left : 4);
    if (!status && depth_text && !cli_int(a.cmd, "--depth", depth_text, 0, left, &depth))
        status = EXIT_USAGE;
    if (status) {
        game_free(&g);
        return status;
    }

    uint64_t *nodes = calloc((size_t)depth + 1, sizeof *nodes);
    uint64_t *finished = calloc((size_t)depth + 1, sizeof *finished);
    double t0 = clock_now();
    int rc = nodes && finished
                 ? perft_run(&g, depth, nodes, finished, isatty(2) ? progress : NULL, NULL)
                 : MB_ENOMEM;
    double dt = clock_now() - t0;
    if (rc) {
        cli_error(a.cmd, "%s", mb_strerror(rc));
        status = 1;
    } else {
        uint64_t tn = 0, tf = 0;
        for (int d = 0; d <= depth; d++) {
            if (d > 0)
                printf("%d %llu %llu\n", d, (unsigned long long)nodes[d],
                       (unsigned long long)finished[d]);
            tn += nodes[d];
            tf += finished[d];
        }
        printf("total %llu %llu\n", (unsigned long long)tn, (unsigned long long)tf);
        if (timed)
            fprintf(stderr, "time %.3f s, %.1f M nodes/s\n", dt,
                    dt > 0 ? 1e-6 * (double)tn / dt : 0.0);
    }
    free(nodes);
    free(finished);
    game_free(&g);
    return status;
}
