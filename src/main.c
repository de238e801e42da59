/* main.c: the marubatsu program: dispatches to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] =
    "usage: marubatsu [--help | --version] COMMAND [ARGS...]\n"
    "\n"
    "A tic-tac-toe (m x n, k in a row) engine and AI sandbox.\n"
    "\n"
    "commands:\n"
    "  show MOVES     print the position after a list of moves (\"A1,B2,C3\")\n"
    "  perft          count the game tree by depth\n"
    "\n"
    "Run 'marubatsu COMMAND --help' for a command's options.\n";

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
} Command;

static const Command commands[] = {
    {"show", cmd_show},
    {"perft", cmd_perft},
};

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("marubatsu %s\n", MB_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "marubatsu: unknown command '%s'\n\n%s", argv[1], usage);
    return EXIT_USAGE;
}
