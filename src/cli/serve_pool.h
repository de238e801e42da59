/* serve_pool.h: the AI worker processes of `marubatsu serve`
 * (serve_pool.c): jobs queued to pool threads, each of which runs one
 * worker process and kills it when a job outlives its limit. */
#ifndef MB_SERVE_POOL_H
#define MB_SERVE_POOL_H

#include <stddef.h>

/* Seconds a worker may outlive a job's limit before it is killed: the AI's
 * own budget (the sandbox's, host.timed_call's) stops Lua code at the
 * limit, the kill stops whatever a call does inside C. */
#define SERVE_SLACK 0.5

typedef enum { JOB_OK, JOB_TIME, JOB_CRASH, JOB_STOPPING } JobOutcome;

/* One AI call. The caller fills spec, len, limit and owner; the pool sets
 * the outcome (and answer or why) and then calls done, after which it no
 * longer touches the job. */
typedef struct ServeJob {
    char *spec; /* the message for the worker (scripts/lib/serve.lua) */
    size_t len;
    double limit; /* seconds the AI may take; killed past limit + SERVE_SLACK */
    void *owner;  /* the caller's */
    JobOutcome outcome;
    char *answer; /* JOB_OK: the worker's answer, malloc'ed */
    size_t answer_len;
    char why[160]; /* JOB_CRASH: what happened */
    struct ServeJob *next;
} ServeJob;

typedef struct ServePool ServePool;

/* Start n pool threads (at most 16), each to run a worker:
 * /proc/self/exe with argv (kept, not copied), its descriptors 3 and 4 the
 * job and answer pipes; the workers start with serve_pool_warm or the
 * first job, and again at once after one is killed. done(job, cls) is called from a pool thread (or
 * from serve_pool_submit/serve_pool_stop) when a job ends. NULL if no
 * thread could start. */
ServePool *serve_pool_start(int n, char **argv, void (*done)(ServeJob *, void *), void *cls);
/* The number of workers. */
int serve_pool_size(const ServePool *p);
/* Start the workers now (once a game is made: not while the first page
 * loads, whose requests need no AI). */
void serve_pool_warm(ServePool *p);
/* Queue a job: the workers take jobs in order. */
void serve_pool_submit(ServePool *p, ServeJob *j);
/* End every queued and running job with JOB_STOPPING (their done called),
 * kill the workers and join the threads (once: again does nothing). The
 * pool stays readable (its size, a late serve_pool_warm or submit, which
 * ends the job at once) until serve_pool_free, so that the HTTP threads
 * still running may use it until they are stopped too. */
void serve_pool_stop(ServePool *p);
/* Stop the pool if it is not yet, then free it. */
void serve_pool_free(ServePool *p);

#endif
