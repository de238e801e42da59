/* brainproc_box.c: the box's own processes (brainproc.h; the shared
 * declarations: brainproc_parts.h; the manager's side: brainproc_spawn.c).
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
 * spawn says "cannot run" at once instead of a silent end of output.
 * Linux only. */
#define _GNU_SOURCE /* unshare, mount, prctl, sigtimedwait, syscall */
#ifdef __linux__
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "brainproc_parts.h"

static void report(int fd, int kind, int code, long long amount)
{
    Report r = {kind, code, amount};
    if (write(fd, &r, sizeof r) < 0) { /* the manager has gone: nothing to tell */
    }
}

/* ---- the box: files and processes, without stdio ---- */

int bp_write_text(const char *path, const char *text)
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
ssize_t bp_read_text(const char *path, char *buf, size_t n)
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
        if (bp_read_text(path, buf, sizeof buf) <= 0) continue;
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
        if (bp_read_text(path, buf, sizeof buf) <= 0) continue;
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
        bp_sleep_ms(1);
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
    if (bp_place_stdio(std) != 0 || bp_place_fd3(exec_w) != 0) _exit(127);
    int keep = 3;
    bp_close_from(4, &keep, 1);
    bp_apply_rlimits(b->lim, false);
    setenv("TMPDIR", b->ns ? "/tmp" : b->scratch, 1);
    int why[2] = {STEP_CAPS, 0};
    if (drop_capabilities() == 0) {
        bp_default_signals();
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
    if (bp_cloexec_pipe(xp) != 0) {
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
    return bp_write_text(path, text);
}

/* The keeper: a child of the manager. Never returns. */
void bp_keeper_main(const Box *b)
{
    prctl(PR_SET_PDEATHSIG, b->ns ? SIGKILL : SIGTERM);
    if (getppid() != b->manager) _exit(1);
    setpgid(0, 0);
    sigset_t set;
    block_requests(&set);
    int keep[5] = {b->down_r, b->up_w, b->err_w, b->report_w, b->go_r};
    bp_close_from(3, keep, 5);
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
    if (uid != 0 && (bp_write_text("/proc/self/setgroups", "deny") != 0 ||
                     write_id_map("uid_map", uid) != 0 || write_id_map("gid_map", gid) != 0)) {
        report(box.report_w, REP_SETUP, errno, STEP_IDMAP);
        _exit(1);
    }
    int life[2]; /* the init sees the keeper die by its end of this pipe */
    if (bp_cloexec_pipe(life) != 0) {
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

#endif
