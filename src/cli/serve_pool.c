/* serve_pool.c: the AI workers of `marubatsu serve` (serve.h). Every AI
 * call of the server (a move or a hint) runs in a worker process: the
 * program itself started again with the server's command line and the
 * hidden option --worker (cmd_serve.c), so that it holds the same AI
 * catalogue and budgets, reading jobs on descriptor 3 and writing answers
 * on descriptor 4 (l_serve.c). One pool thread per worker takes jobs from a
 * queue in order, sends each to its worker and waits for the answer until
 * the job's limit plus SERVE_SLACK. Past that, or when the worker dies, the
 * thread kills it (SIGKILL, to its process group), answers the job "time"
 * or "crash" and starts a new worker, whatever the computation was doing
 * inside C: the server's own thread never waits for an AI.
 *
 * A message on the pipes is a 4-byte big-endian length and that many
 * bytes. A new worker first sends "ready"; the job's clock starts when it
 * is written, so the start of a worker (about 0.1 s, more under a
 * sanitizer) does not count against the AI's time. An empty message is a
 * ping, answered at once with an empty message without running any Lua:
 * a worker is pinged before each job, so that one which died while idle
 * (killed from outside) is replaced before the job, not blamed for it
 * (waitpid does not always see its death yet: a big process takes a while
 * to end after SIGKILL). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h" /* clock_now */
#include "serve_pool.h"

extern char **environ;

#define MAX_WORKERS   16
#define START_SECONDS 60.0              /* a new worker must say "ready" within this */
#define PING_SECONDS  10.0              /* an idle worker answers a ping within this */
#define MAX_ANSWER    (4 * 1024 * 1024) /* bytes in one answer */

typedef struct Slot {
    struct ServePool *pool;
    pthread_t thread;
    pid_t pid;         /* the worker, or 0 */
    int to, from;      /* our ends of its pipes */
    bool start_failed; /* the last start failed: try again at the next job only */
    char start_error[160];
} Slot;

struct ServePool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    ServeJob *head, *tail; /* queued jobs */
    bool stopping;
    bool stopped;     /* serve_pool_stop has run (the main thread's own flag) */
    bool warm;        /* start the workers before their first job */
    int stop_pipe[2]; /* written once at stop: every wait polls its read end */
    char **argv;      /* the worker's command line */
    void (*done)(ServeJob *, void *);
    void *cls;
    int n;
    Slot slot[MAX_WORKERS];
};

static void set_cloexec(int fd) { fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC); }

/* A descriptor of ours above 4, close-on-exec (the worker's ends are
 * moved to 3 and 4: a source already there would keep its close-on-exec
 * flag through dup2 and be closed at exec). */
static int high_fd(int fd)
{
    if (fd > 4) return fd;
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 5);
    close(fd);
    return h;
}

/* ---- Messages ---- */

/* Wait until fd is ready for `events`, the stop pipe is readable or the
 * deadline passes: 1 ready, 0 deadline, -2 stop. */
static int wait_fd(ServePool *p, int fd, short events, double deadline)
{
    for (;;) {
        double left = deadline - clock_now();
        if (left <= 0) return 0;
        struct pollfd f[2] = {{fd, events, 0}, {p->stop_pipe[0], POLLIN, 0}};
        int ms = left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1;
        int rc = poll(f, 2, ms);
        if (rc < 0 && errno != EINTR) return 1; /* let the read or write see the error */
        if (rc <= 0) continue;
        if (f[1].revents) return -2;
        if (f[0].revents) return 1;
    }
}

/* Read exactly n bytes: 1, 0 deadline, -1 end or error, -2 stop. */
static int read_full(ServePool *p, int fd, char *buf, size_t n, double deadline)
{
    size_t got = 0;
    while (got < n) {
        int w = wait_fd(p, fd, POLLIN, deadline);
        if (w <= 0) return w;
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 1;
}

static int write_full(ServePool *p, int fd, const char *buf, size_t n, double deadline)
{
    size_t put = 0;
    while (put < n) {
        int w = wait_fd(p, fd, POLLOUT, deadline);
        if (w <= 0) return w;
        ssize_t r = write(fd, buf + put, n - put);
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (r <= 0) return -1;
        put += (size_t)r;
    }
    return 1;
}

/* One message into *out (malloc'ed, NUL-terminated): as read_full, and -3
 * for a message over MAX_ANSWER or out of memory. */
static int read_message(ServePool *p, int fd, double deadline, char **out, size_t *len)
{
    unsigned char h[4];
    int rc = read_full(p, fd, (char *)h, 4, deadline);
    if (rc != 1) return rc;
    size_t n = (size_t)h[0] << 24 | (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
    if (n > MAX_ANSWER) return -3;
    char *b = malloc(n + 1);
    if (!b) return -3;
    rc = read_full(p, fd, b, n, deadline);
    if (rc != 1) {
        free(b);
        return rc;
    }
    b[n] = '\0';
    *out = b;
    *len = n;
    return 1;
}

static int write_message(ServePool *p, int fd, const char *s, size_t n, double deadline)
{
    unsigned char h[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                          (unsigned char)(n >> 8), (unsigned char)n};
    int rc = write_full(p, fd, (const char *)h, 4, deadline);
    return rc == 1 ? write_full(p, fd, s, n, deadline) : rc;
}

/* ---- Workers ---- */

/* Kill the worker and its process group, reap it, close the pipes; the
 * way it ended into why (when given). */
static void end_worker(Slot *s, bool kill_it, char *why, size_t whylen)
{
    if (!s->pid) return;
    if (kill_it) {
        kill(-s->pid, SIGKILL);
        kill(s->pid, SIGKILL);
    }
    close(s->to);
    close(s->from);
    int status = 0;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
    if (why && whylen) {
        if (WIFSIGNALED(status))
            snprintf(why, whylen, "its worker process died (signal %d)", WTERMSIG(status));
        else
            snprintf(why, whylen, "its worker process ended (exit status %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    s->pid = 0;
    s->to = s->from = -1;
}

/* Start a worker and wait for its "ready": true, or false with
 * s->start_error set (or when stopping). */
static bool start_worker(Slot *s)
{
    ServePool *p = s->pool;
    int down[2], up[2];
    if (pipe(down) != 0) goto fail_errno;
    if (pipe(up) != 0) {
        close(down[0]), close(down[1]);
        goto fail_errno;
    }
    for (int i = 0; i < 2; i++) down[i] = high_fd(down[i]), up[i] = high_fd(up[i]);
    set_cloexec(down[0]), set_cloexec(down[1]), set_cloexec(up[0]), set_cloexec(up[1]);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, down[0], 3);
    posix_spawn_file_actions_adddup2(&fa, up[1], 4);
    posix_spawnattr_init(&at);
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGINT);
    sigaddset(&dflt, SIGTERM);
    sigaddset(&dflt, SIGPIPE);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &dflt);
    posix_spawnattr_setpgroup(&at, 0); /* its own group: Ctrl-C reaches the server only */
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, &at, p->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(down[0]);
    close(up[1]);
    if (rc != 0) {
        close(down[1]), close(up[0]);
        snprintf(s->start_error, sizeof s->start_error, "cannot start a worker: %s", strerror(rc));
        return false;
    }
    s->pid = pid;
    s->to = down[1];
    s->from = up[0];
    char *msg = NULL;
    size_t len = 0;
    rc = read_message(p, s->from, clock_now() + START_SECONDS, &msg, &len);
    bool ready = rc == 1 && len == 5 && memcmp(msg, "ready", 5) == 0;
    free(msg);
    if (ready) return true;
    char why[120] = "";
    end_worker(s, true, rc == -1 ? why : NULL, sizeof why);
    snprintf(s->start_error, sizeof s->start_error, "its worker did not start%s%s",
             rc == 0 ? " within 60 s"
             : *why  ? ": "
                     : "",
             why);
    return false;
fail_errno:
    snprintf(s->start_error, sizeof s->start_error, "cannot start a worker: %s", strerror(errno));
    return false;
}

/* Ping the slot's worker: 1 answered, 0 no answer in time, -1 gone, -2
 * stopping. */
static int ping(Slot *s)
{
    ServePool *p = s->pool;
    double deadline = clock_now() + PING_SECONDS;
    int rc = write_message(p, s->to, "", 0, deadline);
    char *msg = NULL;
    size_t len = 0;
    if (rc == 1) rc = read_message(p, s->from, deadline, &msg, &len);
    free(msg);
    if (rc == 1 && len != 0) rc = -1; /* not a ping's answer: not to be trusted */
    return rc == -3 ? -1 : rc;
}

/* Run one job on the slot's worker (started if needed). */
static void run_job(Slot *s, ServeJob *j)
{
    ServePool *p = s->pool;
    /* a worker that ended while idle (killed from outside) is replaced */
    if (s->pid) {
        int rc = ping(s);
        if (rc == -2) {
            j->outcome = JOB_STOPPING;
            end_worker(s, true, NULL, 0);
            return;
        }
        if (rc != 1) end_worker(s, true, NULL, 0);
    }
    if (!s->pid && !start_worker(s)) {
        s->start_failed = true;
        j->outcome = JOB_CRASH;
        snprintf(j->why, sizeof j->why, "%s", s->start_error);
        return;
    }
    s->start_failed = false;
    double deadline = clock_now() + j->limit + SERVE_SLACK;
    int rc = write_message(p, s->to, j->spec, j->len, deadline);
    if (rc == 1) rc = read_message(p, s->from, deadline, &j->answer, &j->answer_len);
    switch (rc) {
    case 1: j->outcome = JOB_OK; return;
    case 0:
        j->outcome = JOB_TIME;
        end_worker(s, true, NULL, 0);
        return;
    case -2:
        j->outcome = JOB_STOPPING;
        end_worker(s, true, NULL, 0);
        return;
    case -3:
        j->outcome = JOB_CRASH;
        snprintf(j->why, sizeof j->why, "its worker sent an answer over %d bytes", MAX_ANSWER);
        end_worker(s, true, NULL, 0);
        return;
    default:
        j->outcome = JOB_CRASH;
        end_worker(s, true, j->why, sizeof j->why);
        return;
    }
}

/* The next job, or NULL when stopping; returns early (NULL, *warm set)
 * when the workers should start and s has none. */
static ServeJob *take(ServePool *p, const Slot *s, bool *warm)
{
    pthread_mutex_lock(&p->lock);
    *warm = false;
    while (!p->stopping && !p->head) {
        if (p->warm && !s->pid && !s->start_failed) {
            *warm = true;
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        pthread_cond_wait(&p->wake, &p->lock);
    }
    ServeJob *j = NULL;
    if (!p->stopping) {
        j = p->head;
        p->head = j->next;
        if (!p->head) p->tail = NULL;
        j->next = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    return j;
}

static void *slot_main(void *arg)
{
    Slot *s = arg;
    ServePool *p = s->pool;
    for (;;) {
        /* once warm, a worker is ready before the job comes (again at once
         * after a kill) */
        bool warm;
        ServeJob *j = take(p, s, &warm);
        if (warm) {
            s->start_failed = !start_worker(s);
            continue;
        }
        if (!j) break;
        run_job(s, j);
        p->done(j, p->cls);
    }
    end_worker(s, true, NULL, 0);
    return NULL;
}

/* ---- The pool ---- */

ServePool *serve_pool_start(int n, char **argv, void (*done)(ServeJob *, void *), void *cls)
{
    if (n < 1) n = 1;
    if (n > MAX_WORKERS) n = MAX_WORKERS;
    ServePool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (pipe(p->stop_pipe) != 0) {
        free(p);
        return NULL;
    }
    set_cloexec(p->stop_pipe[0]), set_cloexec(p->stop_pipe[1]);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    p->argv = argv;
    p->done = done;
    p->cls = cls;
    for (int i = 0; i < n; i++) {
        Slot *s = &p->slot[i];
        s->pool = p;
        s->to = s->from = -1;
        if (pthread_create(&s->thread, NULL, slot_main, s) != 0) break;
        p->n++;
    }
    if (p->n == 0) {
        serve_pool_free(p);
        return NULL;
    }
    return p;
}

int serve_pool_size(const ServePool *p) { return p->n; }

void serve_pool_warm(ServePool *p)
{
    pthread_mutex_lock(&p->lock);
    if (!p->warm) {
        p->warm = true;
        pthread_cond_broadcast(&p->wake);
    }
    pthread_mutex_unlock(&p->lock);
}

void serve_pool_submit(ServePool *p, ServeJob *j)
{
    j->next = NULL;
    pthread_mutex_lock(&p->lock);
    bool stop = p->stopping;
    if (!stop) {
        p->warm = true;
        if (p->tail)
            p->tail->next = j;
        else
            p->head = j;
        p->tail = j;
        pthread_cond_broadcast(&p->wake);
    }
    pthread_mutex_unlock(&p->lock);
    if (stop) {
        j->outcome = JOB_STOPPING;
        p->done(j, p->cls);
    }
}

void serve_pool_stop(ServePool *p)
{
    if (!p || p->stopped) return;
    p->stopped = true;
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    ServeJob *queued = p->head;
    p->head = p->tail = NULL;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    ssize_t w = write(p->stop_pipe[1], "x", 1);
    (void)w;
    while (queued) {
        ServeJob *next = queued->next;
        queued->outcome = JOB_STOPPING;
        p->done(queued, p->cls);
        queued = next;
    }
    for (int i = 0; i < p->n; i++) pthread_join(p->slot[i].thread, NULL);
}

void serve_pool_free(ServePool *p)
{
    if (!p) return;
    serve_pool_stop(p);
    close(p->stop_pipe[0]);
    close(p->stop_pipe[1]);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
