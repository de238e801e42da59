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
 * depends on timing while the set of lines does not. Uses mberror.h and
 * POSIX. */
#ifndef MB_TOURNEY_H
#define MB_TOURNEY_H

#include <stddef.h>
#include <stdint.h>

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

/* Play the n games of list[] on `jobs` workers (jobs <= 1: in this process,
 * in order). MB_OK, or an error with a message in err: MB_EIO (fork or pipe
 * failed, a worker died twice on the same game, or SIGINT: the message is
 * "interrupted" and the workers are stopped), or the message of a play
 * callback that returned -1. A worker that dies is replaced and its game is
 * played again by the replacement. */
int tourney_run(const long *list, long n, int jobs, TourneyPlayFn play, TourneyDoneFn done,
                void *ctx, char *err, size_t errlen);

#endif
