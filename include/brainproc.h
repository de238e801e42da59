/* brainproc.h: a child process spoken to in lines over two pipes, and kept
 * in a box of its own.
 *
 * Owns the life of one child: starting it (an executable with argv, or a
 * fork of the caller running the caller's own code), its limits, writing
 * one line to it and reading one line from it under a deadline, stopping
 * and continuing it as a group, and ending it with everything it started,
 * then naming how it ended ("exit status 3", "killed by signal 11
 * (SIGSEGV)", over its memory limit). The child's stderr goes to a file
 * (through a pipe drained while lines are awaited, when its size is
 * capped), to /dev/null, or is inherited: never into the line stream.
 *
 * A spawned program is isolated (BrainLimits.isolation, BP_ISOLATE_AUTO):
 *
 *   namespace  (Linux, as root or with user namespaces) its own PID, mount,
 *              IPC, UTS and network namespaces under an init of ours:
 *              every file system read-only except a private 64 MiB /tmp
 *              (its scratch directory, gone with it), a fresh /proc that
 *              shows only its own processes, a /dev of null, zero, full,
 *              random and urandom, an empty /run, no capabilities, no new
 *              privileges, no descriptor of ours but its three pipes/files.
 *              Ending it ends every process it started (setsid or not); it
 *              can neither see nor signal the manager.
 *   group      (where namespaces are refused) a supervisor of ours that is
 *              the subreaper of all its descendants and ends them all; no
 *              capabilities, no inherited descriptors, TMPDIR a scratch
 *              directory removed afterwards. Weaker: the program shares
 *              the file system and the process table, so it can write
 *              where the user can, read other processes' /proc and signal
 *              processes of its user.
 *   none       the old way: a plain child in its own process group.
 *
 * The memory limit of an isolated program counts what it really uses: a
 * cgroup v2 memory.max when one can be made (the kernel ends it), otherwise
 * the supervisor sums its processes' resident sizes every 25 ms and ends
 * them all past the limit. Not isolated, it is an address-space limit
 * (RLIMIT_AS). MARUBATSU_BRAIN_ISOLATION=group|none in the environment
 * forces a weaker mode (for comparisons), MARUBATSU_BRAIN_CGROUP=0 the
 * polling.
 *
 * Used by the manager side of the Gomocup protocol (external brains as
 * tournament players) and by `marubatsu brain`, whose thinking runs in a
 * forked child (brainproc_fork: not isolated) so that a late AI can be
 * abandoned and a move still sent in time. Writes to a child that has gone
 * never raise SIGPIPE. Uses nothing else of the engine. */
#ifndef MB_BRAINPROC_H
#define MB_BRAINPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define BRAINPROC_BUF  8192 /* read buffer; a longer line is BP_TOOLONG */
#define BRAINPROC_PATH 256  /* room for a cgroup or scratch path */

/* How a spawned program is isolated (see the top of this file). */
enum { BP_ISOLATE_AUTO = 0, BP_ISOLATE_GROUP, BP_ISOLATE_NONE, BP_ISOLATE_NAMESPACE };
/* How its memory limit is kept. */
enum { BP_MEM_NONE = 0, BP_MEM_ADDRESS, BP_MEM_RESIDENT, BP_MEM_CGROUP };

typedef struct BrainLimits {
    long long memory;        /* bytes: resident (isolated) or address space; 0: none */
    long cpu_seconds;        /* CPU seconds (RLIMIT_CPU) per process; 0: none */
    const char *stderr_path; /* appended to; NULL: /dev/null; "-": inherited */
    int nice;                /* added to the child's nice value (0..19) */
    int isolation;           /* BP_ISOLATE_AUTO (the strongest there is), _GROUP, _NONE */
    long long stderr_cap;    /* bytes of stderr kept in stderr_path, then a note (0: all) */
} BrainLimits;

typedef struct BrainProc {
    pid_t pid;   /* the child (isolated: our supervisor outside; in a forked child: 0) */
    pid_t owner; /* the process that started it */
    int in_fd;   /* lines come from here (-1 when closed) */
    int out_fd;  /* lines go here (-1 when closed) */
    char buf[BRAINPROC_BUF];
    size_t len;    /* bytes waiting in buf */
    bool eof;      /* in_fd reached its end */
    bool skipping; /* dropping the rest of a line that was too long */
    bool reaped;   /* the child was waited for: status is valid */
    int status;    /* waitpid status */
    /* isolation (brainproc_spawn) */
    int isolation;                /* BP_ISOLATE_NAMESPACE, _GROUP or _NONE: what it got */
    int memory_mode;              /* BP_MEM_*: how its limit is kept */
    long long memory;             /* the limit, bytes */
    int report_fd;                /* the supervisor's reports (-1: none) */
    bool ended;                   /* the supervisor reported the program's end */
    bool over_memory;             /* ended for using more than the limit */
    bool paused;                  /* stopped as a group (brainproc_pause) */
    unsigned pauses_sent;         /* stops asked for */
    unsigned pauses_done;         /* stops done (reported) */
    int brain_status;             /* the program's own waitpid status, when ended */
    long long resident;           /* bytes in use when it was ended for memory (0: not known) */
    int err_fd;                   /* its stderr, when capped: drained into log_fd */
    int log_fd;                   /* the stderr_path file (-1: none) */
    long long err_left;           /* bytes of stderr still to keep */
    char cgroup[BRAINPROC_PATH];  /* its cgroup directory, or "" */
    char scratch[BRAINPROC_PATH]; /* its scratch directory on disk (group mode), or "" */
} BrainProc;

/* What brainproc_recv found. */
enum { BP_LINE = 0, BP_TIMEOUT, BP_EOF, BP_TOOLONG, BP_ERROR };

/* ---- Starting ---- */

/* A closed BrainProc (pid 0, fds -1): safe to close again. */
void brainproc_clear(BrainProc *p);
/* Run argv[0] (a path, or a name looked up in PATH) with argv, its stdin
 * and stdout the line pipes, isolated as lim->isolation asks, with the
 * limits. Returns once the program runs: MB_OK, or MB_EIO with err naming
 * why (including exec failing: "cannot run PATH: No such file or
 * directory"). */
int brainproc_spawn(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                    size_t errlen);
/* The strongest isolation this process can give (probed once, by starting
 * an empty box): BP_ISOLATE_NAMESPACE or BP_ISOLATE_GROUP, and in why (if
 * not NULL) the reason namespaces are refused, or "". */
int brainproc_isolation(char *why, size_t n);
/* Fork the caller. Returns MB_OK in both: *is_child tells which one. In
 * the child, p talks to the parent (in_fd its commands, out_fd its
 * answers), fd 1 is redirected to fd 2 (stray prints cannot reach the
 * parent's stdout) and the limits are applied (memory as an address
 * space; no isolation); the child must end with _exit. MB_EIO with err on
 * failure. */
int brainproc_fork(BrainProc *p, const BrainLimits *lim, bool *is_child, char *err, size_t errlen);

/* ---- Lines ---- */

/* Write `line` and "\n", waiting at most timeout_ms (< 0: no limit) for
 * room in the pipe. MB_OK; MB_EIO if the child has closed its end or the
 * time ran out. */
int brainproc_send(BrainProc *p, const char *line, int timeout_ms);
/* Read the next line (without its "\n" or "\r\n") into line (cap bytes,
 * NUL-terminated, *len its length), waiting at most timeout_ms (< 0: no
 * limit; 0: only what is there). BP_LINE, BP_TIMEOUT, BP_EOF (the child
 * closed its stdout; a last line without "\n" is returned first),
 * BP_TOOLONG (a line of BRAINPROC_BUF bytes or more, or longer than cap;
 * the whole line is dropped, up to its "\n") or BP_ERROR. */
int brainproc_recv(BrainProc *p, int timeout_ms, char *line, size_t cap, size_t *len);

/* ---- Stopping and continuing ---- */

/* Stop every process of the child (SIGSTOP to each; it gets no CPU until
 * brainproc_resume), and continue them. A pause returns when all are
 * stopped (at most 2 s). No-ops on an ended child. */
void brainproc_pause(BrainProc *p);
void brainproc_resume(BrainProc *p);

/* ---- Ending ---- */

/* Has the child ended? Reaps it without waiting if it has. */
bool brainproc_exited(BrainProc *p);
/* Wait up to timeout_ms for the child to end by itself; true if it has. */
bool brainproc_wait(BrainProc *p, int timeout_ms);
/* End the child and everything it started (SIGKILL), reap it, close the
 * pipes, remove its cgroup and scratch directory. Only the process that
 * started it kills it; in another (a fork of that one) this only closes
 * the copies of the pipes. */
void brainproc_kill(BrainProc *p);
/* Close the pipe to the child (it sees end of input), give it grace_ms
 * to exit, then brainproc_kill. */
void brainproc_close(BrainProc *p, int grace_ms);
/* How the child ended, in words ("exit status 0", "killed by signal 9
 * (SIGKILL)", "over its memory limit", "running"), into buf. */
void brainproc_describe(const BrainProc *p, char *buf, size_t n);

/* Milliseconds on a monotonic clock. */
double brainproc_now_ms(void);

#endif
