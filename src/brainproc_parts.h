/* brainproc_parts.h: what the parts of brainproc (brainproc.h) share; not
 * part of the library's interface.
 *
 *   brainproc.c        the caller's side: lines, stderr, stop/continue,
 *                      waiting, ending, exit reasons, brainproc_fork
 *   brainproc_child.c  starting a child: descriptors, limits, signals, its
 *                      stderr file; the plain child (BP_ISOLATE_NONE)
 *   brainproc_spawn.c   the box on the manager's side: choosing the
 *                      isolation, cgroups, starting a box, its reports
 *   brainproc_box.c         the box's own processes: keeper, init, namespaces,
 *                      the read-only view, supervision (Linux)
 *
 * Each declaration names the file that defines it. */
#ifndef MB_BRAINPROC_PARTS_H
#define MB_BRAINPROC_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "brainproc.h"

/* ---- brainproc_child.c ---- */

/* Write the message into err (when there is room) and return MB_EIO. */
int bp_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Close *fd if open, and mark it closed (-1). */
void bp_close_fd(int *fd);
void bp_nonblock(int fd);
/* A pipe with both ends close-on-exec: 0, or -1. */
int bp_cloexec_pipe(int fds[2]);
/* Two pipes, all four ends close-on-exec: 0, or -1. */
int bp_make_pipes(int down[2], int up[2]);
void bp_sleep_ms(int ms);
/* Resource limits and the nice value for a program about to start; memory
 * as an address space only when as_limit. */
void bp_apply_rlimits(const BrainLimits *lim, bool as_limit);
/* Default dispositions for every signal we may have ignored, and an empty
 * mask, for the new program. */
void bp_default_signals(void);
/* In a plain child: limits, its own process group, death with the parent. */
void bp_child_setup(const BrainLimits *lim, pid_t parent);
/* The descriptor the child's stderr goes to (see brainproc_child.c). */
int bp_child_stderr(BrainProc *p, const BrainLimits *lim);
/* Put fds[0..2] on 0, 1, 2: 0, or -1. */
int bp_place_stdio(const int fds[3]);
/* Put fd on 3, close-on-exec: 0, or -1. */
int bp_place_fd3(int fd);
/* Close every descriptor from `from` up, except the n in keep. */
void bp_close_from(int from, const int *keep, int n);
/* Start argv as a plain child in its own process group (BP_ISOLATE_NONE). */
int bp_spawn_plain(BrainProc *p, char *const argv[], const BrainLimits *lim, char *err,
                   size_t errlen);

/* ---- brainproc_spawn.c ---- */

/* Take in what the box's supervisor reported, without waiting (a no-op
 * for a plain child, and off Linux). */
void bp_take_reports(BrainProc *p);
/* Remove p's cgroup, ending whatever is left in it (none: nothing). */
void bp_cg_remove(BrainProc *p);

#ifdef __linux__

/* What a box's supervisor reports to the manager, on the report pipe. */
enum { REP_READY = 1, REP_SETUP, REP_EXEC, REP_EXIT, REP_MEMORY, REP_PAUSED };

typedef struct Report {
    int kind;
    int code;         /* REP_SETUP, REP_EXEC: errno; REP_EXIT: the wait status */
    long long amount; /* REP_SETUP: the step; REP_MEMORY: bytes resident */
} Report;

/* The steps of making a box, for messages (brainproc_spawn.c names them). */
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

/* Read one report (waiting at most timeout_ms; < 0: no limit): true if
 * one came. */
bool bp_read_report(BrainProc *p, Report *r, int timeout_ms);
/* Note what report r says in p (its end, a stop done). */
void bp_take_report(BrainProc *p, const Report *r);

/* ---- brainproc_box.c ---- */

/* The keeper: a child of the manager, in a fork made for it. Never returns. */
void bp_keeper_main(const Box *b);
/* Write text into the file at path (no stdio): 0, or -1 with errno. */
int bp_write_text(const char *path, const char *text);
/* Read up to n - 1 bytes of a small file into buf (NUL-terminated): the
 * length, or -1. */
ssize_t bp_read_text(const char *path, char *buf, size_t n);

#endif

#endif
