/* brainproc.c: child processes spoken to in lines, kept in boxes
 * (brainproc.h).
 *
 * Pipes carry the lines; every descriptor of ours is close-on-exec, and the
 * child closes every other descriptor it inherited (a tournament worker
 * holds its journal open: a hostile brain must not reach it).
 *
 * An isolated program runs under two processes of ours:
 *
 *   manager ─ keeper ─ init (pid 1 of a new PID namespace) ─ program ─ ...
 *
 * The keeper is a plain child of the manager, outside every new namespace
 * (no program can see or signal it). It waits for the manager's go (after
 * the manager has put it in the program's cgroup, if there is one), makes
 * the namespaces, forks the init and then only forwards the manager's
 * requests (SIGUSR1 stop, SIGUSR2 continue, SIGTERM end) to it. The init
 * makes the file system read-only (all but a private /tmp), mounts its own
 * /proc and /dev, forks the program (no capabilities, no new privileges,
 * its own session), reports on a pipe that it runs or why it could not,
 * and then supervises: kill(-1, SIGSTOP/SIGCONT) stops and continues every
 * process of the namespace at once, the resident sizes are summed every
 * 25 ms when the memory limit is polled, and when the program ends (or
 * goes over the limit) the init reports it and exits, which makes the
 * kernel end every other process of the namespace. Both die with their
 * parent (PR_SET_PDEATHSIG). The init accepts requests only from outside
 * its namespace: the program's own signals to it are dropped.
 *
 * Where namespaces are refused, the keeper supervises by itself (group
 * mode): it is the subreaper of the program's descendants (an orphan,
 * setsid or not, becomes its child), finds them by their parent links in
 * /proc, and stops, continues and kills them one by one.
 *
 * Failures before the program runs travel back on the report pipe, so
 * spawn says "cannot run" at once instead of a silent end of output. */
#define _GNU_SOURCE /* unshare, mount, prctl, sigtimedwait, mkdtemp, syscall */
#include "brainproc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/capability.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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
    p->in_fd = p->out_fd = p->report_fd = p->err_fd = p->log_fd = -1;
    p->isolation = BP_ISOLATE_NONE;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

static void cloexec(int fd) { fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC); }

static void nonblock(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

/* A pipe with both ends close-on-exec. */
static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) != 0) return -1;
    cloexec(fds[0]), cloexec(fds[1]);
    return 0;
}

/* Two pipes, all four ends close-on-exec. */
static int make_pipes(int down[2], int up[2])
{
    if (cloexec_pipe(down) != 0) return -1;
    if (cloexec_pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return -1;
    }
    return 0;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Resource limits and the nice value for a program about to start; memory
 * as an address space only when as_limit. */
static void apply_rlimits(const BrainLimits *lim, bool as_limit)
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
static void default_signals(void)
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
static void child_setup(const BrainLimits *lim, pid_t parent)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(127); /* the parent died before prctl */
    apply_rlimits(lim, true);
    default_signals();
}

/* The descriptor the child's stderr goes to (close-on-exec; -1: an
 * error): the file itself, or, when its size is capped, a pipe whose other
 * end p keeps (with the file) to drain. */
static int child_stderr(BrainProc *p, const BrainLimits *lim)
{
    const char *path = lim ? lim->stderr_path : NULL;
    if (path && strcmp(path, "-") == 0) return fcntl(2, F_DUPFD_CLOEXEC, 3);
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0644) : -1;
    int pp[2];
    if (fd >= 0 && lim->stderr_cap > 0 && cloexec_pipe(pp) == 0) {
        p->log_fd = fd;
        p->err_fd = pp[0];
        nonblock(p->err_fd);
        p->err_left = lim->stderr_cap;
        return pp[1];
    }
    if (fd < 0) fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    return fd;
}

static void write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

/* Move what the child wrote to stderr into its file, up to the cap (at
 * most `reads` reads of 4 KiB: a child writing without end cannot hold
 * the caller). */
static void drain_stderr(BrainProc *p, int reads)
{
    char buf[4096];
    while (p->err_fd >= 0 && reads-- > 0) {
        ssize_t n = read(p->err_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0 || (n < 0 && errno != EAGAIN)) close_fd(&p->err_fd);
        if (n <= 0) return;
        long long room = p->err_left > 0 ? p->err_left : 0; /* -1: over, noted */
        size_t keep = (long long)n <= room ? (size_t)n : (size_t)room;
        if (keep > 0) write_all(p->log_fd, buf, keep);
        if (keep == (size_t)n) {
            p->err_left -= (long long)keep;
        } else if (p->err_left >= 0) {
            static const char note[] =
                "\n[marubatsu: the rest of this brain's stderr in this game is dropped]\n";
            write_all(p->log_fd, note, sizeof note - 1);
            p->err_left = -1;
        }
    }
}

/* Put fds[0..2] on 0, 1, 2 (any of them may already sit on 0..2). */
static int place_stdio(const int fds[3])
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
static int place_fd3(int fd)
{
    if (fd == 3) {
        cloexec(3);
        return 0;
    }
    return dup3(fd, 3, O_CLOEXEC) < 0 ? -1 : 0;
}

/* Close every descriptor from `from` up, except those in keep (n of
 * them, each >= from). */
static void close_from(int from, const int *keep, int n)
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

static int spawn_plain(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                       size_t errlen)
{
    int down[2], up[2], status[2];
    if (make_pipes(down, up) != 0) return fail(err, errlen, "pipe: %s", strerror(errno));
    if (cloexec_pipe(status) != 0) {
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return fail(err, errlen, "pipe: %s", strerror(errno));
    }
    int errfd = child_stderr(p, lim);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(down[0]), close(down[1]), close(up[0]), close(up[1]), close(status[0]),
            close(status[1]);
        if (errfd >= 0) close(errfd);
        close_fd(&p->err_fd);
        close_fd(&p->log_fd);
        return fail(err, errlen, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        child_setup(lim, parent);
        int std[3] = {down[0], up[1], errfd >= 0 ? errfd : up[1]};
        if (place_stdio(std) != 0) _exit(127);
        if (place_fd3(status[1]) != 0) _exit(127);
        int keep = 3;
        close_from(4, &keep, 1);
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
        return fail(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
    }
    nonblock(p->out_fd);
    return MB_OK;
}

#ifdef __linux__

/* ---- the box: reports ---- */

enum { REP_READY = 1, REP_SETUP, REP_EXEC, REP_EXIT, REP_MEMORY, REP_PAUSED };

typedef struct Report {
    int kind;
    int code;         /* REP_SETUP, REP_EXEC: errno; REP_EXIT: the wait status */
    long long amount; /* REP_SETUP: the step; REP_MEMORY: bytes resident */
} Report;

/* The steps of making a box, for messages. */
enum {
    STEP_UNSHARE = 1,
    STEP_IDMAP,
    STEP_PRIVATE,
    STEP_READONLY,
    STEP_PROC,
    STEP_TMP,
    STEP_DEV,
    STEP_RUN,
    STEP_FORK,
    STEP_CAPS,
};
static const char *const step_names[] = {
    "",
    "unshare",
    "user id map",
    "private mounts",
    "read-only mounts",
    "mount /proc",
    "mount /tmp",
    "mount /dev",
    "mount /run",
    "fork",
    "dropping capabilities",
};

static void report(int fd, int kind, int code, long long amount)
{
    Report r = {kind, code, amount};
    if (write(fd, &r, sizeof r) < 0) { /* the manager has gone: nothing to tell */
    }
}

/* What the keeper and the init know. */
typedef struct Box {
    char *const *argv; /* NULL: a probe, no program */
    const BrainLimits *lim;
    bool ns;      /* namespaces (else group mode) */
    char memmode; /* 'r' resident polled, 'c' cgroup, 'n' none */
    long long memory;
    pid_t manager;
    int down_r, up_w, err_w, report_w, go_r;
    const char *scratch; /* group mode: TMPDIR */
} Box;

/* ---- the box: files and processes, without stdio ---- */

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    int e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)n ? 0 : -1;
}

/* Read up to n - 1 bytes of a small file into buf (NUL-terminated): the
 * length, or -1. */
static ssize_t read_text(const char *path, char *buf, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t got = 0;
    while (got + 1 < n) {
        ssize_t r = read(fd, buf + got, n - 1 - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    return (ssize_t)got;
}

/* One process of /proc: its parent and state. */
typedef struct ProcRow {
    pid_t pid, ppid;
    char state;
} ProcRow;

#define MAX_ROWS 16384
static ProcRow rows[MAX_ROWS];

/* Every process in /proc (the namespace's own /proc in the init): the
 * number of rows. */
static int proc_rows(void)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while (n < MAX_ROWS && (e = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        if (read_text(path, buf, sizeof buf) <= 0) continue;
        char *close_paren = strrchr(buf, ')'); /* the name may hold anything */
        if (!close_paren || close_paren[1] != ' ') continue;
        char state = close_paren[2];
        long ppid = strtol(close_paren + 3, NULL, 10);
        rows[n].pid = (pid_t)pid;
        rows[n].ppid = (pid_t)ppid;
        rows[n].state = state;
        n++;
    }
    closedir(d);
    return n;
}

static int by_pid(const void *a, const void *b)
{
    pid_t x = ((const ProcRow *)a)->pid, y = ((const ProcRow *)b)->pid;
    return (x > y) - (x < y);
}

/* Keep in rows[0..n) only the supervisor's processes: in its own
 * namespace every process but itself, else its descendants (found by
 * their parent links, one pass per generation). */
static int members(int n)
{
    pid_t self = getpid();
    if (self == 1) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (rows[i].pid != 1) rows[m++] = rows[i];
        return m;
    }
    static bool mine[MAX_ROWS];
    qsort(rows, (size_t)n, sizeof rows[0], by_pid);
    for (int i = 0; i < n; i++) mine[i] = rows[i].ppid == self;
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < n; i++) {
            if (mine[i]) continue;
            ProcRow key = {rows[i].ppid, 0, 0};
            ProcRow *parent = bsearch(&key, rows, (size_t)n, sizeof rows[0], by_pid);
            if (parent && mine[parent - rows]) mine[i] = grew = true;
        }
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (mine[i]) rows[m++] = rows[i];
    return m;
}

/* Bytes resident in the supervisor's processes. In the namespace every
 * poll looks at all of /proc (a few processes); in group mode a scan of
 * the whole system costs milliseconds, so the members found are reused
 * for 7 polls in 8 (a new descendant is counted within 200 ms). */
static long long members_resident(void)
{
    static pid_t known[MAX_ROWS];
    static int nknown, polls;
    if (getpid() == 1 || polls++ % 8 == 0) {
        nknown = members(proc_rows());
        for (int i = 0; i < nknown; i++) known[i] = rows[i].pid;
    }
    long long pages = 0;
    for (int i = 0; i < nknown; i++) {
        char path[64], buf[256];
        snprintf(path, sizeof path, "/proc/%d/statm", (int)known[i]);
        if (read_text(path, buf, sizeof buf) <= 0) continue;
        char *p = strchr(buf, ' ');
        if (p) pages += strtoll(p + 1, NULL, 10);
    }
    return pages * sysconf(_SC_PAGESIZE);
}

static void reap_children(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0) {}
}

static bool stopped(char state)
{
    return state == 'T' || state == 't' || state == 'Z' || state == 'X';
}

/* Send sig to every process of the box. In the namespace's init one
 * kill(-1) reaches them all at once (a fork under way included: its child
 * gets the signal too); the init itself is never hit. Elsewhere, one by
 * one. A stop returns when every process is stopped (a parent that was
 * forking has finished and stopped, and so has its child), a kill when
 * none is left (at most half a second either). */
static void signal_all(int sig)
{
    bool ns = getpid() == 1;
    if (ns) {
        kill(-1, sig);
        if (sig != SIGSTOP) return;
    }
    for (int pass = 0; pass < 500; pass++) {
        int m = members(proc_rows());
        int left = 0;
        for (int i = 0; i < m; i++) {
            char st = rows[i].state;
            if (sig == SIGSTOP && stopped(st)) continue;
            if (sig == SIGKILL && (st == 'Z' || st == 'X')) continue;
            if (!ns) kill(rows[i].pid, sig);
            left++;
        }
        if (sig == SIGKILL) reap_children();
        if (left == 0 || sig == SIGCONT) return;
        sleep_ms(1);
    }
}

/* ---- the box: the program ---- */

/* No capabilities, now or after exec (the bounding set emptied as well,
 * where we may), and no new privileges: 0, or -1 if any is left. */
static int drop_capabilities(void)
{
    for (int c = 0; c < 64; c++) prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct d[2];
    memset(d, 0, sizeof d);
    syscall(SYS_capset, &h, d);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    if (syscall(SYS_capget, &h, d) != 0) return -1;
    for (int i = 0; i < 2; i++)
        if (d[i].effective || d[i].permitted || d[i].inheritable) {
            errno = EPERM;
            return -1;
        }
    return 0;
}

/* In the program's process (a child of the supervisor): never returns.
 * What failed goes back on exec_w: {step (0: exec), errno}. */
static void run_program(const Box *b, int exec_w)
{
    setsid(); /* no terminal of ours, its own session */
    int std[3] = {b->down_r, b->up_w, b->err_w};
    if (place_stdio(std) != 0 || place_fd3(exec_w) != 0) _exit(127);
    int keep = 3;
    close_from(4, &keep, 1);
    apply_rlimits(b->lim, false);
    setenv("TMPDIR", b->ns ? "/tmp" : b->scratch, 1);
    int why[2] = {STEP_CAPS, 0};
    if (drop_capabilities() == 0) {
        default_signals();
        execvp(b->argv[0], b->argv);
        why[0] = 0;
    }
    why[1] = errno;
    if (write(3, why, sizeof why) < 0) _exit(127);
    _exit(127);
}

/* Is this signal a request of the manager's (not one of the program's)? */
static bool from_manager(const Box *b, const siginfo_t *si)
{
    if (si->si_code != SI_USER) return false;
    return getpid() == 1 ? si->si_pid == 0 : si->si_pid == b->manager;
}

#define POLL_MS 25

/* The supervisor (the init, or the keeper in group mode): start the
 * program, report, then keep it until it ends. Never returns. */
static void supervise(const Box *b, const sigset_t *set)
{
    int xp[2];
    if (cloexec_pipe(xp) != 0) {
        report(b->report_w, REP_SETUP, errno, STEP_FORK);
        _exit(1);
    }
    pid_t prog = fork();
    if (prog == 0) run_program(b, xp[1]);
    close(xp[1]);
    if (prog < 0) {
        report(b->report_w, REP_SETUP, errno, STEP_FORK);
        _exit(1);
    }
    int why[2] = {0, 0};
    ssize_t got;
    do got = read(xp[0], why, sizeof why);
    while (got < 0 && errno == EINTR);
    close(xp[0]);
    if (got == (ssize_t)sizeof why) {
        signal_all(SIGKILL);
        if (why[0] == 0)
            report(b->report_w, REP_EXEC, why[1], 0);
        else
            report(b->report_w, REP_SETUP, why[1], why[0]);
        _exit(1);
    }
    close(b->down_r);
    close(b->up_w);
    close(b->err_w);
    report(b->report_w, REP_READY, 0, 0);
    bool polling = b->memmode == 'r' && b->memory > 0, paused = false;
    double next_poll = brainproc_now_ms() + POLL_MS;
    for (;;) {
        siginfo_t si;
        int s;
        if (polling && !paused) {
            double left = next_poll - brainproc_now_ms();
            long ns = left <= 0 ? 0 : (long)(left * 1000000.0);
            struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
            s = sigtimedwait(set, &si, &ts);
        } else {
            s = sigwaitinfo(set, &si);
        }
        /* poll on time, whatever woke us (signals must not starve it) */
        if (polling && !paused && brainproc_now_ms() >= next_poll) {
            long long rss = members_resident();
            if (rss > b->memory) {
                signal_all(SIGKILL);
                report(b->report_w, REP_MEMORY, 0, rss);
                _exit(0);
            }
            next_poll = brainproc_now_ms() + POLL_MS;
        }
        if (s < 0) continue;
        if (s == SIGCHLD) {
            int st;
            pid_t r;
            while ((r = waitpid(-1, &st, WNOHANG)) > 0) {
                if (r != prog) continue;
                signal_all(SIGKILL);
                report(b->report_w, REP_EXIT, st, 0);
                _exit(0);
            }
            continue;
        }
        if (!from_manager(b, &si)) continue;
        if (s == SIGUSR1) {
            signal_all(SIGSTOP);
            paused = true;
            report(b->report_w, REP_PAUSED, 0, 0); /* the manager waits for it */
        } else if (s == SIGUSR2) {
            signal_all(SIGCONT);
            paused = false;
            next_poll = brainproc_now_ms() + POLL_MS;
        } else if (s == SIGTERM) {
            signal_all(SIGKILL);
            _exit(0);
        }
    }
}

/* ---- the box: the file system of the namespace ---- */

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
typedef struct BpMountAttr {
    uint64_t attr_set, attr_clr, propagation, userns_fd;
} BpMountAttr;
#define BP_ATTR_RDONLY  0x1
#define BP_ATTR_NOSUID  0x2
#define BP_ATTR_NODEV   0x4
#define BP_AT_RECURSIVE 0x8000

static int mount_attr(const char *path, bool recursive, uint64_t set, uint64_t clr)
{
    BpMountAttr a = {set, clr, 0, 0};
    return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, recursive ? BP_AT_RECURSIVE : 0, &a,
                        sizeof a);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory of the program `exe` when it lies under /tmp (which the
 * view covers with its own): opened (O_PATH) before it is covered, so that
 * it can be shown again, read-only, at the same path; -1 otherwise. Its
 * real path goes to dir. */
static int open_tmp_home(const char *exe, char *dir, size_t n)
{
    if (!exe || !strchr(exe, '/')) return -1; /* found on PATH, outside /tmp */
    char path[PATH_MAX], real[PATH_MAX];
    if (strlen(exe) >= sizeof path) return -1;
    strcpy(path, exe);
    *strrchr(path, '/') = '\0';
    if (!realpath(path[0] ? path : "/", real)) return -1;
    if (strncmp(real, "/tmp/", 5) != 0 || strlen(real) >= n) return -1;
    strcpy(dir, real);
    return open(real, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* Make every directory of path (under the new /tmp), as mkdir -p. */
static int make_dirs(const char *path)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *c = p + 1; *c; c++) {
        if (*c != '/') continue;
        *c = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) return -1;
        *c = '/';
    }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The init's view: everything read-only, its own /proc, /tmp, /dev, an
 * empty /run; the program's own directory, when it lies under /tmp, shown
 * again (read-only) inside the new /tmp. 0, or -1 with errno and *step. */
static int make_view(const char *exe, int *step)
{
    char home[PATH_MAX];
    int home_fd = open_tmp_home(exe, home, sizeof home);
    static const char *const nodes[] = {"null", "zero", "full", "random", "urandom"};
    enum { NODES = sizeof nodes / sizeof nodes[0] };
    *step = STEP_PRIVATE;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
    int node_fd[NODES]; /* the real devices, before /dev is covered */
    for (int i = 0; i < NODES; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/%s", nodes[i]);
        node_fd[i] = open(path, O_PATH | O_CLOEXEC);
    }
    *step = STEP_READONLY;
    if (mount_attr("/", true, BP_ATTR_RDONLY | BP_ATTR_NOSUID | BP_ATTR_NODEV, 0) != 0) return -1;
    *step = STEP_PROC;
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL) != 0)
        return -1;
    *step = STEP_TMP;
    if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777") != 0) return -1;
    if (home_fd >= 0) {
        char from[48];
        snprintf(from, sizeof from, "/proc/self/fd/%d", home_fd);
        if (make_dirs(home) != 0 || mount(from, home, NULL, MS_BIND, NULL) != 0) return -1;
        if (mount_attr(home, false, BP_ATTR_RDONLY | BP_ATTR_NOSUID | BP_ATTR_NODEV, 0) != 0)
            return -1;
        close(home_fd);
    }
    *step = STEP_RUN; /* sockets of the system's services live there */
    if (is_dir("/run") &&
        mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
              "size=16k,mode=755") != 0)
        return -1;
    *step = STEP_DEV;
    if (mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=755") != 0) return -1;
    for (int i = 0; i < NODES; i++) {
        if (node_fd[i] < 0) continue;
        char path[32], from[48];
        snprintf(path, sizeof path, "/dev/%s", nodes[i]);
        snprintf(from, sizeof from, "/proc/self/fd/%d", node_fd[i]);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) return -1;
        close(fd);
        if (mount(from, path, NULL, MS_BIND, NULL) != 0) return -1;
        if (mount_attr(path, false, 0, BP_ATTR_NODEV | BP_ATTR_RDONLY) != 0) return -1;
        close(node_fd[i]);
    }
    static const char *const links[][2] = {{"/proc/self/fd", "/dev/fd"},
                                           {"/proc/self/fd/0", "/dev/stdin"},
                                           {"/proc/self/fd/1", "/dev/stdout"},
                                           {"/proc/self/fd/2", "/dev/stderr"}};
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
        if (symlink(links[i][0], links[i][1]) != 0) return -1;
    if (mkdir("/dev/shm", 01777) != 0 || mount("/tmp", "/dev/shm", NULL, MS_BIND, NULL) != 0)
        return -1;
    if (mount_attr("/dev", false, BP_ATTR_RDONLY, 0) != 0) return -1;
    return 0;
}

/* ---- the box: the keeper and the init ---- */

static void block_requests(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGCHLD);
    sigaddset(set, SIGUSR1);
    sigaddset(set, SIGUSR2);
    sigaddset(set, SIGTERM);
    sigprocmask(SIG_BLOCK, set, NULL);
}

/* The init (pid 1 of the namespace). Never returns. */
static void init_main(const Box *b, int life_r, const sigset_t *set)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct pollfd pfd = {life_r, POLLIN, 0};
    if (poll(&pfd, 1, 0) != 0) _exit(1); /* the keeper died before prctl */
    close(life_r);
    prctl(PR_SET_DUMPABLE, 0); /* no program may trace it or read its /proc */
    int step;
    if (make_view(b->argv ? b->argv[0] : NULL, &step) != 0) {
        report(b->report_w, REP_SETUP, errno, step);
        _exit(1);
    }
    if (!b->argv) {
        report(b->report_w, REP_READY, 0, 0);
        _exit(0);
    }
    supervise(b, set);
}

static int write_id_map(const char *file, unsigned id)
{
    char path[64], text[64];
    snprintf(path, sizeof path, "/proc/self/%s", file);
    snprintf(text, sizeof text, "0 %u 1\n", id);
    return write_text(path, text);
}

/* The keeper: a child of the manager. Never returns. */
static void keeper_main(const Box *b)
{
    prctl(PR_SET_PDEATHSIG, b->ns ? SIGKILL : SIGTERM);
    if (getppid() != b->manager) _exit(1);
    setpgid(0, 0);
    sigset_t set;
    block_requests(&set);
    int keep[5] = {b->down_r, b->up_w, b->err_w, b->report_w, b->go_r};
    close_from(3, keep, 5);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC); /* not the manager's terminal or pipes */
    for (int fd = 0; fd < 3 && null >= 0; fd++) {
        bool kept = false;
        for (int i = 0; i < 5; i++) kept = kept || keep[i] == fd;
        if (!kept) dup2(null, fd);
    }
    if (null > 2) close(null);
    char go = 0;
    ssize_t got;
    do got = read(b->go_r, &go, 1);
    while (got < 0 && errno == EINTR);
    close(b->go_r);
    if (got != 1) _exit(1); /* the manager went away */
    Box box = *b;
    box.memmode = go;
    if (!box.ns) {
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        supervise(&box, &set);
    }
    uid_t uid = geteuid();
    gid_t gid = getegid();
    int flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET;
    if (uid != 0) flags |= CLONE_NEWUSER;
    if (unshare(flags) != 0) {
        report(box.report_w, REP_SETUP, errno, STEP_UNSHARE);
        _exit(1);
    }
    if (uid != 0 && (write_text("/proc/self/setgroups", "deny") != 0 ||
                     write_id_map("uid_map", uid) != 0 || write_id_map("gid_map", gid) != 0)) {
        report(box.report_w, REP_SETUP, errno, STEP_IDMAP);
        _exit(1);
    }
    int life[2]; /* the init sees the keeper die by its end of this pipe */
    if (cloexec_pipe(life) != 0) {
        report(box.report_w, REP_SETUP, errno, STEP_FORK);
        _exit(1);
    }
    pid_t init = fork();
    if (init == 0) {
        close(life[1]);
        init_main(&box, life[0], &set);
    }
    close(life[0]);
    if (init < 0) {
        report(box.report_w, REP_SETUP, errno, STEP_FORK);
        _exit(1);
    }
    close(box.down_r);
    close(box.up_w);
    close(box.err_w);
    close(box.report_w);
    for (;;) {
        siginfo_t si;
        int s = sigwaitinfo(&set, &si);
        if (s == SIGCHLD) {
            if (waitpid(init, NULL, WNOHANG) == init) _exit(0);
            continue;
        }
        if (s < 0 || si.si_code != SI_USER || si.si_pid != box.manager) continue;
        if (s == SIGTERM) {
            kill(init, SIGKILL);
            while (waitpid(init, NULL, 0) < 0 && errno == EINTR) {}
            _exit(0);
        }
        kill(init, s);
    }
}

/* ---- cgroups (v2), on the manager's side ---- */

static int cg_state;                      /* 0: not looked for; 1: usable; -1: not */
static char cg_base[BRAINPROC_PATH - 48]; /* where boxes' cgroups are made */
static unsigned cg_count;

static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; (p = strstr(p, word)) != NULL; p += n)
        if ((p == text || p[-1] == ' ' || p[-1] == '\n') &&
            (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
            return true;
    return false;
}

/* The cgroup2 file system's mount point, into mnt. */
static bool cg_mount(char *mnt, size_t n)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        char *dash = strstr(line, " - cgroup2 ");
        if (!dash) continue;
        char *p = line;
        for (int field = 0; field < 4 && p; field++) {
            p = strchr(p, ' ');
            if (p) p++;
        }
        char *end = p ? strchr(p, ' ') : NULL;
        if (!end || (size_t)(end - p) >= n) continue;
        memcpy(mnt, p, (size_t)(end - p));
        mnt[end - p] = '\0';
        found = true;
    }
    fclose(f);
    return found;
}

/* Find where boxes' cgroups can be made: the nearest cgroup at or above
 * ours whose children get the memory controller and that we may write. */
static void cg_find(void)
{
    cg_state = -1;
    const char *env = getenv("MARUBATSU_BRAIN_CGROUP");
    if (env && strcmp(env, "0") == 0) return;
    char mnt[128], own[BRAINPROC_PATH], line[BRAINPROC_PATH + 8];
    if (!cg_mount(mnt, sizeof mnt)) return;
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f) return;
    own[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "0::", 3) == 0) {
            size_t n = strcspn(line + 3, "\n");
            if (n >= sizeof own) n = 0;
            memcpy(own, line + 3, n);
            own[n] = '\0';
        }
    fclose(f);
    if (own[0] != '/') return;
    for (;;) {
        char dir[sizeof cg_base], ctl[sizeof cg_base + 32], text[256];
        if (snprintf(dir, sizeof dir, "%s%s", mnt, strcmp(own, "/") == 0 ? "" : own) >=
            (int)sizeof dir)
            return;
        snprintf(ctl, sizeof ctl, "%s/cgroup.subtree_control", dir);
        if (read_text(ctl, text, sizeof text) >= 0 && has_word(text, "memory") &&
            access(dir, W_OK) == 0) {
            memcpy(cg_base, dir, sizeof dir);
            cg_state = 1;
            return;
        }
        char *slash = strrchr(own, '/');
        if (!slash || strcmp(own, "/") == 0) return;
        if (slash == own)
            own[1] = '\0';
        else
            *slash = '\0';
    }
}

static int cg_write(const BrainProc *p, const char *file, const char *text)
{
    char path[BRAINPROC_PATH + 32];
    snprintf(path, sizeof path, "%s/%s", p->cgroup, file);
    return write_text(path, text);
}

/* A new cgroup for p with its memory limit; false (and none) if it
 * cannot be made. */
static bool cg_make(BrainProc *p, long long memory)
{
    if (cg_state == 0) cg_find();
    if (cg_state < 0) return false;
    snprintf(p->cgroup, sizeof p->cgroup, "%s/marubatsu-brain-%ld-%u", cg_base, (long)getpid(),
             ++cg_count);
    if (mkdir(p->cgroup, 0755) != 0) {
        if (errno != EEXIST) cg_state = -1;
        p->cgroup[0] = '\0';
        return false;
    }
    char text[32];
    snprintf(text, sizeof text, "%lld", memory);
    if (cg_write(p, "memory.max", text) != 0) {
        rmdir(p->cgroup);
        p->cgroup[0] = '\0';
        cg_state = -1;
        return false;
    }
    cg_write(p, "memory.swap.max", "0");  /* where swap is accounted: none */
    cg_write(p, "memory.oom.group", "1"); /* out of memory: the whole box goes */
    cg_write(p, "pids.max", "4096");      /* where the pids controller is on */
    return true;
}

static long long cg_event(const BrainProc *p, const char *key)
{
    char path[BRAINPROC_PATH + 32], text[512];
    snprintf(path, sizeof path, "%s/memory.events", p->cgroup);
    if (read_text(path, text, sizeof text) <= 0) return 0;
    size_t n = strlen(key);
    for (char *line = text; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, key, n) == 0 && line[n] == ' ') return strtoll(line + n + 1, NULL, 10);
    return 0;
}

static void cg_remove(BrainProc *p)
{
    if (!p->cgroup[0]) return;
    cg_write(p, "cgroup.kill", "1"); /* whatever is left in it (Linux 5.14) */
    for (int i = 0; i < 100 && rmdir(p->cgroup) != 0 && errno == EBUSY; i++) sleep_ms(2);
    p->cgroup[0] = '\0';
}

/* ---- the box, on the manager's side ---- */

static int ns_state;     /* 0: not tried; 1: namespaces work; -1: refused */
static char ns_why[160]; /* why they are refused */

/* Read one report (waiting at most timeout_ms; < 0: no limit): true if
 * one came. */
static bool read_report(BrainProc *p, Report *r, int timeout_ms)
{
    if (p->report_fd < 0) return false;
    size_t got = 0;
    double deadline = timeout_ms < 0 ? -1 : brainproc_now_ms() + timeout_ms;
    while (got < sizeof *r) {
        ssize_t n = read(p->report_fd, (char *)r + got, sizeof *r - got);
        if (n > 0) {
            got += (size_t)n;
            continue;
        }
        if (n == 0) break;
        if (errno == EINTR) continue;
        if (errno != EAGAIN) break;
        int wait = -1;
        if (deadline >= 0) {
            double left = deadline - brainproc_now_ms();
            if (left <= 0 && got == 0) return false;
            wait = left <= 0 ? 1 : (int)(left + 0.999);
        }
        struct pollfd pfd = {p->report_fd, POLLIN, 0};
        if (poll(&pfd, 1, wait) == 0 && got == 0) return false;
    }
    if (got < sizeof *r) {
        close_fd(&p->report_fd); /* the supervisor has gone */
        return false;
    }
    return true;
}

static void take_report(BrainProc *p, const Report *r)
{
    if (r->kind == REP_EXIT) {
        p->ended = true;
        p->brain_status = r->code;
    } else if (r->kind == REP_MEMORY) {
        p->ended = p->over_memory = true;
        p->resident = r->amount;
    } else if (r->kind == REP_PAUSED) {
        p->pauses_done++;
    }
}

/* Take in what the supervisor reported without waiting: the program's
 * end. */
static void take_reports(BrainProc *p)
{
    Report r;
    while (!p->ended && read_report(p, &r, 0)) take_report(p, &r);
    /* the kernel's OOM killer ended the box (whichever process it picked) */
    if ((p->ended || p->reaped) && p->memory_mode == BP_MEM_CGROUP && !p->over_memory &&
        cg_event(p, "oom_kill") > 0)
        p->over_memory = true;
}

static int spawn_box(BrainProc *p, char *const argv[], const BrainLimits *lim, bool ns,
                     bool *refused, char *err, size_t errlen)
{
    brainproc_clear(p);
    *refused = false;
    int down[2], up[2], rep[2], go[2];
    if (make_pipes(down, up) != 0) return fail(err, errlen, "pipe: %s", strerror(errno));
    if (cloexec_pipe(rep) != 0 || cloexec_pipe(go) != 0) {
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return fail(err, errlen, "pipe: %s", strerror(errno));
    }
    int errfd = child_stderr(p, lim);
    long long memory = lim ? lim->memory : 0;
    p->memory = memory;
    p->memory_mode = memory <= 0                  ? BP_MEM_NONE
                     : argv && cg_make(p, memory) ? BP_MEM_CGROUP
                                                  : BP_MEM_RESIDENT;
    if (!ns && argv) {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || tmp[0] != '/' || strlen(tmp) > sizeof p->scratch - 32) tmp = "/tmp";
        snprintf(p->scratch, sizeof p->scratch, "%s/marubatsu-brain-XXXXXX", tmp);
        if (!mkdtemp(p->scratch)) p->scratch[0] = '\0';
    }
    Box b = {argv,    lim,   ns,    'n',    memory, getpid(),
             down[0], up[1], errfd, rep[1], go[0],  p->scratch[0] ? p->scratch : "/tmp"};
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) keeper_main(&b);
    int fork_errno = errno;
    close(down[0]);
    close(up[1]);
    close(rep[1]);
    close(go[0]);
    if (errfd >= 0) close(errfd);
    p->owner = getpid();
    p->out_fd = down[1];
    p->in_fd = up[0];
    p->report_fd = rep[0];
    nonblock(p->report_fd);
    p->isolation = ns ? BP_ISOLATE_NAMESPACE : BP_ISOLATE_GROUP;
    if (pid < 0) {
        close(go[1]);
        brainproc_kill(p);
        return fail(err, errlen, "fork: %s", strerror(fork_errno));
    }
    p->pid = pid;
    if (p->memory_mode == BP_MEM_CGROUP) {
        char text[32];
        snprintf(text, sizeof text, "%ld", (long)pid);
        if (cg_write(p, "cgroup.procs", text) != 0) {
            cg_remove(p);
            cg_state = -1;
            p->memory_mode = BP_MEM_RESIDENT;
        }
    }
    char mode = p->memory_mode == BP_MEM_CGROUP     ? 'c'
                : p->memory_mode == BP_MEM_RESIDENT ? 'r'
                                                    : 'n';
    ssize_t w;
    do w = write(go[1], &mode, 1);
    while (w < 0 && errno == EINTR);
    close(go[1]);
    Report r;
    if (!read_report(p, &r, -1)) {
        brainproc_kill(p);
        return fail(err, errlen, "the box ended before the program started");
    }
    if (r.kind == REP_READY) {
        nonblock(p->out_fd);
        return MB_OK;
    }
    brainproc_kill(p);
    if (r.kind == REP_EXEC)
        return fail(err, errlen, "cannot run %s: %s", argv[0], strerror(r.code));
    *refused = ns && r.amount != STEP_FORK; /* a fork may fail for a while */
    int step = r.amount >= 0 && r.amount < (long long)(sizeof step_names / sizeof step_names[0])
                   ? (int)r.amount
                   : 0;
    return fail(err, errlen, "%s: %s", step_names[step], strerror(r.code));
}

static int forced_isolation(void)
{
    const char *env = getenv("MARUBATSU_BRAIN_ISOLATION");
    if (!env) return BP_ISOLATE_AUTO;
    if (strcmp(env, "group") == 0) return BP_ISOLATE_GROUP;
    if (strcmp(env, "none") == 0) return BP_ISOLATE_NONE;
    return BP_ISOLATE_AUTO;
}

int brainproc_isolation(char *why, size_t n)
{
    int forced = forced_isolation();
    if (forced != BP_ISOLATE_AUTO) {
        if (why && n)
            snprintf(why, n, "MARUBATSU_BRAIN_ISOLATION=%s", getenv("MARUBATSU_BRAIN_ISOLATION"));
        return forced;
    }
    if (ns_state == 0) {
        BrainProc p;
        bool refused;
        char err[sizeof ns_why];
        if (spawn_box(&p, NULL, NULL, true, &refused, err, sizeof err) == MB_OK) {
            brainproc_kill(&p);
            ns_state = 1;
        } else {
            ns_state = -1;
            snprintf(ns_why, sizeof ns_why, "%s", err);
        }
    }
    if (why && n) snprintf(why, n, "%s", ns_state > 0 ? "" : ns_why);
    return ns_state > 0 ? BP_ISOLATE_NAMESPACE : BP_ISOLATE_GROUP;
}

int brainproc_spawn(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                    size_t errlen)
{
    brainproc_clear(p);
    if (!argv || !argv[0] || !argv[0][0]) return fail(err, errlen, "no program to run");
    int mode = lim ? lim->isolation : BP_ISOLATE_AUTO;
    if (mode == BP_ISOLATE_AUTO) mode = forced_isolation();
    if (mode == BP_ISOLATE_NONE) return spawn_plain(p, argv, lim, err, errlen);
    bool refused;
    if (mode == BP_ISOLATE_AUTO && ns_state >= 0) {
        int rc = spawn_box(p, argv, lim, true, &refused, err, errlen);
        if (rc == MB_OK) ns_state = 1;
        if (!refused) return rc;
        ns_state = -1;
        snprintf(ns_why, sizeof ns_why, "%s", err ? err : "");
    }
    return spawn_box(p, argv, lim, false, &refused, err, errlen);
}

#else /* not Linux: plain children only */

static void take_reports(BrainProc *p) { (void)p; }
static void cg_remove(BrainProc *p) { (void)p; }

int brainproc_isolation(char *why, size_t n)
{
    if (why && n) snprintf(why, n, "no namespaces on this system");
    return BP_ISOLATE_NONE;
}

int brainproc_spawn(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                    size_t errlen)
{
    brainproc_clear(p);
    if (!argv || !argv[0] || !argv[0][0]) return fail(err, errlen, "no program to run");
    return spawn_plain(p, argv, lim, err, errlen);
}

#endif

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
    nonblock(p->out_fd);
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
                struct pollfd pfd[2] = {{p->out_fd, POLLOUT, 0}, {p->err_fd, POLLIN, 0}};
                if (poll(pfd, p->err_fd >= 0 ? 2 : 1, wait) < 0 && errno != EINTR) return MB_EIO;
                if (p->err_fd >= 0 && pfd[1].revents) drain_stderr(p, 64);
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
        struct pollfd pfd[2] = {{p->in_fd, POLLIN, 0}, {p->err_fd, POLLIN, 0}};
        int r = poll(pfd, p->err_fd >= 0 ? 2 : 1, wait);
        if (r < 0) {
            if (errno == EINTR) continue;
            return BP_ERROR;
        }
        if (r == 0) return BP_TIMEOUT;
        if (p->err_fd >= 0 && pfd[1].revents) drain_stderr(p, 64);
        if (!pfd[0].revents) {
            if (wait == 0) return BP_TIMEOUT;
            continue;
        }
        ssize_t got = read(p->in_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return BP_ERROR;
        }
        if (got == 0) p->eof = true;
        p->len += (size_t)got;
    }
}

/* ---- stopping and continuing ---- */

static bool mine(const BrainProc *p) { return p->pid > 0 && p->owner == getpid(); }

void brainproc_pause(BrainProc *p)
{
    if (p->paused || !mine(p) || brainproc_exited(p)) return;
    p->paused = true;
    if (p->isolation == BP_ISOLATE_NONE) {
        kill(-p->pid, SIGSTOP);
        return;
    }
    /* wait until all is stopped: a continue must never meet a stop still
     * on its way (a child forked in between would stay stopped) */
    kill(p->pid, SIGUSR1);
    unsigned want = ++p->pauses_sent;
    double deadline = brainproc_now_ms() + 2000;
    while (p->pauses_done < want && !p->ended && p->report_fd >= 0) {
        int left = (int)(deadline - brainproc_now_ms());
        Report r;
        if (left <= 0 || !read_report(p, &r, left)) break;
        take_report(p, &r);
    }
}

void brainproc_resume(BrainProc *p)
{
    if (!p->paused || !mine(p)) return;
    p->paused = false;
    if (brainproc_exited(p)) return;
    if (p->isolation == BP_ISOLATE_NONE)
        kill(-p->pid, SIGCONT);
    else
        kill(p->pid, SIGUSR2);
}

/* ---- ending ---- */

bool brainproc_exited(BrainProc *p)
{
    if (p->isolation != BP_ISOLATE_NONE) {
        take_reports(p);
        if (p->ended) return true;
    }
    if (p->reaped) return true;
    if (!mine(p)) return false;
    int st;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid) {
        p->reaped = true;
        p->status = st;
        if (p->isolation != BP_ISOLATE_NONE) take_reports(p);
    }
    return p->reaped || p->ended;
}

bool brainproc_wait(BrainProc *p, int timeout_ms)
{
    double deadline = brainproc_now_ms() + timeout_ms;
    for (;;) {
        if (brainproc_exited(p)) return true;
        if (!mine(p) || brainproc_now_ms() >= deadline) return false;
        sleep_ms(2);
    }
}

/* Remove a scratch directory and all in it, not following links. */
static void remove_tree(const char *path, int depth)
{
    DIR *d = depth < 64 ? opendir(path) : NULL;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char sub[4096];
            if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub) continue;
            struct stat st;
            if (lstat(sub, &st) != 0) continue;
            if (S_ISDIR(st.st_mode))
                remove_tree(sub, depth + 1);
            else
                unlink(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

void brainproc_kill(BrainProc *p)
{
    bool own = mine(p);
    if (own && !p->reaped) {
        if (p->isolation == BP_ISOLATE_NONE) {
            kill(-p->pid, SIGKILL);
            kill(p->pid, SIGKILL);
        } else {
            /* the keeper ends the box and everything in it, then itself */
            kill(p->pid, SIGTERM);
            double deadline = brainproc_now_ms() + 2000;
            while (!p->reaped && brainproc_now_ms() < deadline) {
                int st;
                if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
                    p->reaped = true;
                    p->status = st;
                } else {
                    sleep_ms(1);
                }
            }
            if (!p->reaped) {
                kill(p->pid, SIGKILL);
                kill(-p->pid, SIGKILL);
            }
        }
        int st;
        pid_t r = p->reaped ? p->pid : 0;
        while (r != p->pid) {
            r = waitpid(p->pid, &st, 0);
            if (r < 0 && errno != EINTR) break;
            if (r == p->pid) {
                p->reaped = true;
                p->status = st;
            }
        }
        if (p->isolation != BP_ISOLATE_NONE) {
            take_reports(p);
            if (!p->ended) { /* ended by us: the program died of SIGKILL */
                p->ended = true;
                p->brain_status = SIGKILL;
            }
        }
    } else if (own && p->isolation == BP_ISOLATE_NONE) {
        kill(-p->pid, SIGKILL); /* what the brain itself started */
    }
    if (own || p->pid == 0) {
        cg_remove(p);
        if (p->scratch[0]) remove_tree(p->scratch, 0);
        p->scratch[0] = '\0';
    }
    p->paused = false;
    if (own && p->reaped) drain_stderr(p, 64); /* what it wrote last; at most a pipe's worth */
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
    close_fd(&p->report_fd);
    close_fd(&p->err_fd);
    close_fd(&p->log_fd);
}

void brainproc_close(BrainProc *p, int grace_ms)
{
    close_fd(&p->out_fd);
    brainproc_resume(p); /* a stopped child could not see its input end */
    if (grace_ms > 0) brainproc_wait(p, grace_ms);
    brainproc_kill(p);
}

static void describe_status(int status, char *buf, size_t n)
{
    if (WIFEXITED(status)) {
        snprintf(buf, n, "exit status %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
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
        snprintf(buf, n, "ended (status %d)", status);
    }
}

void brainproc_describe(const BrainProc *p, char *buf, size_t n)
{
    if (p->over_memory)
        snprintf(buf, n, "over its memory limit");
    else if (p->ended)
        describe_status(p->brain_status, buf, n);
    else if (p->reaped)
        describe_status(p->status, buf, n);
    else
        snprintf(buf, n, "running");
}
