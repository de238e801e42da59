/* brainproc_child.c: starting a child process for brainproc (the shared
 * declarations: brainproc_parts.h). Its descriptors (pipes close-on-exec,
 * its stdio put in place, every other inherited descriptor closed), its
 * limits (core files, file size, address space, CPU time, nice value), its
 * signals (default dispositions, an empty mask), the file its stderr goes
 * to (through a pipe when its size is capped), and the plain child of
 * BP_ISOLATE_NONE: a fork in its own process group that dies with its
 * parent, then exec. */
#define _GNU_SOURCE /* dup3, syscall */
#include <errno.h>
#include <fcntl.h>
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
#include <sys/syscall.h>
#endif

#include "brainproc_parts.h"
#include "mberror.h"

int bp_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return MB_EIO;
}

void bp_close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

static void cloexec(int fd) { fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC); }

void bp_nonblock(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

/* A pipe with both ends close-on-exec. */
int bp_cloexec_pipe(int fds[2])
{
    if (pipe(fds) != 0) return -1;
    cloexec(fds[0]), cloexec(fds[1]);
    return 0;
}

/* Two pipes, all four ends close-on-exec. */
int bp_make_pipes(int down[2], int up[2])
{
    if (bp_cloexec_pipe(down) != 0) return -1;
    if (bp_cloexec_pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return -1;
    }
    return 0;
}

void bp_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Resource limits and the nice value for a program about to start; memory
 * as an address space only when as_limit. */
void bp_apply_rlimits(const BrainLimits *lim, bool as_limit)
{
    struct rlimit r = {0, 0};
    setrlimit(RLIMIT_CORE, &r);
    r.rlim_cur = r.rlim_max = (rlim_t)1 << 30; /* files written: 1 GiB */
    setrlimit(RLIMIT_FSIZE, &r);
    if (as_limit && lim && lim->memory > 0) {
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
}

/* Default dispositions for every signal we may have ignored, and an empty
 * mask, for the new program. */
void bp_default_signals(void)
{
    for (int s = 1; s < NSIG; s++) {
        if (s == SIGKILL || s == SIGSTOP) continue;
        struct sigaction sa;
        if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) signal(s, SIG_DFL);
    }
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* In a plain child: limits, its own process group, death with the parent. */
void bp_child_setup(const BrainLimits *lim, pid_t parent)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(127); /* the parent died before prctl */
    bp_apply_rlimits(lim, true);
    bp_default_signals();
}

/* The descriptor the child's stderr goes to (close-on-exec; -1: an
 * error): the file itself, or, when its size is capped, a pipe whose other
 * end p keeps (with the file) to drain. */
int bp_child_stderr(BrainProc *p, const BrainLimits *lim)
{
    const char *path = lim ? lim->stderr_path : NULL;
    if (path && strcmp(path, "-") == 0) return fcntl(2, F_DUPFD_CLOEXEC, 3);
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0644) : -1;
    int pp[2];
    if (fd >= 0 && lim->stderr_cap > 0 && bp_cloexec_pipe(pp) == 0) {
        p->log_fd = fd;
        p->err_fd = pp[0];
        bp_nonblock(p->err_fd);
        p->err_left = lim->stderr_cap;
        return pp[1];
    }
    if (fd < 0) fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    return fd;
}

/* Put fds[0..2] on 0, 1, 2 (any of them may already sit on 0..2). */
int bp_place_stdio(const int fds[3])
{
    int hi[3];
    for (int i = 0; i < 3; i++) {
        hi[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10);
        if (hi[i] < 0) return -1;
    }
    for (int i = 0; i < 3; i++)
        if (dup2(hi[i], i) < 0) return -1; /* dup2 clears close-on-exec on i */
    for (int i = 0; i < 3; i++) close(hi[i]);
    return 0;
}

/* Put fd on 3, close-on-exec (it may be there already). */
int bp_place_fd3(int fd)
{
    if (fd == 3) {
        cloexec(3);
        return 0;
    }
    return dup3(fd, 3, O_CLOEXEC) < 0 ? -1 : 0;
}

/* Close every descriptor from `from` up, except those in keep (n of
 * them, each >= from). */
void bp_close_from(int from, const int *keep, int n)
{
    int sorted[8];
    int m = 0;
    for (int i = 0; i < n && m < 8; i++)
        if (keep[i] >= from) sorted[m++] = keep[i];
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    int lo = from;
    for (int i = 0; i <= m; i++) {
        int hi = i < m ? sorted[i] - 1 : -1; /* -1: to the end */
        if (hi >= 0 && hi < lo) {
            lo = sorted[i] + 1;
            continue;
        }
#if defined(__linux__) && defined(SYS_close_range)
        if (syscall(SYS_close_range, (unsigned)lo, hi < 0 ? ~0U : (unsigned)hi, 0) == 0) {
            if (i < m) lo = sorted[i] + 1;
            continue;
        }
#endif
        long max = sysconf(_SC_OPEN_MAX);
        if (max < 0 || max > 65536) max = 65536;
        int end = hi < 0 ? (int)max - 1 : hi;
        for (int fd = lo; fd <= end; fd++) close(fd);
        if (i < m) lo = sorted[i] + 1;
    }
}

/* ---- plain children (BP_ISOLATE_NONE) ---- */

int bp_spawn_plain(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                   size_t errlen)
{
    int down[2], up[2], status[2];
    if (bp_make_pipes(down, up) != 0) return bp_fail(err, errlen, "pipe: %s", strerror(errno));
    if (bp_cloexec_pipe(status) != 0) {
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return bp_fail(err, errlen, "pipe: %s", strerror(errno));
    }
    int errfd = bp_child_stderr(p, lim);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(down[0]), close(down[1]), close(up[0]), close(up[1]), close(status[0]),
            close(status[1]);
        if (errfd >= 0) close(errfd);
        bp_close_fd(&p->err_fd);
        bp_close_fd(&p->log_fd);
        return bp_fail(err, errlen, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        bp_child_setup(lim, parent);
        int std[3] = {down[0], up[1], errfd >= 0 ? errfd : up[1]};
        if (bp_place_stdio(std) != 0) _exit(127);
        if (bp_place_fd3(status[1]) != 0) _exit(127);
        int keep = 3;
        bp_close_from(4, &keep, 1);
        execvp(argv[0], argv);
        int e = errno;
        if (write(3, &e, sizeof e) < 0) _exit(127);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    close(status[1]);
    if (errfd >= 0) close(errfd);
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
    p->isolation = BP_ISOLATE_NONE;
    p->memory = lim ? lim->memory : 0;
    p->memory_mode = p->memory > 0 ? BP_MEM_ADDRESS : BP_MEM_NONE;
    if (got == (ssize_t)sizeof e) {
        brainproc_kill(p);
        return bp_fail(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
    }
    bp_nonblock(p->out_fd);
    return MB_OK;
}
