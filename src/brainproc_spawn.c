/* brainproc_spawn.c: the box on the manager's side (brainproc.h; the
 * shared declarations: brainproc_parts.h; the box's own processes:
 * brainproc_box.c). brainproc_spawn chooses the isolation (namespaces when a
 * probe box could be made, else the group mode; MARUBATSU_BRAIN_ISOLATION
 * forces a weaker one), makes the program's cgroup v2 with its memory.max
 * where one can be written (MARUBATSU_BRAIN_CGROUP=0: never), starts the
 * keeper, gives it its go once it is in that cgroup, and reads the box's
 * reports: that the program runs or why it could not, how it ended, that
 * a stop has reached every process. Off Linux, plain children only. */
#define _GNU_SOURCE /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "brainproc_parts.h"
#include "mberror.h"

#ifdef __linux__

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
        if (bp_read_text(ctl, text, sizeof text) >= 0 && has_word(text, "memory") &&
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
    return bp_write_text(path, text);
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
    if (bp_read_text(path, text, sizeof text) <= 0) return 0;
    size_t n = strlen(key);
    for (char *line = text; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, key, n) == 0 && line[n] == ' ') return strtoll(line + n + 1, NULL, 10);
    return 0;
}

void bp_cg_remove(BrainProc *p)
{
    if (!p->cgroup[0]) return;
    cg_write(p, "cgroup.kill", "1"); /* whatever is left in it (Linux 5.14) */
    for (int i = 0; i < 100 && rmdir(p->cgroup) != 0 && errno == EBUSY; i++) bp_sleep_ms(2);
    p->cgroup[0] = '\0';
}

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

/* ---- the box, on the manager's side ---- */

static int ns_state;     /* 0: not tried; 1: namespaces work; -1: refused */
static char ns_why[160]; /* why they are refused */

/* Read one report (waiting at most timeout_ms; < 0: no limit): true if
 * one came. */
bool bp_read_report(BrainProc *p, Report *r, int timeout_ms)
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
        bp_close_fd(&p->report_fd); /* the supervisor has gone */
        return false;
    }
    return true;
}

void bp_take_report(BrainProc *p, const Report *r)
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
void bp_take_reports(BrainProc *p)
{
    Report r;
    while (!p->ended && bp_read_report(p, &r, 0)) bp_take_report(p, &r);
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
    if (bp_make_pipes(down, up) != 0) return bp_fail(err, errlen, "pipe: %s", strerror(errno));
    if (bp_cloexec_pipe(rep) != 0 || bp_cloexec_pipe(go) != 0) {
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return bp_fail(err, errlen, "pipe: %s", strerror(errno));
    }
    int errfd = bp_child_stderr(p, lim);
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
    if (pid == 0) bp_keeper_main(&b);
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
    bp_nonblock(p->report_fd);
    p->isolation = ns ? BP_ISOLATE_NAMESPACE : BP_ISOLATE_GROUP;
    if (pid < 0) {
        close(go[1]);
        brainproc_kill(p);
        return bp_fail(err, errlen, "fork: %s", strerror(fork_errno));
    }
    p->pid = pid;
    if (p->memory_mode == BP_MEM_CGROUP) {
        char text[32];
        snprintf(text, sizeof text, "%ld", (long)pid);
        if (cg_write(p, "cgroup.procs", text) != 0) {
            bp_cg_remove(p);
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
    if (!bp_read_report(p, &r, -1)) {
        brainproc_kill(p);
        return bp_fail(err, errlen, "the box ended before the program started");
    }
    if (r.kind == REP_READY) {
        bp_nonblock(p->out_fd);
        return MB_OK;
    }
    brainproc_kill(p);
    if (r.kind == REP_EXEC)
        return bp_fail(err, errlen, "cannot run %s: %s", argv[0], strerror(r.code));
    *refused = ns && r.amount != STEP_FORK; /* a fork may fail for a while */
    int step = r.amount >= 0 && r.amount < (long long)(sizeof step_names / sizeof step_names[0])
                   ? (int)r.amount
                   : 0;
    return bp_fail(err, errlen, "%s: %s", step_names[step], strerror(r.code));
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
    if (!argv || !argv[0] || !argv[0][0]) return bp_fail(err, errlen, "no program to run");
    int mode = lim ? lim->isolation : BP_ISOLATE_AUTO;
    if (mode == BP_ISOLATE_AUTO) mode = forced_isolation();
    if (mode == BP_ISOLATE_NONE) return bp_spawn_plain(p, argv, lim, err, errlen);
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

void bp_take_reports(BrainProc *p) { (void)p; }
void bp_cg_remove(BrainProc *p) { (void)p; }

int brainproc_isolation(char *why, size_t n)
{
    if (why && n) snprintf(why, n, "no namespaces on this system");
    return BP_ISOLATE_NONE;
}

int brainproc_spawn(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                    size_t errlen)
{
    brainproc_clear(p);
    if (!argv || !argv[0] || !argv[0][0]) return bp_fail(err, errlen, "no program to run");
    return bp_spawn_plain(p, argv, lim, err, errlen);
}

#endif
