/* cmd_serve.c: `marubatsu serve`, the browser front end: an HTTP server on
 * libmicrohttpd serving one page (web/, embedded at build time) and a JSON
 * API: the tree explorer in C (serve_tree.c), games, AIs, tournament
 * results and a tune run followed in Lua (l_serve.c, scripts/lib/serve.lua).
 *
 * Threads and processes: libmicrohttpd runs one internal polling thread,
 * which answers every request, so the Lua state is only ever used from
 * that thread. No AI runs there: a request that needs one (a move, a hint)
 * becomes a job, its connection is suspended, and a pool thread has a
 * worker process compute it (serve_pool.c), killing the worker when the
 * AI outlives its limit (--builtin-time, or a sandboxed AI's --time) by
 * SERVE_SLACK; the pool thread then resumes the connection and the
 * server thread finishes the reply. So a long or stuck AI delays only its
 * own request. The main thread waits for SIGINT or SIGTERM, ends the jobs
 * and the workers, and stops the daemon: at once, whatever an AI is doing
 * (and past STOP_GRACE it exits regardless).
 *
 * The HTTP side (requests, their checks, connection limits, the jobs a
 * request becomes) is serve_http.c; this file is the command: its
 * options, the socket, the workers' command line, the stop. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <microhttpd.h>

#include "cli.h"
#include "serve_http.h"

#define MAX_AI_FILES 32
#define STOP_GRACE   4.0 /* seconds a stop may take before the process just exits */

static const char serve_usage[] =
    "usage: marubatsu [options] serve [options]\n"
    "A browser front end: play against any AI, explore the 3x3 game tree, read\n"
    "a tournament's results, follow a tune run. Prints the address to open and\n"
    "serves until Ctrl-C.\n"
    "\n"
    "options:\n"
    "  --port P                the TCP port (default 8080; 0 picks a free one)\n"
    "  --host H                the address to listen on (default 127.0.0.1; only\n"
    "                          loopback is safe: the server has no passwords)\n"
    "  --allow-host NAME       also accept requests addressed to NAME (the Host\n"
    "                          header, e.g. a machine name when --host 0.0.0.0);\n"
    "                          repeatable\n"
    "  --results DIR           show the tournament results in DIR (a tournament's\n"
    "                          --out: results.json and journal.tsv)\n"
    "  --tune DIR              follow the tune run writing to DIR (a tune's --out:\n"
    "                          tune.tsv, summary.json, confirm/): its parameters'\n"
    "                          trajectories and the confirmation, as they grow\n"
    "  --ai FILE               offer the AI script FILE to play against, run in\n"
    "                          the sandbox with its budgets; repeatable\n"
    "  --ai brain:COMMAND[:key=value,...]\n"
    "                          offer a Gomocup brain (as in a tournament; name=\n"
    "                          names it), started for each move; the page shows\n"
    "                          its MESSAGE and DEBUG lines\n"
    "  --time S, --memory BYTES\n"
    "                          per-move budgets of sandboxed AIs (defaults: 1 s,\n"
    "                          64 MiB; 0 turns one off)\n"
    "  --instructions N        also stop a sandboxed AI's move after N Lua\n"
    "                          instructions (default: off)\n"
    "  --builtin-time S        the time limit of a built-in AI's move or hint\n"
    "                          (default 5)\n"
    "  --workers N             AI worker processes (default 2, at most 16): every\n"
    "                          AI runs in one, which is killed and restarted if\n"
    "                          the AI outlives its limit by 0.5 s (the request\n"
    "                          gets 504); other requests are answered meanwhile\n"
    "  --connections N         connections at once (default 256)\n"
    "  --client-connections N  connections at once from one address (default\n"
    "                          32); past a limit, the oldest connection that is\n"
    "                          not being answered is closed to make room\n"
    "  --connection-timeout S  close a connection idle this long (default 10)\n"
    "  --max-games N           games kept at once (default 64): the least recently\n"
    "                          used one is dropped to make room\n"
    "  --idle SECONDS          drop a game untouched this long (default 1800)\n"
    "  --help                  show this help\n"
    "\n"
    "Built-in AIs and those found by name in -I directories and MARUBATSU_PATH\n"
    "are offered too (names outside the built-in scripts run sandboxed). The\n"
    "browser only chooses among these: nothing it sends is run as Lua.\n"
    "\n"
    "exit status: 0 after Ctrl-C (SIGINT) or SIGTERM, 1 if the server cannot\n"
    "start (the port is taken) or a stop takes over 4 s, 2 on bad options.\n";

enum {
    OPT_PORT = 1,
    OPT_HOST,
    OPT_ALLOW,
    OPT_RESULTS,
    OPT_TUNE,
    OPT_AI,
    OPT_MAX_GAMES,
    OPT_IDLE,
    OPT_BUILTIN_TIME,
    OPT_WORKERS,
    OPT_CONNECTIONS,
    OPT_CLIENT_CONNECTIONS,
    OPT_CONNECTION_TIMEOUT,
    OPT_WORKER
};

/* ---- the command ---- */

typedef struct ServeArgs {
    int port;
    const char *host;
    const char *allow[MAX_ALLOWED];
    int nallow;
    ServeConfig config;
    const char *ai_files[MAX_AI_FILES];
    int workers, connections, client_connections, connection_timeout;
    int worker_of; /* --worker PID: run as that server's AI worker */
} ServeArgs;

/* A number of seconds > 0 (at most a day). */
static bool seconds_arg(const char *cmd, const char *what, const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v > 0) || v > 86400) {
        cli_error(cmd, "%s must be a number of seconds > 0 (at most 86400), not '%s'", what, text);
        return false;
    }
    *out = v;
    return true;
}

/* 0 to go on, else the exit status (help printed: -1 means exit 0). */
static int parse_args(int argc, char **argv, ServeArgs *sa)
{
    static const CliOption opts[] = {
        {.name = "port", .has_arg = true, .id = OPT_PORT},
        {.name = "host", .has_arg = true, .id = OPT_HOST},
        {.name = "allow-host", .has_arg = true, .id = OPT_ALLOW},
        {.name = "results", .has_arg = true, .id = OPT_RESULTS},
        {.name = "tune", .has_arg = true, .id = OPT_TUNE},
        {.name = "ai", .has_arg = true, .id = OPT_AI},
        {.name = "max-games", .has_arg = true, .id = OPT_MAX_GAMES},
        {.name = "idle", .has_arg = true, .id = OPT_IDLE},
        {.name = "time", .has_arg = true, .id = OPT_PLAYER_TIME},
        {.name = "instructions", .has_arg = true, .id = OPT_PLAYER_INSTR},
        {.name = "memory", .has_arg = true, .id = OPT_PLAYER_MEMORY},
        {.name = "builtin-time", .has_arg = true, .id = OPT_BUILTIN_TIME},
        {.name = "workers", .has_arg = true, .id = OPT_WORKERS},
        {.name = "connections", .has_arg = true, .id = OPT_CONNECTIONS},
        {.name = "client-connections", .has_arg = true, .id = OPT_CLIENT_CONNECTIONS},
        {.name = "connection-timeout", .has_arg = true, .id = OPT_CONNECTION_TIMEOUT},
        {.name = "worker", .has_arg = true, .id = OPT_WORKER},
        {.name = "help", .has_arg = false, .id = OPT_HELP},
        {0}};
    CliArgs a = cli_args(argc, argv);
    const char *arg = NULL;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP: fputs(serve_usage, stdout); return -1;
        case OPT_PORT:
            if (!cli_int(a.cmd, "--port", arg, 0, 65535, &sa->port)) return EXIT_USAGE;
            break;
        case OPT_HOST: sa->host = arg; break;
        case OPT_ALLOW:
            if (sa->nallow == MAX_ALLOWED - 3 || !*arg || strlen(arg) > 250) {
                cli_error(a.cmd, "--allow-host takes a name of at most 250 bytes, at most %d times",
                          MAX_ALLOWED - 3);
                return EXIT_USAGE;
            }
            sa->allow[sa->nallow++] = arg;
            break;
        case OPT_RESULTS: sa->config.results = arg; break;
        case OPT_TUNE: sa->config.tune = arg; break;
        case OPT_AI:
            if (sa->config.n_ai_files == MAX_AI_FILES) {
                cli_error(a.cmd, "at most %d --ai files", MAX_AI_FILES);
                return EXIT_USAGE;
            }
            sa->ai_files[sa->config.n_ai_files++] = arg;
            break;
        case OPT_MAX_GAMES:
            if (!cli_int(a.cmd, "--max-games", arg, 1, 100000, &sa->config.max_games))
                return EXIT_USAGE;
            break;
        case OPT_IDLE:
            if (!cli_int(a.cmd, "--idle", arg, 1, 30 * 86400, &sa->config.idle_seconds))
                return EXIT_USAGE;
            break;
        case OPT_BUILTIN_TIME:
            if (!seconds_arg(a.cmd, "--builtin-time", arg, &sa->config.builtin_time))
                return EXIT_USAGE;
            break;
        case OPT_WORKERS:
            if (!cli_int(a.cmd, "--workers", arg, 1, 16, &sa->workers)) return EXIT_USAGE;
            break;
        case OPT_CONNECTIONS:
            if (!cli_int(a.cmd, "--connections", arg, 1, 100000, &sa->connections))
                return EXIT_USAGE;
            break;
        case OPT_CLIENT_CONNECTIONS:
            if (!cli_int(a.cmd, "--client-connections", arg, 1, 100000, &sa->client_connections))
                return EXIT_USAGE;
            break;
        case OPT_CONNECTION_TIMEOUT:
            if (!cli_int(a.cmd, "--connection-timeout", arg, 1, 86400, &sa->connection_timeout))
                return EXIT_USAGE;
            break;
        case OPT_WORKER:
            if (!cli_int(a.cmd, "--worker", arg, 1, 0x7fffffff, &sa->worker_of)) return EXIT_USAGE;
            break;
        case OPT_PLAYER_TIME:
        case OPT_PLAYER_INSTR:
        case OPT_PLAYER_MEMORY: {
            static const char *const names[] = {"time", "instructions", "memory"};
            double *budget[] = {&sa->config.time, &sa->config.instructions, &sa->config.memory};
            if (!cli_budget(a.cmd, names[id - OPT_PLAYER_TIME], arg)) return EXIT_USAGE;
            *budget[id - OPT_PLAYER_TIME] = strtod(arg, NULL);
            break;
        }
        default: /* CLI_POSITIONAL */
            cli_error(a.cmd, "unexpected argument '%s' (see --help)", arg);
            return EXIT_USAGE;
        }
    }
    /* a sandboxed AI's move must end: without a time budget, only an
     * instruction budget bounds it */
    if (sa->config.time == 0 && !(sa->config.instructions > 0)) {
        cli_error(a.cmd,
                  "--time 0 needs --instructions N: a sandboxed AI's move must have a bound");
        return EXIT_USAGE;
    }
    return 0;
}

/* Resolve --host (a numeric address or a name) into addr. */
static bool resolve(const char *host, int port, struct sockaddr_storage *addr, bool *v6)
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host, service, &hints, &res);
    if (rc != 0) {
        cli_error("serve", "cannot use --host '%s': %s", host, gai_strerror(rc));
        return false;
    }
    memcpy(addr, res->ai_addr, res->ai_addrlen);
    *v6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);
    return true;
}

static bool is_loopback(const struct sockaddr_storage *addr, bool v6)
{
    if (v6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)addr)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(a);
    }
    uint32_t a = ntohl(((const struct sockaddr_in *)addr)->sin_addr.s_addr);
    return (a >> 24) == 127;
}

/* The worker's command line: this process's own (/proc/self/cmdline: the
 * options before `serve` run again in the worker, so that it has the same
 * AIs) with --worker PID added; NULL if it cannot be read. One malloc'ed
 * block: the pointers, then the text. */
static char **worker_argv(void)
{
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f) return NULL;
    Buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&b, chunk, n);
    fclose(f);
    char pid[32];
    int plen = snprintf(pid, sizeof pid, "--worker%c%ld", '\0', (long)getpid());
    buf_add(&b, pid, (size_t)plen + 1);
    if (b.oom || b.len < 2) {
        buf_free(&b);
        return NULL;
    }
    size_t count = 0;
    for (size_t i = 0; i < b.len; i++) count += b.p[i] == '\0';
    char **argv = malloc((count + 1) * sizeof *argv + b.len);
    if (!argv) {
        buf_free(&b);
        return NULL;
    }
    char *text = (char *)(argv + count + 1);
    memcpy(text, b.p, b.len);
    buf_free(&b);
    size_t k = 0;
    for (char *q = text; k < count; q += strlen(q) + 1) argv[k++] = q;
    argv[count] = NULL;
    return argv;
}

/* Room for the connections: the soft limit of open files raised as far as
 * needed (up to the hard one); false after saying why. */
static bool enough_files(int connections)
{
    rlim_t need = (rlim_t)connections + CONN_MARGIN + 64;
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur >= need) return true;
    if (r.rlim_max == RLIM_INFINITY || r.rlim_max >= need) {
        r.rlim_cur = need;
        if (setrlimit(RLIMIT_NOFILE, &r) == 0) return true;
    }
    cli_error("serve",
              "--connections %d needs %lu open files, and this process may open only %lu "
              "(ulimit -n)",
              connections, (unsigned long)need, (unsigned long)r.rlim_max);
    return false;
}

/* As a worker: the AI catalogue, then jobs on descriptor 3, answers on 4. */
static int run_worker(ServeArgs *sa, Host *h)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* ends with the server */
#endif
    if (getppid() != (pid_t)sa->worker_of) return 1; /* the server is gone already */
    sa->config.worker = true;
    if (host_serve_open(h, &sa->config)) return 1;
    return host_serve_worker(h, 3, 4);
}

/* Past STOP_GRACE after a stop began, exit whatever is still running. */
static void *stop_backstop(void *arg)
{
    (void)arg;
    struct timespec t = {(time_t)STOP_GRACE, (long)((STOP_GRACE - (time_t)STOP_GRACE) * 1e9)};
    nanosleep(&t, NULL);
    static const char msg[] = "marubatsu serve: the stop took over 4 s: exiting now\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
    return NULL;
}

int cmd_serve(int argc, char **argv, Host *h)
{
    ServeArgs sa = {.port = 8080,
                    .host = "127.0.0.1",
                    .workers = 2,
                    .connections = 256,
                    .client_connections = 32,
                    .connection_timeout = 10};
    sa.config.max_games = 64;
    sa.config.idle_seconds = 1800;
    sa.config.builtin_time = 5;
    sa.config.time = sa.config.instructions = sa.config.memory = -1; /* the defaults */
    int rc = parse_args(argc, argv, &sa);
    if (rc) return rc < 0 ? 0 : rc;
    sa.config.ai_files = sa.ai_files;
    if (sa.worker_of) return run_worker(&sa, h);

    struct sockaddr_storage addr;
    bool v6;
    if (!resolve(sa.host, sa.port, &addr, &v6)) return EXIT_USAGE;
    if (!enough_files(sa.connections)) return EXIT_USAGE;
    if (host_serve_open(h, &sa.config)) return 1;
    char **wargv = worker_argv();
    if (!wargv) {
        cli_error("serve", "cannot read this process's command line (/proc/self/cmdline)");
        return 1;
    }

    /* the socket first, so that the names it answers to are known before
     * any request can arrive (with --port 0 the port is the kernel's) */
    int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t alen = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, alen) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &alen) != 0) {
        cli_error("serve", "cannot listen on %s port %d: %s", sa.host, sa.port, strerror(errno));
        if (fd >= 0) close(fd);
        free(wargv);
        return 1;
    }
    int port = ntohs(v6 ? ((struct sockaddr_in6 *)&addr)->sin6_port
                        : ((struct sockaddr_in *)&addr)->sin_port);
    Server s = {.h = h, .max_conns = sa.connections, .max_client_conns = sa.client_connections};
    serve_trees_init(&s.trees);
    pthread_mutex_init(&s.lock, NULL);
    char numeric[INET6_ADDRSTRLEN];
    if (v6)
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&addr)->sin6_addr, numeric, sizeof numeric);
    else
        inet_ntop(AF_INET, &((struct sockaddr_in *)&addr)->sin_addr, numeric, sizeof numeric);
    serve_http_allow(&s, numeric, port);
    bool loop = is_loopback(&addr, v6);
    if (loop || strcmp(numeric, "0.0.0.0") == 0 || strcmp(numeric, "::") == 0) {
        serve_http_allow(&s, "localhost", port);
        serve_http_allow(&s, v6 ? "::1" : "127.0.0.1", port);
    }
    if (strcmp(sa.host, numeric) != 0) serve_http_allow(&s, sa.host, port);
    for (int i = 0; i < sa.nallow; i++) serve_http_allow(&s, sa.allow[i], port);

    /* the signals are taken by sigwait below, in every thread; a worker
     * that dies while written to is seen as an error, not SIGPIPE */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* the pool before the daemon (its workers start with the first game:
     * serve_pool_warm) */
    s.pool = serve_pool_start(sa.workers, wargv, serve_http_job_done, &s);
    s.pool_open = s.pool != NULL;
    if (!s.pool) fprintf(stderr, "marubatsu serve: warning: no AI worker could start\n");
    struct MHD_Daemon *d = serve_http_start(&s, fd, v6, sa.connections, sa.connection_timeout);
    if (!d) {
        cli_error("serve", "libmicrohttpd could not start on %s port %d", sa.host, port);
        serve_pool_free(s.pool);
        pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
        serve_trees_free(&s.trees);
        pthread_mutex_destroy(&s.lock);
        close(fd);
        free(wargv);
        return 1;
    }
    if (!loop)
        fprintf(stderr,
                "marubatsu serve: warning: listening on %s, not loopback: anyone who can "
                "reach this port can use the server\n",
                numeric);
    printf("marubatsu serve: http://%s/ (Ctrl-C stops)\n", s.allowed[0]);
    fflush(stdout);
    /* the tree view's default tree, built while the first page loads, so
     * that its first answer does not wait for it */
    serve_trees_prebuild(&s.trees, SCORING_SV);

    int sig = 0;
    sigwait(&stop, &sig);
    pthread_t backstop;
    bool watched = pthread_create(&backstop, NULL, stop_backstop, NULL) == 0;
    /* every job ends (its connection resumed) before the daemon stops */
    pthread_mutex_lock(&s.lock);
    s.pool_open = false;
    pthread_mutex_unlock(&s.lock);
    serve_pool_stop(s.pool);
    MHD_stop_daemon(d);      /* closes fd too */
    serve_pool_free(s.pool); /* only now: a request thread may read it until the daemon stops */
    if (watched) {
        pthread_cancel(backstop);
        pthread_join(backstop, NULL);
    }
    serve_trees_free(&s.trees);
    pthread_mutex_destroy(&s.lock);
    free(wargv);
    pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
    printf("marubatsu serve: stopped (%s)\n", sig == SIGINT ? "Ctrl-C" : "SIGTERM");
    return 0;
}
