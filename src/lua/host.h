/* host.h: running Lua for the program, without exposing lua.h to the CLI.
 *
 * A Host is one Lua state with the standard libraries, the global `mb` (the
 * marubatsu module, also package.loaded.marubatsu), and the program's way of
 * reporting errors: the message and a traceback on stderr. Every function
 * returns 0 on success and prints the error and returns 1 on failure
 * (EXIT_INTERRUPTED after a Ctrl-C: host_catch_interrupts), which is the
 * program's exit status. */
#ifndef MB_HOST_H
#define MB_HOST_H

#include <stdbool.h>

typedef struct Host Host;

/* A new Lua state with mb loaded; NULL (after printing why) on failure. */
Host *host_new(void);
/* Close the state. */
void host_free(Host *h);

/* The exit status of a run that Ctrl-C stopped (128 + SIGINT, as a shell
 * reports a program the signal killed). */
#define EXIT_INTERRUPTED 130

/* With on: from now on a Ctrl-C (SIGINT) during a call into Lua stops it: the
 * engine's searches at their next poll, Lua at its next step, with the
 * error "interrupted"; such a call prints "marubatsu: interrupted" and
 * gives EXIT_INTERRUPTED (a command's Lua may print its partial results
 * first and return that status itself). The first Ctrl-C puts back the
 * default action, so a second one ends the program at once. For -e, run,
 * match and tournament. Off (the default): SIGINT is left as it is. */
void host_catch_interrupts(Host *h, bool on);

/* -I DIR: append a directory to mb.path (searched for AI scripts). */
int host_add_path(Host *h, const char *dir);
/* -l MODULE (or -l NAME=MODULE): require it into the global MODULE (NAME). */
int host_require(Host *h, const char *spec);
/* -e CODE: run a chunk of code. */
int host_run_string(Host *h, const char *code);
/* run FILE ARGS: run a script with arg[0] = FILE, arg[1..] = ARGS (and the
 * same ARGS as the chunk's ...); arg[-1] is the program. */
int host_run_file(Host *h, const char *program, const char *file, int nargs, char **args);

/* Call mb.FUNCTION{key = value, ...} with n string pairs (the Lua side
 * converts what it needs); for subcommands written in Lua. If the call
 * returns a number, it is the exit status. */
int host_call_table(Host *h, const char *function, const char *const *keys,
                    const char *const *values, int n);

/* The interactive REPL (see l_repl.c). */
typedef struct ReplArgs {
    bool no_init; /* -E: skip ~/.marubatsurc.lua and MARUBATSU_INIT */
} ReplArgs;

/* Read-eval-print until end of input; the exit status. */
int host_repl(Host *h, const ReplArgs *r);

#endif
