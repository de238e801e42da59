/* main.c: the marubatsu program: Lua options, then a subcommand or the REPL.
 *
 *   marubatsu [-I DIR] [-l MOD] [-e CODE] [-i] [-E] ... [COMMAND [ARGS...]]
 *
 * The options run in order in one Lua state (where `mb` is the module), as
 * lua's do; the command, if any, runs after them in the same state. With no
 * command and no -e, or with -i, the REPL follows. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lua/host.h"

static const char usage[] =
    "usage: marubatsu [options] [COMMAND [ARGS...]]\n"
    "\n"
    "A tic-tac-toe (m x n, k in a row) engine and AI sandbox scripted in Lua.\n"
    "\n"
    "commands:\n"
    "  run FILE [ARGS]   run a Lua script (mb is the marubatsu module; ARGS in arg)\n"
    "  match AI0 AI1     play AIs against each other, the series' match table\n"
    "  play              play a game in the terminal (you against ai14s by default)\n"
    "  replay FILE       step through a game saved by play's save command\n"
    "  replay JOURNAL N  show game N of a tournament journal\n"
    "  show MOVES        print the position after a list of moves (\"A1,B2,C3\")\n"
    "  perft             count the game tree by depth\n"
    "  solve [MOVES]     the exact value of a position with best play\n"
    "  tree              the full game tree, its scores and best-move tables\n"
    "  tournament P...   a tournament between AIs: crosstable, Elo, journal\n"
    "  merge DIR...      combine the journals of a tournament's shards\n"
    "  serve             a browser front end: play, the game tree, results\n"
    "\n"
    "options (run in order, before the command):\n"
    "  -e CODE           run a chunk of Lua\n"
    "  -l MOD            require a module into the global MOD (-l NAME=MOD too)\n"
    "  -I DIR            also look for AI scripts in DIR (like MARUBATSU_PATH)\n"
    "  -i                the REPL after the options and the command\n"
    "  -E                do not run the init file (~/.marubatsurc.lua, MARUBATSU_INIT)\n"
    "  -h, --help        this help;  --version  the version\n"
    "\n"
    "With no command and no -e, the REPL starts (reading plainly, with no prompts,\n"
    "when stdin is not a terminal). Run 'marubatsu COMMAND --help' for a command's\n"
    "options. Lua errors print the message and a traceback and exit with status 1;\n"
    "usage errors exit with 2.\n";

static const char short_usage[] =
    "usage: marubatsu [-e CODE] [-l MOD] [-I DIR] [-i] [-E] [COMMAND [ARGS...]]\n"
    "commands: run, match, play, replay, show, perft, solve, tree (marubatsu --help for more)\n";

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv); /* commands without Lua */
    int (*run_lua)(int argc, char **argv, Host *h);
} Command;

static const Command commands[] = {
    {"run", NULL, cmd_run},       {"match", NULL, cmd_match}, {"play", NULL, cmd_play},
    {"replay", NULL, cmd_replay}, {"show", cmd_show, NULL},   {"perft", cmd_perft, NULL},
    {"solve", cmd_solve, NULL},   {"tree", cmd_tree, NULL},   {"tournament", NULL, cmd_tournament},
    {"merge", NULL, cmd_merge},   {"serve", NULL, cmd_serve}, {"brain", NULL, cmd_brain},
};

static const Command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0) return &commands[i];
    return NULL;
}

/* An option without a value: -i or -E. */
static bool flag_option(const char *o) { return strcmp(o, "-i") == 0 || strcmp(o, "-E") == 0; }

int main(int argc, char **argv)
{
    /* Step 1. the options, checked before anything runs */
    int i = 1;
    bool repl = false, no_init = false, code = false;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *o = argv[i];
        if (flag_option(o)) {
            repl = repl || o[1] == 'i';
            no_init = no_init || o[1] == 'E';
            continue;
        }
        code = code || strcmp(o, "-e") == 0;
        if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strcmp(o, "--version") == 0) {
            printf("marubatsu %s\n", MB_VERSION);
            return 0;
        }
        if (strcmp(o, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(o, "-e") != 0 && strcmp(o, "-l") != 0 && strcmp(o, "-I") != 0) {
            fprintf(stderr, "marubatsu: unknown option '%s'\n%s", o, short_usage);
            return EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "marubatsu: option %s needs a value\n", o);
            return EXIT_USAGE;
        }
        i++;
    }
    int first_command = i;
    const Command *cmd = NULL;
    if (first_command < argc) {
        cmd = find_command(argv[first_command]);
        if (!cmd) {
            fprintf(stderr, "marubatsu: unknown command '%s'\n%s", argv[first_command],
                    short_usage);
            return EXIT_USAGE;
        }
    }
    if (!cmd && !code) repl = true;
    /* Step 2. commands that need no Lua and no options */
    if (cmd && cmd->run && first_command == 1)
        return cmd->run(argc - first_command, argv + first_command);

    /* Step 3. the Lua state, the options in order, then the command */
    Host *h = host_new();
    if (!h) return 1;
    int status = 0;
    host_catch_interrupts(h, true); /* -e, -l: Ctrl-C stops them (exit 130) */
    for (i = 1; i < first_command && status == 0; i += 2) {
        if (strcmp(argv[i], "--") == 0) break;
        if (flag_option(argv[i])) {
            i--; /* no value */
            continue;
        }
        const char *v = argv[i + 1];
        switch (argv[i][1]) {
        case 'I': status = host_add_path(h, v); break;
        case 'l': status = host_require(h, v); break;
        default: status = host_run_string(h, v); break;
        }
    }
    host_catch_interrupts(h, false); /* each command decides */
    if (status == 0 && cmd)
        status = cmd->run_lua ? cmd->run_lua(argc - first_command, argv + first_command, h)
                              : cmd->run(argc - first_command, argv + first_command);
    if (status == 0 && repl) {
        ReplArgs r = {no_init};
        status = host_repl(h, &r);
    }
    host_free(h);
    return status;
}
