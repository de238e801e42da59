/* cmd_show.c: `marubatsu show MOVES`: the text form after a list of moves. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "mberror.h"
#include "notation.h"

static const char usage[] =
    "usage: marubatsu show [options] MOVES\n"
    "Play a comma-separated list of Excel moves (\"A1,B2,C3\"; \"\" for none) from the\n"
    "start and print the position in the series' text form: a header line (Turn o,\n"
    "winner x, winner draw) and one line per row, the last move upper-cased.\n"
    "Columns are A, B, ... Z, AA, ...; rows 1, 2, ...; letters in either case.\n"
    "\n"
    "options:\n" CLI_BOARD_HELP
    "  --key                   print the board key (board_to_str) instead\n"
    "\n"
    "exit status: 0 ok, 2 bad options or a bad or illegal move (named by its\n"
    "position in the list)\n";

enum { OPT_KEY = 1 };

int cmd_show(int argc, char **argv)
{
    static const CliOption opts[] = {
        CLI_BOARD_OPTIONS, {.name = "key", .has_arg = false, .id = OPT_KEY}, {0}};
    CliArgs a = cli_args(argc, argv);
    GameOptions opt = game_default_options();
    const char *arg = NULL, *list = NULL;
    bool key = false;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        if (id == CLI_ERROR) return EXIT_USAGE;
        if (id == OPT_HELP) {
            fputs(usage, stdout);
            return 0;
        }
        if (id == OPT_KEY) {
            key = true;
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
    if (!list) {
        cli_error(a.cmd, "a move list is needed, e.g. marubatsu show A1,B2 (see --help)");
        return EXIT_USAGE;
    }

    Game g;
    if (!cli_make_game(a.cmd, &opt, &g)) return EXIT_USAGE;
    const Geometry *geo = game_geom(&g);
    int status = cli_play_moves(a.cmd, &g, list, "MOVES") ? 0 : EXIT_USAGE;
    if (!status) {
        char *buf = malloc(notation_text_size(geo) + (size_t)geo->ncells);
        if (!buf) {
            cli_error(a.cmd, "out of memory");
            status = 1;
        } else {
            if (key) {
                notation_key(&g, buf);
                puts(buf);
            } else {
                notation_text(&g, buf);
                fputs(buf, stdout);
            }
            free(buf);
        }
    }
    game_free(&g);
    return status;
}
