/* brainproc.h: a child process spoken to in lines over two pipes, with the
 * process itself as its sandbox.
 *
 * Owns the life of one child: starting it (an executable with argv, or a
 * fork of the caller running the caller's own code), its resource limits
 * (address space, CPU seconds, no core files, file size), writing one line
 * to it and reading one line from it under a deadline, and ending it
 * (SIGKILL to its whole process group) and naming how it ended ("exit
 * status 3", "killed by signal 11 (SIGSEGV)"). The child's stderr goes to
 * a file, to /dev/null, or is inherited: never into the line stream.
 *
 * Used by the manager side of the Gomocup protocol (external brains as
 * tournament players) and by `marubatsu brain`, whose thinking runs in a
 * forked child so that a late AI can be abandoned and a move still sent in
 * time. POSIX; on Linux the child also dies with its parent
 * (PR_SET_PDEATHSIG). Writes to a child that has gone never raise SIGPIPE.
 * Uses nothing else of the engine. */
#ifndef MB_BRAINPROC_H
#define MB_BRAINPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define BRAINPROC_BUF 8192 /* read buffer; a longer line is BP_TOOLONG */

typedef struct BrainLimits {
    long long memory;        /* bytes of address space (RLIMIT_AS); 0: none */
    long cpu_seconds;        /* CPU seconds (RLIMIT_CPU); 0: none */
    const char *stderr_path; /* appended to; NULL: /dev/null; "-": inherited */
    int nice;                /* added to the child's nice value (0..19) */
} BrainLimits;

typedef struct BrainProc {
    pid_t pid;   /* the child (in a forked child: 0) */
    pid_t owner; /* the process that started it */
    int in_fd;   /* lines come from here (-1 when closed) */
    int out_fd;  /* lines go here (-1 when closed) */
    char buf[BRAINPROC_BUF];
    size_t len;    /* bytes waiting in buf */
    bool eof;      /* in_fd reached its end */
    bool skipping; /* dropping the rest of a line that was too long */
    bool reaped;   /* the child was waited for: status is valid */
    int status;    /* waitpid status */
} BrainProc;

/* What brainproc_recv found. */
enum { BP_LINE = 0, BP_TIMEOUT, BP_EOF, BP_TOOLONG, BP_ERROR };

/* ---- Starting ---- */

/* A closed BrainProc (pid 0, fds -1): safe to close again. */
void brainproc_clear(BrainProc *p);
/* Run argv[0] (a path, or a name looked up in PATH) with argv, its stdin
 * and stdout the line pipes, in its own process group, with the limits.
 * MB_OK, or MB_EIO with err naming why (including the child's exec
 * failing: "cannot run PATH: No such file or directory"). */
int brainproc_spawn(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                    size_t errlen);
/* Fork the caller. Returns MB_OK in both: *is_child tells which one. In
 * the child, p talks to the parent (in_fd its commands, out_fd its
 * answers), fd 1 is redirected to fd 2 (stray prints cannot reach the
 * parent's stdout) and the limits are applied; the child must end with
 * _exit. MB_EIO with err on failure. */
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

/* ---- Ending ---- */

/* Has the child ended? Reaps it without waiting if it has. */
bool brainproc_exited(BrainProc *p);
/* Wait up to timeout_ms for the child to end by itself; true if it has. */
bool brainproc_wait(BrainProc *p, int timeout_ms);
/* Kill the child's process group (SIGKILL) and reap it, then close the
 * pipes. Only the process that started it kills it; in another (a fork of
 * that one) this only closes the copies of the pipes. */
void brainproc_kill(BrainProc *p);
/* Close the pipe to the child (it sees end of input), give it grace_ms
 * to exit, then brainproc_kill. */
void brainproc_close(BrainProc *p, int grace_ms);
/* How the child ended, in words ("exit status 0", "killed by signal 9
 * (SIGKILL)", "running"), into buf. */
void brainproc_describe(const BrainProc *p, char *buf, size_t n);

/* Milliseconds on a monotonic clock. */
double brainproc_now_ms(void);

#endif
