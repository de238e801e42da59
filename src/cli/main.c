/* main.c: the marubatsu program: Lua options, then a subcommand or the REPL.
 *
 *   marubatsu [-I DIR] [-l MOD] [-e CODE] [-i] [-E] ... [COMMAND [ARGS...]]
 *
 * The options run in order in one Lua state (where `mb` is the module), as
 * lua's do; the command, if any, runs after them in the same state. With no
 * command and no -e, or with -i, the REPL follows. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lua/host.h"

/* `marubatsu --completion`: bash completion, which asks the program for
 * its commands (--commands) and each command for its options (--help), so
 * it never lists what the program does not have. */
static const char completion[] =
    "# bash completion for marubatsu (printed by marubatsu --completion)\n"
    "_marubatsu() {\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} cmd= i\n"
    "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
    "        case ${COMP_WORDS[i]} in\n"
    "        -e | -l | -I) ((i++)) ;;\n"
    "        -*) ;;\n"
    "        *) cmd=${COMP_WORDS[i]}; break ;;\n"
    "        esac\n"
    "    done\n"
    "    local words\n"
    "    if [[ -z $cmd && $cur == -* ]]; then\n"
    "        words='-e -l -I -i -E -h --help --version --commands --completion'\n"
    "    elif [[ -z $cmd ]]; then\n"
    "        words=$(\"$prog\" --commands 2>/dev/null)\n"
    "    elif [[ $cur == -* ]]; then\n"
    "        words=$(\"$prog\" \"$cmd\" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)\n"
    "    else\n"
    "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "        return\n"
    "    fi\n"
    "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
    "}\n"
    "complete -o filenames -F _marubatsu marubatsu\n";

/* The commands: one row each, from which --help, the short usage,
 * --commands (shell completion) and the dispatch all come; the man page's
 * synopsis is checked against --commands by tests/cli/commands.sh. */
typedef struct Command {
    const char *name;
    const char *args;                  /* what follows the name in the synopsis */
    const char *summary;               /* one line for --help */
    int (*run)(int argc, char **argv); /* commands without Lua */
    int (*run_lua)(int argc, char **argv, Host *h);
} Command;

static const Command commands[] = {
    {"run", "FILE [ARGS]", "run a Lua script (mb is the marubatsu module; ARGS in arg)", NULL,
     cmd_run},
    {"match", "AI0 AI1", "play AIs against each other, the series' match table", NULL, cmd_match},
    {"play", "", "play a game in the terminal (you against ai14s by default)", NULL, cmd_play},
    {"replay", "FILE", "step through a game saved by play's save command", NULL, cmd_replay},
    {"replay", "JOURNAL N", "show game N of a tournament journal", NULL, cmd_replay},
    {"show", "MOVES", "print the position after a list of moves (\"A1,B2,C3\")", cmd_show, NULL},
    {"perft", "", "count the game tree by depth", cmd_perft, NULL},
    {"solve", "[MOVES]", "the exact value of a position with best play", cmd_solve, NULL},
    {"tree", "", "the full game tree, its scores and best-move tables", cmd_tree, NULL},
    {"tournament", "P...", "a tournament between AIs: crosstable, Elo, journal", NULL,
     cmd_tournament},
    {"merge", "DIR...", "combine the journals of a tournament's shards", NULL, cmd_merge},
    {"tune", "AI", "tune an AI's declared parameters by self-play (SPSA, then SPRT)", NULL,
     cmd_tune},
    {"serve", "", "a browser front end: play, the game tree, results", NULL, cmd_serve},
    {"brain", "AI", "run an AI as a Gomocup brain (the protocol on stdin and stdout)", NULL,
     cmd_brain},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *f)
{
    fputs("usage: marubatsu [options] [COMMAND [ARGS...]]\n"
          "\n"
          "A tic-tac-toe (m x n, k in a row) engine and AI sandbox scripted in Lua.\n"
          "\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char head[40];
        snprintf(head, sizeof head, "%s%s%s", commands[i].name, *commands[i].args ? " " : "",
                 commands[i].args);
        fprintf(f, "  %-18s%s\n", head, commands[i].summary);
    }
    fputs("\n"
          "options (run in order, before the command):\n"
          "  -e CODE           run a chunk of Lua\n"
          "  -l MOD            require a module into the global MOD (-l NAME=MOD too)\n"
          "  -I DIR            also look for AI scripts in DIR (like MARUBATSU_PATH)\n"
          "  -i                the REPL after the options and the command\n"
          "  -E                do not run the init file (~/.marubatsurc.lua, MARUBATSU_INIT)\n"
          "  -h, --help        this help;  --version  the version\n"
          "  --commands        the command names, one a line\n"
          "  --completion      a bash completion script (make install installs it)\n"
          "\n"
          "With no command and no -e, the REPL starts (reading plainly, with no prompts,\n"
          "when stdin is not a terminal). Run 'marubatsu COMMAND --help' for a command's\n"
          "options.\n"
          "\n"
          "exit status: 0 done, 1 a run that failed (a Lua error prints its message and\n"
          "a traceback), 2 bad usage (an unknown option, command, player or value),\n"
          "130 interrupted (Ctrl-C).\n",
          f);
}

static void print_short_usage(FILE *f)
{
    fputs("usage: marubatsu [-e CODE] [-l MOD] [-I DIR] [-i] [-E] [COMMAND [ARGS...]]\n", f);
    int col = fprintf(f, "commands:");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (i > 0 && strcmp(commands[i].name, commands[i - 1].name) == 0) continue;
        int len = (int)strlen(commands[i].name) + (i + 1 < NCOMMANDS ? 1 : 0);
        if (col + 1 + len > 78) col = fprintf(f, "\n ");
        col += fprintf(f, " %s%s", commands[i].name, i + 1 < NCOMMANDS ? "," : "");
    }
    fputs("\n(marubatsu --help for more)\n", f);
}

static const Command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0) return &commands[i];
    return NULL;
}

/* The command nearest to a misspelt name, or NULL. */
static const char *near_command(const char *name)
{
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++) names[i] = commands[i].name;
    return cli_suggest(name, names, NCOMMANDS);
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
            print_usage(stdout);
            return 0;
        }
        if (strcmp(o, "--completion") == 0) {
            fputs(completion, stdout);
            return 0;
        }
        if (strcmp(o, "--commands") == 0) {
            for (size_t k = 0; k < NCOMMANDS; k++)
                if (k == 0 || strcmp(commands[k].name, commands[k - 1].name) != 0)
                    puts(commands[k].name);
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
            static const char *const known[] = {"-e",         "-l",          "-I",     "-i",
                                                "-E",         "-h",          "--help", "--version",
                                                "--commands", "--completion"};
            const char *near = cli_suggest(o, known, sizeof known / sizeof known[0]);
            fprintf(stderr, "marubatsu: unknown option '%s'", o);
            if (near) fprintf(stderr, " (did you mean '%s'?)", near);
            fputc('\n', stderr);
            print_short_usage(stderr);
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
            const char *near = near_command(argv[first_command]);
            fprintf(stderr, "marubatsu: unknown command '%s'", argv[first_command]);
            if (near) fprintf(stderr, " (did you mean '%s'?)", near);
            fputc('\n', stderr);
            print_short_usage(stderr);
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
