/* l_repl.c: the interactive REPL of the program (host_repl in host.h).
 *
 * Reads Lua like the stock interpreter does: a line is first tried as an
 * expression ("return <line>") and its values are printed; otherwise as a
 * statement; an incomplete chunk continues on a ">> " prompt. Errors print
 * the message and a traceback, and the REPL goes on. Printing, completion
 * and help() are Lua (scripts/lib/repl.lua, loaded here, not at start-up).
 *
 * On a terminal, lines come from libedit (BSD-licensed): history in
 * ~/.marubatsu_history (MARUBATSU_HISTORY, MARUBATSU_HISTSIZE), Ctrl-R
 * search, tab completion. Ctrl-C stops a running computation, Lua through
 * a debug hook and the engine's searches through the interrupt flag
 * (host_interrupt), with the error "interrupted", and returns to the
 * prompt with the state intact; at the prompt
 * it drops the line, and a second Ctrl-C on an empty line exits, as does
 * Ctrl-D. Without a terminal, stdin is read plainly: no banner, no prompt,
 * no escape codes, and the exit status says whether the last chunk failed. */
#define _GNU_SOURCE /* sigaction, getline */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "embedded.h"
#include "l_host.h"
#include "l_util.h"

/* The state the signal handler interrupts, and what Ctrl-C did at the
 * prompt. Signal handlers can reach nothing else: these are the REPL's only
 * process globals. */
static lua_State *volatile running;
static volatile sig_atomic_t prompt_interrupted;
/* Interrupts held back (repl.guard): a Ctrl-C that comes while guarded is
 * kept in `held` instead of stopping the chunk, and given to it when the
 * guard is lifted. The Jupyter driver runs guarded but for its cells, so
 * that an interrupt can never cut its own reading of a request or writing
 * of an answer (a Lua hook fires at any instruction, even before the
 * driver's first pcall). */
static volatile sig_atomic_t guarded, held;

/* ---- Ctrl-C ---- */

/* While a chunk runs: stop it (host_interrupt: the engine's searches at
 * their next poll, Lua at its next step, both with "interrupted"); at the
 * prompt: note it for read_line. */
static void on_sigint(int sig)
{
    (void)sig;
    lua_State *L = running;
    if (L && guarded)
        held = 1;
    else if (L)
        host_interrupt(L);
    else
        prompt_interrupted = 1;
}

/* repl.guard(on): on, hold Ctrl-C back from the running chunk (and forget
 * one held before); off, let it through again, and give the chunk at once
 * a Ctrl-C that was held. */
static int l_guard(lua_State *L)
{
    if (lua_toboolean(L, 1)) {
        guarded = 1;
        held = 0;
    } else {
        guarded = 0;
        if (held) {
            held = 0;
            host_interrupt(running ? running : L);
        }
    }
    return 0;
}

/* SIGINT without restarting reads, so Ctrl-C at the prompt ends read(). */
static void catch_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

/* libedit's character source: a read() that a Ctrl-C ends with a newline
 * (the line is then thrown away). */
static int getc_interruptible(FILE *f)
{
    unsigned char c;
    for (;;) {
        ssize_t n = read(fileno(f), &c, 1);
        if (n == 1) return c;
        if (n == 0) return EOF;
        if (errno == EINTR) {
            if (prompt_interrupted) return '\n';
            continue;
        }
        return EOF;
    }
}

/* ---- Running chunks ---- */

/* Call the chunk on top with Ctrl-C armed; results stay on the stack.
 * Returns the pcall status (the message on top on failure). */
static int run_chunk(lua_State *L)
{
    int base = lua_gettop(L);
    lua_pushcfunction(L, lmb_traceback);
    lua_insert(L, base);
    mb_interrupt_clear(); /* an earlier chunk's Ctrl-C is spent */
    running = L;
    int rc = lua_pcall(L, 0, LUA_MULTRET, base);
    running = NULL;
    lua_sethook(L, NULL, 0, 0);
    if (rc != LUA_OK && mb_interrupted()) { /* "interrupted", no traceback */
        lua_pop(L, 1);
        lua_pushliteral(L, "interrupted");
    }
    mb_interrupt_clear();
    lua_remove(L, base);
    return rc;
}

/* The REPL library's function `name` (repl.lua), pushed; false if missing. */
static bool push_repl_fn(lua_State *L, const char *name)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_REPL_KEY);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
    if (lua_isfunction(L, -1)) return true;
    lua_pop(L, 1);
    return false;
}

/* Print the results above `base` through repl.show (which also sets _). */
static void show_results(lua_State *L, int base)
{
    int n = lua_gettop(L) - base;
    if (n == 0) return;
    if (!push_repl_fn(L, "show")) {
        lua_settop(L, base);
        return;
    }
    lua_insert(L, base + 1);
    mb_interrupt_clear();
    running = L;
    if (lua_pcall(L, n, 0, 0) != LUA_OK) {
        fprintf(stderr, "marubatsu: error while printing: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    running = NULL;
    lua_sethook(L, NULL, 0, 0);
    mb_interrupt_clear();
    lua_settop(L, base);
}

/* Is this compile error just an unfinished chunk? */
static bool incomplete(lua_State *L, int status)
{
    if (status != LUA_ERRSYNTAX) return false;
    size_t len;
    const char *msg = lua_tolstring(L, -1, &len);
    return len >= 5 && strcmp(msg + len - 5, "<eof>") == 0;
}

/* Compile `code` as "return code" or as it is. Pushes the chunk or the
 * error; returns the status. */
static int compile(lua_State *L, const char *code, size_t len)
{
    const char *ret = lua_pushfstring(L, "return %s;", code);
    int status = luaL_loadbuffer(L, ret, strlen(ret), "=stdin");
    lua_remove(L, -2);
    if (status == LUA_OK) return status;
    lua_pop(L, 1);
    return luaL_loadbuffer(L, code, len, "=stdin");
}

/* ---- Reading lines ---- */

typedef struct Input {
    bool tty;
    char *history; /* file, or NULL */
    int history_size;
    char *buf; /* getline's buffer, without a terminal */
    size_t cap;
} Input;

/* One line without its newline (malloc'ed), or NULL at end of input. With
 * a terminal, *interrupted tells that Ctrl-C ended it (the line then holds
 * what had been typed, to be thrown away). */
static char *read_line(Input *in, const char *prompt, bool *interrupted)
{
    *interrupted = false;
    if (in->tty) {
        prompt_interrupted = 0;
        char *line = readline(prompt);
        if (prompt_interrupted) {
            *interrupted = true;
            fputs("^C\n", stdout);
            if (!line) line = strdup("");
        }
        return line;
    }
    ssize_t n = getline(&in->buf, &in->cap, stdin);
    if (n < 0) return NULL;
    if (n > 0 && in->buf[n - 1] == '\n') in->buf[--n] = '\0';
    return strdup(in->buf);
}

/* Add a chunk to the history, and save the history at once, so that a
 * killed REPL loses nothing. */
static void remember(Input *in, const char *chunk)
{
    if (!in->tty || !*chunk) return;
    add_history(chunk);
    if (in->history) write_history(in->history);
}

/* ---- Completion (libedit calls these) ---- */

static lua_State *completing;
static char **matches_found;
static int matches_next;

static char *next_match(const char *text, int state)
{
    (void)text;
    if (state == 0) matches_next = 0;
    if (!matches_found || !matches_found[matches_next]) return NULL;
    return strdup(matches_found[matches_next++]);
}

static void free_matches(void)
{
    for (int i = 0; matches_found && matches_found[i]; i++) free(matches_found[i]);
    free(matches_found);
    matches_found = NULL;
}

/* Where a word to complete starts: after the last of these. */
static const char word_breaks[] = " \t\n\"'`@$><=;|&{}()[],+-*/%^~#.:";

/* Ask repl.complete(line_before_cursor, word) for the candidates. libedit
 * may hand over more than the last word ("g:calc_le"), so the word is cut
 * here and what came before it is put back in front of every candidate. */
static char **complete(const char *text, int start, int end)
{
    (void)start;
    lua_State *L = completing;
    free_matches();
    rl_attempted_completion_over = 1; /* never fall back to file names */
    if (!L || !push_repl_fn(L, "complete")) return NULL;
    size_t cut = strlen(text);
    while (cut > 0 && !strchr(word_breaks, text[cut - 1])) cut--;
    lua_pushlstring(L, rl_line_buffer, (size_t)end);
    lua_pushstring(L, text + cut);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
        lua_pop(L, 1);
        return NULL;
    }
    int n = (int)luaL_len(L, -1);
    matches_found = calloc((size_t)n + 1, sizeof *matches_found);
    for (int i = 0; matches_found && i < n; i++) {
        lua_geti(L, -1, i + 1);
        const char *s = lua_tostring(L, -1);
        size_t len = cut + strlen(s ? s : "") + 1;
        matches_found[i] = malloc(len);
        if (matches_found[i]) snprintf(matches_found[i], len, "%.*s%s", (int)cut, text, s ? s : "");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    rl_completion_append_character = '\0';
    return n ? rl_completion_matches(text, next_match) : NULL;
}

/* ---- Start-up ---- */

/* Run scripts/lib/repl.lua (carried in the binary) with mb as its
 * argument; keep what it returns in the registry. It defines help, reload. */
static bool load_repl_library(lua_State *L)
{
    const EmbeddedScript *e = embedded_scripts;
    while (e->name && strcmp(e->name, "lib/repl") != 0) e++;
    if (!e->name || luaL_loadbufferx(L, e->text, e->len, "=scripts/lib/repl.lua", "t") != LUA_OK) {
        fprintf(stderr, "marubatsu: the REPL library is missing or broken\n");
        lua_settop(L, 0);
        return false;
    }
    lua_getglobal(L, "mb");
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
        fprintf(stderr, "marubatsu: the REPL library failed: %s\n", lua_tostring(L, -1));
        lua_settop(L, 0);
        return false;
    }
    lua_pushcfunction(L, l_guard);
    lua_setfield(L, -2, "guard");
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_REPL_KEY);
    return true;
}

/* MARUBATSU_INIT ("@FILE" or code) or ~/.marubatsurc.lua: errors are
 * reported and the REPL starts anyway. */
static void run_init(lua_State *L)
{
    const char *init = getenv("MARUBATSU_INIT");
    char path[4096];
    int status;
    if (init && *init) {
        if (init[0] == '@')
            status = luaL_loadfilex(L, init + 1, "t");
        else
            status = luaL_loadbuffer(L, init, strlen(init), "=MARUBATSU_INIT");
    } else {
        const char *home = getenv("HOME");
        struct stat st;
        if (!home) return;
        snprintf(path, sizeof path, "%s/.marubatsurc.lua", home);
        if (stat(path, &st) != 0) return;
        status = luaL_loadfilex(L, path, "t");
    }
    if (status == LUA_OK) status = run_chunk(L);
    if (status != LUA_OK) {
        fprintf(stderr, "marubatsu: init file: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    lua_settop(L, 0);
}

static void open_history(Input *in)
{
    const char *file = getenv("MARUBATSU_HISTORY");
    const char *size = getenv("MARUBATSU_HISTSIZE");
    const char *home = getenv("HOME");
    in->history_size = size && atoi(size) > 0 ? atoi(size) : 1000;
    if (file && *file) {
        in->history = strdup(file);
    } else if (home) {
        size_t n = strlen(home) + sizeof "/.marubatsu_history";
        in->history = malloc(n);
        if (in->history) snprintf(in->history, n, "%s/.marubatsu_history", home);
    }
    stifle_history(in->history_size);
    if (in->history) {
        read_history(in->history);
    }
}

int host_repl(Host *h, const ReplArgs *r)
{
    lua_State *L = host_state(h);
    Input in = {0};
    in.tty = isatty(0) && isatty(1);
    if (!load_repl_library(L)) return 1;
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_REPL_KEY); /* help pages on a terminal */
    lua_pushboolean(L, in.tty);
    lua_setfield(L, -2, "tty");
    lua_pop(L, 1);
    if (!r->no_init) run_init(L);
    catch_sigint();
    if (in.tty) {
        rl_catch_signals = 0;
        rl_getc_function = getc_interruptible;
        rl_attempted_completion_function = complete;
        rl_basic_word_break_characters = word_breaks;
        completing = L;
        open_history(&in);
        printf("marubatsu %s (%s): help() for the API, Ctrl-D to quit\n", MB_VERSION, LUA_RELEASE);
    }
    bool failed = false, ctrl_c = false;
    for (;;) {
        bool interrupted;
        char *line = read_line(&in, "> ", &interrupted);
        if (!line) break; /* end of input */
        if (interrupted) {
            bool empty = *line == '\0';
            free(line);
            if (empty && ctrl_c) break;
            ctrl_c = empty;
            if (empty) printf("(Ctrl-C again on an empty line, or Ctrl-D, to quit)\n");
            continue;
        }
        ctrl_c = false;
        size_t len = strlen(line);
        int status = compile(L, line, len);
        /* an unfinished chunk: read more lines */
        while (incomplete(L, status)) {
            lua_pop(L, 1);
            char *more = read_line(&in, ">> ", &interrupted);
            if (!more || interrupted) {
                free(more);
                status = -1;
                break;
            }
            char *joined = malloc(len + strlen(more) + 2);
            if (!joined) {
                free(more);
                status = -1;
                break;
            }
            snprintf(joined, len + strlen(more) + 2, "%s\n%s", line, more);
            free(line);
            free(more);
            line = joined;
            len = strlen(line);
            status = compile(L, line, len);
        }
        if (status == -1) { /* Ctrl-C or end of input inside a chunk */
            free(line);
            lua_settop(L, 0);
            if (!interrupted) break;
            continue;
        }
        remember(&in, line);
        free(line);
        if (status == LUA_OK) status = run_chunk(L);
        if (status == LUA_OK) {
            show_results(L, 0);
            failed = false;
        } else {
            fprintf(stderr, "%s\n", lua_tostring(L, -1));
            failed = true;
        }
        lua_settop(L, 0);
        fflush(stdout);
    }
    if (in.tty) {
        putchar('\n');
        if (in.history) history_truncate_file(in.history, in.history_size);
    }
    completing = NULL;
    free_matches();
    free(in.history);
    free(in.buf);
    return failed ? 1 : 0;
}
