/* tourney.h: the parts of a tournament that do not need Lua: the seed of each
 * game, and a pool of worker processes that play games given by number.
 *
 * Seeds: every game's seed is a pure function of (master seed, pairing,
 * game index in the pairing), so a game replays from its journal line and
 * the results do not depend on which worker played what.
 *
 * Workers are processes (fork): each starts as a copy of the caller with
 * everything it had loaded (players written as Lua functions included),
 * plays the games the parent hands it in small batches, and sends back one
 * line of text per game through its own pipe (a write per batch, or every
 * 50 ms, so that a fast game does not cost two context switches). The
 * parent hands out games in the order given, as workers become free, and
 * calls `done` with the lines as they arrive, so the order of the lines
 * depends on timing while the set of lines does not. A worker stuck in a
 * move is killed by the hard line (watchdog.h). Uses mberror.h and POSIX. */
#ifndef MB_TOURNEY_H
#define MB_TOURNEY_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "watchdog.h"

/* The seed of game `index` (1-based) of the pairing identified by `pairing`
 * under master seed `master`: splitmix64 mixing of the three, reduced to 63
 * bits (so it is a non-negative Lua integer). Tournaments identify a
 * pairing by tourney_key of its two players' names, so its games do not
 * change when other players join. */
uint64_t tourney_game_seed(uint64_t master, uint64_t pairing, long index);
/* FNV-1a (64 bits) of n bytes: the pairing key of a text. */
uint64_t tourney_key(const char *s, size_t n);

/* Play game number `game`: write its line (NUL-terminated, at most size
 * bytes with the NUL) into out; return its length, or -1 after writing an
 * error message into out (the pool then stops with that message). */
typedef long (*TourneyPlayFn)(void *ctx, long game, char *out, size_t size);
/* Lines arrived (in the parent): `count` whole lines (each ending with its
 * newline, as play wrote them), len bytes, NUL-terminated, in the order the
 * worker played them. One call per read from a worker (every game when
 * jobs <= 1): the moment to write and flush a journal. Return nonzero to
 * stop handing out games (games already handed out still arrive). */
typedef int (*TourneyDoneFn)(void *ctx, const char *lines, size_t len, long count);

#define TOURNEY_LINE_MAX (64 * 1024)

/* The line of a game whose worker was killed by the hard line (in the
 * parent, watchdog.h): the game's move `m` (as the worker described it:
 * the squares played before it, its limit and how it was set) ran `used`
 * seconds, past its deadline and the slack. Write the line the game
 * gets (a loss on time of the side to move) and return its length, as
 * play does; or -1 after writing an error message (the pool then stops
 * with that message). */
typedef long (*TourneyForfeitFn)(void *ctx, long game, const WatchMove *m, double used, char *out,
                                 size_t size);

typedef struct TourneyOptions {
    int jobs;                 /* worker processes (<= 1: one, or none: see isolate) */
    bool isolate;             /* play in a worker even with one job or one game */
    double slack;             /* < 0: no hard line; else the seconds a watched move may
                                 run past its deadline before its worker is killed */
    TourneyForfeitFn forfeit; /* needed with slack >= 0 */
    bool once;                /* a game whose worker dies is not played again: the
                                 run stops (games that cannot start over: play's,
                                 whose moves a person types) */
} TourneyOptions;

/* Play the n games of list[] (list NULL: the games 1..n) on opt->jobs
 * workers (jobs <= 1 and not isolate: in this process, in order). MB_OK, or
 * an error with a message in err: MB_EIO (fork or pipe failed, a worker
 * died twice on the same game, or SIGINT: the message is "interrupted" and
 * the workers are stopped), or the message of a play or forfeit callback
 * that returned -1. A worker that dies is replaced and its game is played
 * again by the replacement (with opt->once the run stops instead: "game N:
 * its worker died (signal S)").
 *
 * The hard line (slack >= 0): each worker reports its moves in a slot it
 * shares with the parent (watchdog.h: the worker's play function arms and
 * disarms them; the pool sets the game). The parent never waits on its
 * workers for more than WATCH_POLL seconds without looking at their slots;
 * a worker whose armed move is past its deadline + slack is killed, the
 * game gets the line of the forfeit callback, and a new worker plays the
 * games that worker had not answered. (A move that ended just before the
 * kill has no forfeit: its games are played again, or with opt->once the
 * run stops with a message.) Ctrl-C (SIGINT) stops the pool at
 * once, also with one worker; in this process (no workers) it stops after
 * the game in progress, and a second one ends the program. */
int tourney_pool(const long *list, long n, const TourneyOptions *opt, TourneyPlayFn play,
                 TourneyDoneFn done, void *ctx, char *err, size_t errlen);

/* tourney_pool with {jobs} only: no hard line, workers only for jobs > 1. */
int tourney_run(const long *list, long n, int jobs, TourneyPlayFn play, TourneyDoneFn done,
                void *ctx, char *err, size_t errlen);

/* The longest the parent waits on its workers without looking at their
 * watched moves (seconds). */
#define WATCH_POLL 0.1

#endif
