/* brainproc.c: child processes spoken to in lines (brainproc.h).
 *
 * Pipes carry the lines; every descriptor of ours is close-on-exec, and the
 * child closes every other descriptor it inherited (a tournament worker
 * holds its journal open: a hostile brain must not reach it). An exec
 * failure travels back on a close-on-exec status pipe, so spawn reports
 * "cannot run" at once instead of a silent end of output later. */
#include "brainproc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "mberror.h"
#include "search.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return MB_EIO;
}

double brainproc_now_ms(void) { return search_now() * 1000.0; }

void brainproc_clear(BrainProc *p)
{
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = -1;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

static void cloexec(int fd) { fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC); }

/* Two pipes, all four ends close-on-exec. */
static int make_pipes(int down[2], int up[2])
{
    if (pipe(down) != 0) return -1;
    if (pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return -1;
    }
    cloexec(down[0]), cloexec(down[1]), cloexec(up[0]), cloexec(up[1]);
    return 0;
}

/* In the child: limits, its own process group, death with the parent. */
static void child_setup(const BrainLimits *lim, pid_t parent)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(127); /* the parent died before prctl */
    struct rlimit r = {0, 0};
    setrlimit(RLIMIT_CORE, &r);
    r.rlim_cur = r.rlim_max = (rlim_t)1 << 30; /* files written: 1 GiB */
    setrlimit(RLIMIT_FSIZE, &r);
    if (lim && lim->memory > 0) {
        r.rlim_cur = r.rlim_max = (rlim_t)lim->memory;
        setrlimit(RLIMIT_AS, &r);
    }
    if (lim && lim->nice > 0) {
        errno = 0;
        int old = getpriority(PRIO_PROCESS, 0);
        if (errno == 0) setpriority(PRIO_PROCESS, 0, old + (lim->nice > 19 ? 19 : lim->nice));
    }
    if (lim && lim->cpu_seconds > 0) {
        r.rlim_cur = (rlim_t)lim->cpu_seconds;
        r.rlim_max = (rlim_t)lim->cpu_seconds + 1; /* SIGXCPU, then SIGKILL */
        setrlimit(RLIMIT_CPU, &r);
    }
    /* default signal dispositions and an empty mask for the new program */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* In the child: stderr where the limits say. */
static void child_stderr(const BrainLimits *lim)
{
    const char *path = lim ? lim->stderr_path : NULL;
    if (path && strcmp(path, "-") == 0) return;
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : open("/dev/null", O_WRONLY);
    if (fd < 0) fd = open("/dev/null", O_WRONLY);
    if (fd >= 0 && fd != 2) {
        dup2(fd, 2);
        close(fd);
    }
}

int brainproc_spawn(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                    size_t errlen)
{
    brainproc_clear(p);
    if (!argv || !argv[0] || !argv[0][0]) return fail(err, errlen, "no program to run");
    int down[2], up[2], status[2];
    if (make_pipes(down, up) != 0) return fail(err, errlen, "pipe: %s", strerror(errno));
    if (pipe(status) != 0) {
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return fail(err, errlen, "pipe: %s", strerror(errno));
    }
    cloexec(status[0]), cloexec(status[1]);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(down[0]), close(down[1]), close(up[0]), close(up[1]), close(status[0]),
            close(status[1]);
        return fail(err, errlen, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        child_setup(lim, parent);
        child_stderr(lim);
        if (dup2(down[0], 0) < 0 || dup2(up[1], 1) < 0) _exit(127);
        /* close everything else we inherited, keeping the status pipe */
        long max = sysconf(_SC_OPEN_MAX);
        if (max < 0 || max > 65536) max = 65536;
        for (int fd = 3; fd < max; fd++)
            if (fd != status[1]) close(fd);
        execvp(argv[0], argv);
        int e = errno;
        if (write(status[1], &e, sizeof e) < 0) _exit(127);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    close(status[1]);
    setpgid(pid, pid); /* also here: no race with a kill before the child runs */
    int e = 0;
    ssize_t got;
    do got = read(status[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(status[0]);
    p->pid = pid;
    p->owner = parent;
    p->out_fd = down[1];
    p->in_fd = up[0];
    if (got == (ssize_t)sizeof e) {
        brainproc_kill(p);
        return fail(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
    }
    fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
    return MB_OK;
}

int brainproc_fork(BrainProc *p, const BrainLimits *lim, bool *is_child, char *err, size_t errlen)
{
    brainproc_clear(p);
    *is_child = false;
    int down[2], up[2];
    if (make_pipes(down, up) != 0) return fail(err, errlen, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return fail(err, errlen, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        child_setup(lim, parent);
        close(down[1]);
        close(up[0]);
        dup2(2, 1); /* prints go to stderr, never to the protocol */
        p->in_fd = down[0];
        p->out_fd = up[1];
        p->owner = getpid();
        *is_child = true;
        return MB_OK;
    }
    close(down[0]);
    close(up[1]);
    setpgid(pid, pid);
    p->pid = pid;
    p->owner = parent;
    p->out_fd = down[1];
    p->in_fd = up[0];
    fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
    return MB_OK;
}

/* ---- lines ---- */

/* write() with SIGPIPE held back: a pending one is consumed, so a child
 * that has gone gives EPIPE, never a dead manager. */
static ssize_t write_nosigpipe(int fd, const char *s, size_t n)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t w = write(fd, s, n);
    int e = errno;
    if (w < 0 && e == EPIPE) {
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec zero = {0, 0};
            sigtimedwait(&pipe_set, NULL, &zero);
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return w;
}

/* Milliseconds left until deadline (< 0 deadline: -1, no limit). */
static int left_ms(double deadline)
{
    if (deadline < 0) return -1;
    double left = deadline - brainproc_now_ms();
    return left <= 0 ? 0 : (int)(left + 0.999);
}

int brainproc_send(BrainProc *p, const char *line, int timeout_ms)
{
    if (p->out_fd < 0) return MB_EIO;
    double deadline = timeout_ms < 0 ? -1 : brainproc_now_ms() + timeout_ms;
    size_t n = strlen(line);
    const char *parts[2] = {line, "\n"};
    size_t lens[2] = {n, 1};
    for (int i = 0; i < 2; i++) {
        size_t done = 0;
        while (done < lens[i]) {
            ssize_t w = write_nosigpipe(p->out_fd, parts[i] + done, lens[i] - done);
            if (w > 0) {
                done += (size_t)w;
                continue;
            }
            if (w < 0 && errno == EINTR) continue;
            if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                int wait = left_ms(deadline);
                if (wait == 0) return MB_EIO;
                struct pollfd pfd = {p->out_fd, POLLOUT, 0};
                if (poll(&pfd, 1, wait) < 0 && errno != EINTR) return MB_EIO;
                continue;
            }
            return MB_EIO;
        }
    }
    return MB_OK;
}

/* Take one line out of the buffer if there is a complete one (first
 * dropping the rest of a line too long, if that is under way). */
static bool take_line(BrainProc *p, char *line, size_t cap, size_t *len, int *rc)
{
    if (p->skipping) {
        char *end = memchr(p->buf, '\n', p->len);
        size_t drop = end ? (size_t)(end - p->buf) + 1 : p->len;
        memmove(p->buf, p->buf + drop, p->len - drop);
        p->len -= drop;
        if (!end) return false;
        p->skipping = false;
    }
    char *nl = memchr(p->buf, '\n', p->len);
    if (!nl && !(p->eof && p->len > 0)) return false;
    size_t n = nl ? (size_t)(nl - p->buf) : p->len;
    size_t used = nl ? n + 1 : n;
    if (n > 0 && p->buf[n - 1] == '\r') n--;
    if (n >= cap) {
        *rc = BP_TOOLONG;
    } else {
        memcpy(line, p->buf, n);
        line[n] = '\0';
        *len = n;
        *rc = BP_LINE;
    }
    memmove(p->buf, p->buf + used, p->len - used);
    p->len -= used;
    return true;
}

int brainproc_recv(BrainProc *p, int timeout_ms, char *line, size_t cap, size_t *len)
{
    *len = 0;
    if (cap) line[0] = '\0';
    double deadline = timeout_ms < 0 ? -1 : brainproc_now_ms() + timeout_ms;
    for (;;) {
        int rc;
        if (take_line(p, line, cap, len, &rc)) return rc;
        if (p->eof || p->in_fd < 0) return BP_EOF;
        if (p->len == sizeof p->buf) {
            p->len = 0; /* a line too long for the buffer: drop it, to its end */
            p->skipping = true;
            return BP_TOOLONG;
        }
        int wait = left_ms(deadline);
        struct pollfd pfd = {p->in_fd, POLLIN, 0};
        int r = poll(&pfd, 1, wait);
        if (r < 0) {
            if (errno == EINTR) continue;
            return BP_ERROR;
        }
        if (r == 0) return BP_TIMEOUT;
        ssize_t got = read(p->in_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return BP_ERROR;
        }
        if (got == 0) p->eof = true;
        p->len += (size_t)got;
    }
}

/* ---- ending ---- */

bool brainproc_exited(BrainProc *p)
{
    if (p->reaped) return true;
    if (p->pid <= 0 || p->owner != getpid()) return false;
    int st;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid) {
        p->reaped = true;
        p->status = st;
    }
    return p->reaped;
}

bool brainproc_wait(BrainProc *p, int timeout_ms)
{
    double deadline = brainproc_now_ms() + timeout_ms;
    for (;;) {
        if (brainproc_exited(p)) return true;
        if (p->pid <= 0 || p->owner != getpid() || brainproc_now_ms() >= deadline) return false;
        struct timespec ts = {0, 2000000}; /* 2 ms */
        nanosleep(&ts, NULL);
    }
}

void brainproc_kill(BrainProc *p)
{
    if (p->pid > 0 && p->owner == getpid() && !p->reaped) {
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        int st;
        pid_t r;
        do r = waitpid(p->pid, &st, 0);
        while (r < 0 && errno == EINTR);
        if (r == p->pid) {
            p->reaped = true;
            p->status = st;
        }
    } else if (p->reaped && p->pid > 0 && p->owner == getpid()) {
        kill(-p->pid, SIGKILL); /* what the brain itself started */
    }
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
}

void brainproc_close(BrainProc *p, int grace_ms)
{
    close_fd(&p->out_fd);
    if (grace_ms > 0) brainproc_wait(p, grace_ms);
    brainproc_kill(p);
}

void brainproc_describe(const BrainProc *p, char *buf, size_t n)
{
    if (!p->reaped) {
        snprintf(buf, n, "running");
    } else if (WIFEXITED(p->status)) {
        snprintf(buf, n, "exit status %d", WEXITSTATUS(p->status));
    } else if (WIFSIGNALED(p->status)) {
        int sig = WTERMSIG(p->status);
        static const struct {
            int sig;
            const char *name;
        } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGKILL, "SIGKILL"},
                     {SIGXCPU, "SIGXCPU"}, {SIGFPE, "SIGFPE"},   {SIGBUS, "SIGBUS"},
                     {SIGTERM, "SIGTERM"}, {SIGILL, "SIGILL"},   {SIGPIPE, "SIGPIPE"}};
        const char *name = NULL;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (names[i].sig == sig) name = names[i].name;
        if (name)
            snprintf(buf, n, "killed by signal %d (%s)", sig, name);
        else
            snprintf(buf, n, "killed by signal %d", sig);
    } else {
        snprintf(buf, n, "ended (status %d)", p->status);
    }
}
