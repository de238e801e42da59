/* cmd_solve.c: `marubatsu solve`: the exact value of a position. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "mberror.h"
#include "notation.h"
#include "solve.h"

static const char usage[] =
    "usage: marubatsu solve [options] [MOVES]\n"
    "Solve the position after MOVES (comma-separated Excel squares, \"A1,B2\"; the\n"
    "start when none): its value with best play (first player wins, draw, second\n"
    "player wins), a best move, the plies to the end with best play, the nodes\n"
    "searched, the table size and the time. Boards of at most 64 squares.\n"
    "\n"
    "options:\n" CLI_BOARD_HELP
    "  --time-limit S          give up after S seconds (exit status 1)\n"
    "  --no-time               leave out the time line (for reproducible output)\n"
    "\n"
    "A progress line is shown on stderr when it is a terminal.\n";

enum { OPT_TIME_LIMIT = 1, OPT_NO_TIME };

static void progress(void *ud, uint64_t nodes, size_t table, int done, int total)
{
    (void)ud;
    fprintf(stderr, "\r\033[Kroot move %d/%d, %llu nodes, table %zu", done + 1, total,
            (unsigned long long)nodes, table);
    fflush(stderr);
}

int cmd_solve(int argc, char **argv)
{
    static const CliOption opts[] = {CLI_BOARD_OPTIONS,
                                     {.name = "time-limit", .has_arg = true, .id = OPT_TIME_LIMIT},
                                     {.name = "no-time", .has_arg = false, .id = OPT_NO_TIME},
                                     {0}};
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    const char *arg = NULL, *list = NULL;
    double limit = 0;
    bool show_time = true;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        if (id == CLI_ERROR) return EXIT_USAGE;
        if (id == OPT_HELP) {
            fputs(usage, stdout);
            return 0;
        }
        if (id == OPT_TIME_LIMIT) {
            char *end;
            limit = strtod(arg, &end);
            if (end == arg || *end || !(limit > 0)) {
                cli_error(a.cmd, "--time-limit wants a positive number of seconds, not '%s'", arg);
                return EXIT_USAGE;
            }
        } else if (id == OPT_NO_TIME) {
            show_time = false;
        } else if (id == CLI_POSITIONAL) {
            if (list) {
                cli_error(a.cmd, "one move list expected; separate moves with commas");
                return EXIT_USAGE;
            }
            list = arg;
        } else if (!cli_board_option(a.cmd, id, arg, &opt)) {
            return EXIT_USAGE;
        }
    }

    Game g;
    if (!cli_make_game(a.cmd, &opt, &g)) return EXIT_USAGE;
    const Geometry *geo = game_geom(&g);
    int status = 0;
    if (geo->ncells > SOLVE_MAX_CELLS) {
        cli_error(a.cmd, "boards of at most %d squares can be solved (%dx%d has %d)",
                  SOLVE_MAX_CELLS, geo->width, geo->height, geo->ncells);
        status = EXIT_USAGE;
    } else if (list && !cli_play_moves(a.cmd, &g, list, "MOVES")) {
        status = EXIT_USAGE;
    }
    if (status) {
        game_free(&g);
        return status;
    }

    Solve s;
    solve_init(&s);
    s.time_limit = limit;
    if (isatty(2)) s.progress = progress;
    SolveResult r;
    int rc = solve_position(&s, &g, &r);
    if (s.progress) fputs("\r\033[K", stderr);
    if (rc == SOLVE_STOPPED) {
        cli_error(a.cmd, "time limit reached after %.3f s (%llu nodes, table %zu positions)",
                  r.seconds, (unsigned long long)r.nodes, r.table);
        status = 1;
    } else if (rc) {
        cli_error(a.cmd, "%s", mb_strerror(rc));
        status = 1;
    } else {
        char sq[16] = "none";
        if (r.best != MOVE_NONE) {
            int x, y;
            geometry_move_to_xy(geo, r.best, &x, &y);
            notation_excel_format(x, y, sq);
        }
        printf("value: %s\n", solve_value_name(r.value));
        printf("best move: %s\n", sq);
        printf("plies to the end with best play: %d\n", r.distance);
        printf("nodes: %llu\n", (unsigned long long)r.nodes);
        printf("table: %zu positions\n", r.table);
        if (show_time) printf("time: %.3f s\n", r.seconds);
    }
    solve_free(&s);
    game_free(&g);
    return status;
}
