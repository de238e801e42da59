/* tourney.c: game seeds and the pool of worker processes (see tourney.h).
 *
 * The pipe protocol, one pair of pipes per worker:
 *   parent -> worker  a long: the game to play, or 0 to finish
 *   worker -> parent  a long (the game), a long (length n of the line, or
 *                     -n for an error message), then the n bytes
 * A worker writes one whole message per game, so after poll() says its pipe
 * is readable the parent reads the message to its end. */
#define _GNU_SOURCE /* F_SETPIPE_SZ (Linux) */
#include "tourney.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mberror.h"
#include "clock.h"

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

uint64_t tourney_key(const char *s, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001B3ULL;
    }
    return h;
}

uint64_t tourney_game_seed(uint64_t master, uint64_t pairing, long index)
{
    uint64_t h = splitmix64(master);
    h = splitmix64(h ^ pairing);
    h = splitmix64(h ^ ((uint64_t)index << 1));
    return h >> 1;
}

/* ---- whole reads and writes ---- */

static bool write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* 1: read n bytes, 0: end of file before the first byte, -1: error or a
 * short message. */
static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) return got == 0 ? 0 : -1;
        got += (size_t)r;
    }
    return 1;
}

/* ---- the worker side ---- */

#define CHUNK_MAX     1024               /* games per request: one worker */
#define CHUNK_SHARED  128                /* with several: small enough to share the list's end */
#define HEADER        (2 * sizeof(long)) /* of a message: game, length */
#define INBUF         (HEADER + TOURNEY_LINE_MAX) /* the parent's buffer per worker */
#define OUTBUF        (4 * INBUF)                 /* a worker's unsent results */
#define FLUSH_SECONDS 0.05
#define QUEUE         (2 * CHUNK_MAX)
#define REAP_SECONDS  5.0 /* a worker told to finish gets this long before SIGKILL */

typedef struct Worker {
    pid_t pid;
    int req;           /* write end: games to play */
    int res;           /* read end: lines */
    long queue[QUEUE]; /* games sent, not yet answered, in order */
    int head, len;     /* the queue as a ring */
    char *buf;         /* INBUF bytes */
    char *in;          /* bytes read from res, not yet handled */
    size_t have;
    WatchSlot *slot; /* its moves, shared (NULL: no hard line) */
} Worker;

/* The game at position i of the list (NULL: the games 1..n). */
static long game_at(const long *list, long i) { return list ? list[i] : i + 1; }

/* Read what the pipe has into the worker's buffer: false at end of file
 * (the worker died) or on an error. */
static bool worker_read(Worker *w)
{
    for (;;) {
        ssize_t r = read(w->res, w->in + w->have, INBUF - (size_t)(w->in - w->buf) - w->have);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        w->have += (size_t)r;
        return true;
    }
}

/* The next whole message in the buffer: 1 with *game, *len and *text set
 * (the caller then drops HEADER + |len| bytes), 0 if incomplete, -1 if the
 * length is impossible. */
static int worker_message(const Worker *w, long *game, long *len, const char **text)
{
    if (w->have < HEADER) return 0;
    memcpy(game, w->in, sizeof *game);
    memcpy(len, w->in + sizeof *game, sizeof *len);
    size_t bytes = (size_t)(*len < 0 ? -*len : *len);
    if (bytes >= TOURNEY_LINE_MAX) return -1;
    if (w->have < HEADER + bytes) return 0;
    *text = w->in + HEADER;
    return 1;
}

/* Play the games the parent sends. Results are sent in batches, at the end
 * of each request or FLUSH_SECONDS after the oldest unsent one: a write per
 * game would wake the parent per game, and on a small machine those context
 * switches cost more than a fast game. */
static void worker_loop(int req, int res, TourneyPlayFn play, void *ctx)
{
    char *out = malloc(OUTBUF);
    char *line = malloc(TOURNEY_LINE_MAX);
    size_t used = 0;
    double oldest = 0;
    long count, games[CHUNK_MAX];
    while (out && line && read_all(req, &count, sizeof count) == 1 && count > 0 &&
           count <= CHUNK_MAX && read_all(req, games, (size_t)count * sizeof games[0]) == 1) {
        for (long i = 0; i < count; i++) {
            watch_game(games[i]);
            long len = play(ctx, games[i], line, TOURNEY_LINE_MAX);
            long n = len >= 0 ? len : -(long)strlen(line);
            size_t bytes = (size_t)(n < 0 ? -n : n);
            if (used + HEADER + bytes > OUTBUF) {
                if (!write_all(res, out, used)) goto out;
                used = 0;
            }
            if (used == 0) oldest = clock_now();
            memcpy(out + used, &games[i], sizeof games[i]);
            memcpy(out + used + sizeof games[i], &n, sizeof n);
            memcpy(out + used + HEADER, line, bytes);
            used += HEADER + bytes;
            if (i == count - 1 || clock_now() - oldest > FLUSH_SECONDS) {
                if (!write_all(res, out, used)) goto out;
                used = 0;
            }
        }
    }
out:
    free(out);
    free(line);
    fflush(NULL);
    _exit(0);
}

static void cloexec(int fd) { fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC); }

/* Start worker w; the other workers' pipe ends are closed in the child.
 * The pipes are closed on exec: a program a player starts (a brain) gets
 * none of them. A worker dies with the parent (Linux's parent-death
 * signal): a parent killed outright leaves no worker stuck in a move. */
static bool worker_start(Worker *ws, int jobs, int w, TourneyPlayFn play, void *ctx)
{
    int req[2], res[2];
    if (pipe(req) != 0) return false;
    if (pipe(res) != 0) {
        close(req[0]);
        close(req[1]);
        return false;
    }
    for (int i = 0; i < 2; i++) {
        cloexec(req[i]);
        cloexec(res[i]);
    }
#ifdef F_SETPIPE_SZ
    /* room for a request's lines (about 140 bytes a game): a worker that
     * fills the pipe waits for the parent, which a loaded machine may not
     * run for milliseconds (best effort: the default 64 KiB works too) */
    fcntl(res[1], F_SETPIPE_SZ, 1 << 20);
#endif
    if (ws[w].slot) watch_clear(ws[w].slot);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(req[0]);
        close(req[1]);
        close(res[0]);
        close(res[1]);
        return false;
    }
    if (pid == 0) {
        /* it dies with the parent, even one killed with SIGKILL */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1); /* the parent died before prctl */
        for (int i = 0; i < jobs; i++) {
            if (i == w || ws[i].pid <= 0) continue;
            close(ws[i].req);
            close(ws[i].res);
        }
        close(req[1]);
        close(res[0]);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        watch_use(ws[w].slot);
        worker_loop(req[0], res[1], play, ctx);
    }
    close(req[0]);
    close(res[1]);
    ws[w].pid = pid;
    ws[w].req = req[1];
    ws[w].res = res[0];
    ws[w].have = 0;
    ws[w].in = ws[w].buf;
    return true;
}

/* Close the pipes of a worker that is dead or told to finish. */
static void worker_close(Worker *w)
{
    if (w->req >= 0) close(w->req);
    close(w->res);
    w->pid = 0;
    w->have = 0;
    w->in = w->buf;
}

/* Tell an idle worker to finish, and wait for it (not for ever). */
static void worker_stop(Worker *w)
{
    if (w->pid <= 0) return;
    long quit = 0;
    write_all(w->req, &quit, sizeof quit);
    pid_t pid = w->pid;
    close(w->req); /* end of file on its requests, too */
    w->req = -1;
    /* its end of the results pipe closes when it exits: wait for that
     * (at once, where sleeping between looks would lose milliseconds under
     * load), then for the process, which is then gone or about to be */
    double until = clock_now() + REAP_SECONDS;
    bool ended = false;
    for (;;) {
        double left = until - clock_now();
        struct pollfd pf = {w->res, POLLIN, 0};
        int r = left > 0 ? poll(&pf, 1, (int)(left * 1000) + 1) : 0;
        if (r < 0 && errno == EINTR) continue;
        char sink[256];
        ssize_t got = r > 0 ? read(w->res, sink, sizeof sink) : -1;
        if (got > 0) continue; /* (nothing is expected) */
        ended = got == 0;
        break;
    }
    worker_close(w);
    if (ended)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    else
        watch_reap(pid, 0, NULL); /* not ended in time: killed */
}

/* Send count games (already in the worker's queue, from position at). */
static bool worker_send(Worker *w, int at, long count)
{
    long msg[1 + CHUNK_MAX];
    msg[0] = count;
    for (long i = 0; i < count; i++) msg[1 + i] = w->queue[(at + i) % QUEUE];
    return write_all(w->req, msg, (size_t)(count + 1) * sizeof msg[0]);
}

/* Send the whole queue (to a new worker). */
static bool worker_resend(Worker *w)
{
    bool sent = true;
    for (int at = 0; sent && at < w->len; at += CHUNK_MAX) {
        long part = w->len - at < CHUNK_MAX ? w->len - at : CHUNK_MAX;
        sent = worker_send(w, (w->head + at) % QUEUE, part);
    }
    return sent;
}

/* Queue and send the next games of the list, up to `chunk`. */
static bool worker_feed(Worker *w, const long *list, long n, long *next, long chunk)
{
    long count = 0;
    int at = (w->head + w->len) % QUEUE;
    while (count < chunk && *next < n && w->len < QUEUE) {
        w->queue[(w->head + w->len) % QUEUE] = game_at(list, (*next)++);
        w->len++;
        count++;
    }
    return count == 0 || worker_send(w, at, count);
}

/* Take `game` out of the worker's queue; false if it is not there. */
static bool worker_drop(Worker *w, long game)
{
    long rest[QUEUE];
    int k = 0;
    bool found = false;
    for (int i = 0; i < w->len; i++) {
        long g = w->queue[(w->head + i) % QUEUE];
        if (g == game && !found)
            found = true;
        else
            rest[k++] = g;
    }
    memcpy(w->queue, rest, (size_t)k * sizeof rest[0]);
    w->head = 0;
    w->len = k;
    return found;
}

/* ---- the parent ---- */

/* Ctrl-C during a run: the parent stops handing out games, stops its
 * workers (they die of the same SIGINT) and returns MB_EIO with
 * "interrupted"; the journal keeps what finished. Without workers the
 * game in progress ends first, and the handler is reset by the first
 * signal, so a second Ctrl-C ends a program whose game does not return. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_interrupt(struct sigaction *old, bool once)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt; /* no SA_RESTART: poll returns EINTR */
    sa.sa_flags = once ? SA_RESETHAND : 0;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, old);
}

/* Put the caller's SIGINT handling back. A Ctrl-C that came after the last
 * game (the run ended rc MB_OK without reporting it) is not lost: it is
 * raised again for the caller's handler (a command's: it stops the command)
 * or the default action. */
static void release_interrupt(const struct sigaction *old, int rc)
{
    sigaction(SIGINT, old, NULL);
    if (interrupted && rc == MB_OK) raise(SIGINT);
}

static int run_inline(const long *list, long n, TourneyPlayFn play, TourneyDoneFn done, void *ctx,
                      char *err, size_t errlen)
{
    char *line = malloc(TOURNEY_LINE_MAX);
    if (!line) return MB_ENOMEM;
    struct sigaction old_int;
    catch_interrupt(&old_int, true);
    int rc = MB_OK;
    for (long i = 0; i < n; i++) {
        if (interrupted) {
            snprintf(err, errlen, "interrupted");
            rc = MB_EIO;
            break;
        }
        long len = play(ctx, game_at(list, i), line, TOURNEY_LINE_MAX);
        if (len < 0) {
            snprintf(err, errlen, "%s", line);
            rc = MB_EINVAL;
            break;
        }
        if (done(ctx, line, (size_t)len, 1)) break;
    }
    release_interrupt(&old_int, rc);
    free(line);
    return rc;
}

typedef struct Pool {
    const long *list;
    long n, next, chunk;
    int jobs;
    const TourneyOptions *opt;
    TourneyPlayFn play;
    TourneyDoneFn done;
    void *ctx;
    Worker *ws;
    char *line; /* a batch of lines */
    char *err;
    size_t errlen;
    bool stop;    /* done() asked to hand out no more games */
    long died_on; /* the game at the head of a worker's queue when it died */
} Pool;

/* Hand the whole messages in worker w's buffer to done(), as one batch, and
 * feed it more games. MB_OK, or an error (message in p->err). */
static int pool_take(Pool *p, Worker *wk)
{
    long game = 0, len = 0, count = 0;
    const char *text = NULL;
    size_t batch_len = 0;
    while (wk->len > 0 && worker_message(wk, &game, &len, &text) == 1 &&
           game == wk->queue[wk->head]) {
        size_t bytes = (size_t)(len < 0 ? -len : len);
        if (len < 0) {
            memcpy(p->line, text, bytes);
            p->line[bytes] = '\0';
            snprintf(p->err, p->errlen, "%s", p->line);
            return MB_EINVAL;
        }
        memcpy(p->line + batch_len, text, bytes);
        batch_len += bytes;
        count++;
        wk->have -= HEADER + bytes;
        wk->in += HEADER + bytes;
        wk->head = (wk->head + 1) % QUEUE;
        wk->len--;
        /* (a worker that died meanwhile gets its queue from its
         * replacement: a broken pipe is not an error here) */
        if (!p->stop && wk->len <= p->chunk &&
            !worker_feed(wk, p->list, p->n, &p->next, p->chunk) && errno != EPIPE) {
            snprintf(p->err, p->errlen, "cannot reach a worker process: %s", strerror(errno));
            return MB_EIO;
        }
    }
    /* keep the unread rest at the start of the buffer */
    memmove(wk->buf, wk->in, wk->have);
    wk->in = wk->buf;
    if (count > 0) {
        p->line[batch_len] = '\0';
        if (p->done(p->ctx, p->line, batch_len, count)) p->stop = true;
    }
    return MB_OK;
}

/* Start a new worker w for the games its dead predecessor left, and more. */
static int pool_restart(Pool *p, int w)
{
    Worker *wk = &p->ws[w];
    if (!worker_start(p->ws, p->jobs, w, p->play, p->ctx) || !worker_resend(wk) ||
        (!p->stop && wk->len <= p->chunk && !worker_feed(wk, p->list, p->n, &p->next, p->chunk))) {
        snprintf(p->err, p->errlen, "cannot restart a worker process: %s", strerror(errno));
        return MB_EIO;
    }
    return MB_OK;
}

/* The hard line: worker w's move numbered seq is past its deadline and
 * the slack. Kill the worker, keep the lines it had sent, give the game
 * its forfeit line, and start a new worker for the rest of its games. */
static int pool_kill(Pool *p, int w, uint64_t seq)
{
    Worker *wk = &p->ws[w];
    kill(wk->pid, SIGKILL);
    watch_reap(wk->pid, REAP_SECONDS, NULL);
    double used = clock_now() - wk->slot->move.started;
    /* the lines it wrote before it died: whole messages are results */
    for (bool more = true; more;) {
        struct pollfd pf = {wk->res, POLLIN, 0};
        more = poll(&pf, 1, 0) > 0 && worker_read(wk);
        int rc = pool_take(p, wk);
        if (rc != MB_OK) return rc;
    }
    worker_close(wk);
    if (watch_ended(wk->slot, seq) && worker_drop(wk, wk->slot->move.game)) {
        long game = wk->slot->move.game;
        long len = p->opt->forfeit(p->ctx, game, &wk->slot->move, used, p->line, TOURNEY_LINE_MAX);
        if (len < 0) {
            snprintf(p->err, p->errlen, "%s", p->line);
            return MB_EINVAL;
        }
        if (p->done(p->ctx, p->line, (size_t)len, 1)) p->stop = true;
    } else if (p->opt->once && wk->len > 0) {
        /* the move ended just before the kill, and its game cannot start over */
        snprintf(p->err, p->errlen,
                 "game %ld: its worker was killed as its move ended, %.1f s past its deadline",
                 wk->queue[wk->head], used - wk->slot->move.seconds);
        return MB_EIO;
    }
    /* (else the move ended just before the kill: its games are played again) */
    if (wk->len == 0 && (p->stop || p->next >= p->n)) return MB_OK; /* nothing left for it */
    return pool_restart(p, w);
}

/* Start the pool's workers and give each its first two requests. */
static int pool_start(Pool *p, WatchSlot *slots)
{
    for (int w = 0; w < p->jobs; w++) {
        p->ws[w].buf = p->ws[w].in = malloc(INBUF);
        p->ws[w].slot = slots ? &slots[w] : NULL;
        if (!p->ws[w].buf) return MB_ENOMEM;
    }
    for (int w = 0; w < p->jobs; w++) {
        if (!worker_start(p->ws, p->jobs, w, p->play, p->ctx)) {
            snprintf(p->err, p->errlen, "cannot start a worker process: %s", strerror(errno));
            return MB_EIO;
        }
    }
    for (int w = 0; w < p->jobs; w++) {
        if (!worker_feed(&p->ws[w], p->list, p->n, &p->next, p->chunk) ||
            !worker_feed(&p->ws[w], p->list, p->n, &p->next, p->chunk)) {
            snprintf(p->err, p->errlen, "cannot reach a worker process: %s", strerror(errno));
            return MB_EIO;
        }
    }
    return MB_OK;
}

/* poll's timeout with the hard line: the watched moves are looked at least
 * every WATCH_POLL seconds, and when the first of them falls due; -1
 * (none) without it. */
static int pool_timeout(const Pool *p, bool watching)
{
    if (!watching) return -1;
    double now = clock_now(), next = now + WATCH_POLL;
    for (int w = 0; w < p->jobs; w++) {
        double due = p->ws[w].len ? watch_due(p->ws[w].slot, p->opt->slack) : 0;
        if (due > 0 && due < next) next = due;
    }
    return next > now ? (int)((next - now) * 1000) + 1 : 0;
}

/* Worker w has output: take its messages; if it died or broke the
 * protocol with games left, replace it and give the replacement the same
 * games (a game that kills two workers, or one with opt->once, stops the
 * run). */
static int pool_serve(Pool *p, int w)
{
    Worker *wk = &p->ws[w];
    bool alive = worker_read(wk);
    int rc = pool_take(p, wk);
    if (rc != MB_OK) return rc;
    long game = 0, len = 0;
    const char *text = NULL;
    bool broken = wk->len > 0 && wk->have >= HEADER &&
                  (worker_message(wk, &game, &len, &text) < 0 || game != wk->queue[wk->head]);
    if (wk->len == 0 || (alive && !broken) || interrupted) return MB_OK;
    long want = wk->queue[wk->head];
    int status = 0;
    pid_t pid = wk->pid;
    kill(pid, SIGKILL);
    worker_close(wk);
    watch_reap(pid, REAP_SECONDS, &status);
    if (p->died_on == want || p->opt->once) {
        snprintf(p->err, p->errlen, "game %ld: its worker died%s (%s %d)", want,
                 p->opt->once ? "" : " twice", WIFSIGNALED(status) ? "signal" : "exit status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        return MB_EIO;
    }
    p->died_on = want;
    return pool_restart(p, w);
}

/* The hard line: kill the workers whose watched move is overdue. */
static int pool_watch(Pool *p)
{
    double now = clock_now();
    for (int w = 0; w < p->jobs; w++) {
        uint64_t seq;
        int rc;
        if (p->ws[w].len && p->ws[w].pid > 0 &&
            watch_overdue(p->ws[w].slot, p->opt->slack, now, &seq) &&
            (rc = pool_kill(p, w, seq)) != MB_OK)
            return rc;
    }
    return MB_OK;
}

/* Until every game is reported: poll the workers, serve those with output,
 * watch the moves. */
static int pool_loop(Pool *p, struct pollfd *fds, bool watching)
{
    for (;;) {
        int busy = 0;
        for (int w = 0; w < p->jobs; w++) {
            fds[w].fd = p->ws[w].len ? p->ws[w].res : -1;
            fds[w].events = POLLIN;
            fds[w].revents = 0;
            busy += p->ws[w].len != 0;
        }
        if (busy == 0) return MB_OK;
        if (interrupted) {
            snprintf(p->err, p->errlen, "interrupted");
            return MB_EIO;
        }
        int ready = poll(fds, (nfds_t)p->jobs, pool_timeout(p, watching));
        if (ready < 0) {
            if (errno == EINTR) continue;
            snprintf(p->err, p->errlen, "poll: %s", strerror(errno));
            return MB_EIO;
        }
        int rc;
        for (int w = 0; ready > 0 && w < p->jobs; w++)
            if (fds[w].revents && (rc = pool_serve(p, w)) != MB_OK) return rc;
        if (watching && !interrupted && (rc = pool_watch(p)) != MB_OK) return rc;
    }
}

int tourney_pool(const long *list, long n, const TourneyOptions *opt, TourneyPlayFn play,
                 TourneyDoneFn done, void *ctx, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    int jobs = opt->jobs < 1 ? 1 : opt->jobs;
    if (n <= 0 || (!opt->isolate && (jobs <= 1 || n <= 1)))
        return run_inline(list, n, play, done, ctx, err, errlen);
    if (jobs > n) jobs = (int)n;
    bool watching = opt->slack >= 0 && opt->forfeit;
    /* games per request: small enough to share the end of the list, large
     * enough that the pipes are not the bottleneck */
    long chunk = n / ((long)jobs * 16);
    if (chunk < 1) chunk = 1;
    if (chunk > (jobs > 1 ? CHUNK_SHARED : CHUNK_MAX)) chunk = jobs > 1 ? CHUNK_SHARED : CHUNK_MAX;
    Worker *ws = calloc((size_t)jobs, sizeof *ws);
    struct pollfd *fds = calloc((size_t)jobs, sizeof *fds);
    char *line = malloc(INBUF); /* a batch of lines */
    WatchSlot *slots = watching ? watch_slots_new(jobs) : NULL;
    Pool p = {list, n, 0, chunk, jobs, opt, play, done, ctx, ws, line, err, errlen, false, 0};
    if (!ws || !fds || !line || (watching && !slots)) {
        free(ws);
        free(fds);
        free(line);
        if (slots) watch_slots_free(slots, jobs);
        return MB_ENOMEM;
    }
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    struct sigaction old_int;
    catch_interrupt(&old_int, false);
    int rc = pool_start(&p, slots);
    if (rc == MB_OK) rc = pool_loop(&p, fds, watching);
    for (int w = 0; w < jobs; w++) {
        if ((rc != MB_OK || p.stop) && ws[w].pid > 0) kill(ws[w].pid, SIGKILL);
        worker_stop(&ws[w]);
        free(ws[w].buf);
    }
    signal(SIGPIPE, old_pipe);
    release_interrupt(&old_int, rc);
    if (slots) watch_slots_free(slots, jobs);
    free(ws);
    free(fds);
    free(line);
    return rc;
}

int tourney_run(const long *list, long n, int jobs, TourneyPlayFn play, TourneyDoneFn done,
                void *ctx, char *err, size_t errlen)
{
    TourneyOptions opt = {jobs, false, -1, NULL, false};
    return tourney_pool(list, n, &opt, play, done, ctx, err, errlen);
}
