/* watchdog.h: the hard line under the sandbox's budgets. The in-VM budgets
 * (time, instructions, memory: src/lua/l_budget.c) act between Lua
 * instructions, so a script stuck inside one C call (a collection, a
 * compilation, a library loop) runs on past them. The hard line does not
 * need that call to return: a worker process says, in a page of memory it
 * shares with the process that started it (its supervisor), which move is
 * running and until when; the supervisor, which waits on the worker
 * anyway, kills the worker once a move runs on past its deadline plus a
 * slack, reads what the move was from the page and records the move as
 * lost on time.
 *
 *   supervisor                         worker (a fork of the supervisor)
 *   s = watch_slots_new(n)
 *   watch_clear(&s[i]), fork ------>   watch_use(&s[i])
 *                                      watch_game(g)         (each game)
 *                                      m = watch_prepare()   (before a move:
 *                                      ...fill m...           NULL when not
 *                                      watch_arm(seconds)     supervised)
 *                                      ...the move...
 *                                      watch_disarm()
 *   watch_due(&s[i], slack) -> when to look again
 *   watch_overdue(&s[i], slack, now, &seq) -> kill it?
 *   kill, watch_reap(pid, ...)
 *   watch_ended(&s[i], seq) -> the move s[i].move is the one killed
 *
 * The worker's side costs a clock read and a few stores per move: no
 * system call, no signal, no thread. Plain POSIX (mmap, kill, waitpid) and
 * C11 atomics; no Lua. */
#ifndef MB_WATCHDOG_H
#define MB_WATCHDOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The default slack: how long past its deadline a move may run on before
 * its process is killed (the in-VM budgets normally end it within
 * milliseconds). */
#define WATCH_SLACK_DEFAULT 0.5
/* Squares of a game a slot keeps (the largest board: 32 x 32). */
#define WATCH_MOVES_MAX     1024

/* How the move's limit was set, for the reason of its loss. */
enum { WATCH_BUDGET = 0, WATCH_MOVE_TIME = 1, WATCH_GAME_TIME = 2 };

/* The running move, as the worker described it (plain data: the
 * supervisor reads it only after the worker is dead). */
typedef struct WatchMove {
    long game;            /* the supervisor's number of the game (watch_game) */
    double started;       /* clock_now() at watch_arm */
    double seconds;       /* the move's time limit */
    int kind;             /* WATCH_BUDGET, WATCH_MOVE_TIME or WATCH_GAME_TIME */
    double limit;         /* the time control's limit named in the reason */
    double spent[2];      /* seconds 〇 and × used before this move (timed games) */
    int width, height, k; /* the game's shape, to rebuild it from the squares */
    bool exact;           /* its rule: exactly k in a row (geometry.h) */
    int nmoves;           /* squares played before this move, in order */
    int moves[WATCH_MOVES_MAX];
} WatchMove;

typedef struct WatchSlot {
    _Atomic uint64_t seq;        /* odd while a move is armed */
    _Atomic int64_t deadline_ns; /* of the armed move, nanoseconds of clock_now() */
    WatchMove move;
} WatchSlot;

/* n slots in memory shared with the processes forked after this call
 * (zeroed), or NULL (errno set). */
WatchSlot *watch_slots_new(int n);
void watch_slots_free(WatchSlot *s, int n);

/* ---- the worker's side (each a no-op in a process that is not supervised) ---- */

/* This process reports to s from now on (NULL: to nothing). */
void watch_use(WatchSlot *s);
/* The game this process plays from now on (before its first move). */
void watch_game(long game);
/* The record of the next move to fill in, or NULL when this process is not
 * supervised (then skip the rest). */
WatchMove *watch_prepare(void);
/* The move filled in starts now and may take `seconds`. */
void watch_arm(double seconds);
/* It ended (in time or not: the in-VM budget has judged it). */
void watch_disarm(void);

/* ---- the supervisor's side ---- */

/* Make s as new, before forking the worker that reports to it (the slot of
 * a killed worker still shows its last move). */
void watch_clear(WatchSlot *s);

/* When the move armed in s becomes overdue (its deadline + slack, in
 * clock_now() seconds), or 0 when no move is armed. */
double watch_due(WatchSlot *s, double slack);
/* Is the move armed in s overdue at `now`? Then *seq is its number, for
 * watch_ended after the kill. */
bool watch_overdue(WatchSlot *s, double slack, double now, uint64_t *seq);
/* After the worker is dead: is the move numbered seq still the one armed
 * (false: it ended just before the kill, and s->move may be another)? */
bool watch_ended(WatchSlot *s, uint64_t seq);

/* Wait for process pid to end, at most `seconds`, then kill it (SIGKILL)
 * and wait for good; its status in *status (may be NULL). */
void watch_reap(pid_t pid, double seconds, int *status);

#endif
