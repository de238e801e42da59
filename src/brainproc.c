/* brainproc.c: child processes spoken to in lines, kept in boxes
 * (brainproc.h): the part the caller talks to. Lines over the pipes
 * (written without SIGPIPE, read under deadlines, a line too long
 * dropped), the child's stderr drained into its capped file while lines
 * are awaited, stopping and continuing it, waiting for it, ending it with
 * everything it started, and naming how it ended; brainproc_fork.
 *
 * The other parts (their shared declarations: brainproc_parts.h):
 *   brainproc_child.c  starting a child: descriptors, limits, signals, its
 *                      stderr file, and the plain child (BP_ISOLATE_NONE)
 *   brainproc_spawn.c   the box on the manager's side: choosing the
 *                      isolation, cgroups, starting a box, its reports
 *   brainproc_box.c         the box's own processes: the keeper and the init,
 *                      namespaces, the read-only view, supervision
 *
 * Pipes carry the lines; every descriptor of ours is close-on-exec, and the
 * child closes every other descriptor it inherited (a tournament worker
 * holds its journal open: a hostile brain must not reach it). */
#define _GNU_SOURCE /* sigtimedwait */
#include "brainproc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "brainproc_parts.h"
#include "mberror.h"
#include "clock.h"

double brainproc_now_ms(void) { return clock_now() * 1000.0; }

void brainproc_clear(BrainProc *p)
{
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = p->report_fd = p->err_fd = p->log_fd = -1;
    p->isolation = BP_ISOLATE_NONE;
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
        if (n == 0 || (n < 0 && errno != EAGAIN)) bp_close_fd(&p->err_fd);
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


int brainproc_fork(BrainProc *p, const BrainLimits *lim, bool *is_child, char *err, size_t errlen)
{
    brainproc_clear(p);
    *is_child = false;
    int down[2], up[2];
    if (bp_make_pipes(down, up) != 0) return bp_fail(err, errlen, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return bp_fail(err, errlen, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        bp_child_setup(lim, parent);
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
    bp_nonblock(p->out_fd);
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
        if (left <= 0 || !bp_read_report(p, &r, left)) break;
        bp_take_report(p, &r);
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
        bp_take_reports(p);
        if (p->ended) return true;
    }
    if (p->reaped) return true;
    if (!mine(p)) return false;
    int st;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid) {
        p->reaped = true;
        p->status = st;
        if (p->isolation != BP_ISOLATE_NONE) bp_take_reports(p);
    }
    return p->reaped || p->ended;
}

bool brainproc_wait(BrainProc *p, int timeout_ms)
{
    double deadline = brainproc_now_ms() + timeout_ms;
    for (;;) {
        if (brainproc_exited(p)) return true;
        if (!mine(p) || brainproc_now_ms() >= deadline) return false;
        bp_sleep_ms(2);
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
                    bp_sleep_ms(1);
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
            bp_take_reports(p);
            if (!p->ended) { /* ended by us: the program died of SIGKILL */
                p->ended = true;
                p->brain_status = SIGKILL;
            }
        }
    } else if (own && p->isolation == BP_ISOLATE_NONE) {
        kill(-p->pid, SIGKILL); /* what the brain itself started */
    }
    if (own || p->pid == 0) {
        bp_cg_remove(p);
        if (p->scratch[0]) remove_tree(p->scratch, 0);
        p->scratch[0] = '\0';
    }
    p->paused = false;
    if (own && p->reaped) drain_stderr(p, 64); /* what it wrote last; at most a pipe's worth */
    bp_close_fd(&p->in_fd);
    bp_close_fd(&p->out_fd);
    bp_close_fd(&p->report_fd);
    bp_close_fd(&p->err_fd);
    bp_close_fd(&p->log_fd);
}

void brainproc_close(BrainProc *p, int grace_ms)
{
    bp_close_fd(&p->out_fd);
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
