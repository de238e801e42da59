/* cmd_run.c: `marubatsu run FILE [ARGS...]`: run a Lua script. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: marubatsu [options] run FILE [ARGS...]\n"
    "Run the Lua script FILE (\"-\" reads standard input) with the marubatsu module\n"
    "as the global mb. ARGS are in the table arg (arg[1], ...; arg[0] is FILE) and\n"
    "are also the chunk's ... values, as with lua. An error prints its message and\n"
    "a traceback and exits with status 1; Ctrl-C stops the script (its native\n"
    "searches too) with the error \"interrupted\" and exit status 130.\n";

int cmd_run(int argc, char **argv, Host *h)
{
    if (argc < 2) {
        cli_error("run", "a script is needed: marubatsu run FILE [ARGS...] (see --help)");
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    host_catch_interrupts(h, true);
    return host_run_file(h, "marubatsu", argv[1], argc - 2, argv + 2);
}
