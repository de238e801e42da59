/* cmd_brain.c: `marubatsu brain AI`: an AI as a Gomocup (Piskvork) brain on
 * stdin/stdout. The protocol loop is Lua (scripts/lib/gomocup_brain.lua);
 * this file reads the options and guards stdout: the real stdout is handed
 * to Lua as a descriptor and fd 1 then points at stderr, so nothing but
 * protocol lines can reach the manager. */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "mberror.h"

static const char usage[] =
    "usage: marubatsu [options] brain AI [options]\n"
    "Speak the Gomocup (Piskvork) protocol on stdin/stdout as a brain playing AI:\n"
    "a built-in name (ai14s, mcts, ...: NAME:key=value passes parameters) or a Lua\n"
    "file, which runs in the sandbox. Managers and GUIs (Piskvork, GomocupJudge,\n"
    "marubatsu tournament with brain:COMMAND players) can then run it.\n"
    "\n"
    "The board comes from START N or RECTSTART W,H (each side 1..32). The AI\n"
    "thinks in a child process; a move is always sent within timeout_turn and\n"
    "the time_left share of timeout_match: when the AI is late, a fallback move\n"
    "(win, block, or next to the stones) is sent and a MESSAGE line says so.\n"
    "INFO rule 1 (exactly five) switches to the exact rule, 0 back to freestyle;\n"
    "renju (4) or a continuous game (2) is answered with ERROR. Only protocol\n"
    "lines go to stdout; the AI's prints and any logs go to stderr.\n"
    "\n"
    "options:\n"
    "  --k K           stones in a row to win (default 5)\n"
    "  --rule RULE     freestyle (k or more wins; the default) or exact (exactly\n"
    "                  k), until an INFO rule says otherwise\n"
    "  --margin MS     safety margin kept from each deadline (default 30)\n"
    "  --name NAME     the name in ABOUT (default: the AI's)\n"
    "  --no-sandbox    run a Lua file AI without the sandbox (trusted code)\n"
    "  --seed S        seed the random stream (as match --seed): the same moves\n"
    "                  for the same commands\n"
    "  --debug         a DEBUG line with the thinking time before each move\n"
    "  --help          show this help\n"
    "\n"
    "example:  printf 'START 15\\nBEGIN\\nEND\\n' | marubatsu brain ai14s\n";

enum {
    OPT_K_ = 1,
    OPT_RULE_,
    OPT_MARGIN,
    OPT_NAME,
    OPT_NO_SANDBOX,
    OPT_SEED,
    OPT_DEBUG,
    OPT_HELP_
};

int cmd_brain(int argc, char **argv, Host *h)
{
    static const CliOption opts[] = {{.name = "k", .has_arg = true, .id = OPT_K_},
                                     {.name = "rule", .has_arg = true, .id = OPT_RULE_},
                                     {.name = "margin", .has_arg = true, .id = OPT_MARGIN},
                                     {.name = "name", .has_arg = true, .id = OPT_NAME},
                                     {.name = "no-sandbox", .has_arg = false, .id = OPT_NO_SANDBOX},
                                     {.name = "seed", .has_arg = true, .id = OPT_SEED},
                                     {.name = "debug", .has_arg = false, .id = OPT_DEBUG},
                                     {.name = "help", .has_arg = false, .id = OPT_HELP_},
                                     {0}};
    CliArgs a = cli_args(argc, argv);
    CliPairs p = {0};
    const char *arg = NULL;
    const char *ai = NULL;
    int n;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP_: fputs(usage, stdout); return 0;
        case OPT_K_:
            if (!cli_int(a.cmd, "--k", arg, 1, 32, &n)) return EXIT_USAGE;
            cli_put(&p, "k", arg);
            break;
        case OPT_RULE_: {
            char err[160];
            bool exact;
            if (geometry_rule_parse(arg, &exact, err, sizeof err) != MB_OK) {
                cli_error(a.cmd, "%s", err);
                return EXIT_USAGE;
            }
            cli_put(&p, "rule", geometry_rule_name(exact));
            break;
        }
        case OPT_MARGIN:
            if (!cli_int(a.cmd, "--margin", arg, 0, 60000, &n)) return EXIT_USAGE;
            cli_put(&p, "margin", arg);
            break;
        case OPT_NAME: cli_put(&p, "name", arg); break;
        case OPT_NO_SANDBOX: cli_put(&p, "sandbox", "0"); break;
        case OPT_DEBUG: cli_put(&p, "debug", "1"); break;
        case OPT_SEED: {
            const char *q = arg + (*arg == '-' || *arg == '+');
            bool digits = *q != '\0';
            for (; *q; q++) digits = digits && *q >= '0' && *q <= '9';
            if (!digits) {
                cli_error(a.cmd, "--seed must be an integer, not '%s'", arg);
                return EXIT_USAGE;
            }
            cli_put(&p, "seed", arg);
            break;
        }
        case CLI_POSITIONAL:
            if (ai) {
                cli_error(a.cmd, "one AI expected, got a second: '%s'", arg);
                return EXIT_USAGE;
            }
            ai = arg;
            break;
        default: return EXIT_USAGE;
        }
    }
    if (!ai) {
        cli_error(a.cmd, "an AI is needed, e.g. marubatsu brain ai14s (see --help)");
        return EXIT_USAGE;
    }
    cli_put(&p, "ai", ai);
    fflush(stdout);
    int proto = dup(1);
    if (proto < 0 || dup2(2, 1) < 0) {
        cli_error(a.cmd, "cannot set up stdout");
        return 1;
    }
    char fd[16];
    snprintf(fd, sizeof fd, "%d", proto);
    cli_put(&p, "fd", fd);
    return host_call_table(h, "brain_main", p.keys, p.values, p.n);
}
