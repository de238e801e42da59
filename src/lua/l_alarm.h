/* l_alarm.h: a process's POSIX timer that sends a signal at a deadline,
 * the piece that the sandbox's time budget (l_budget.c) and the host's
 * timed calls (l_timed.c) share; each keeps its own signal, handler and
 * bookkeeping (which call is running, what to do after a fork). Plain
 * POSIX: no Lua. */
#ifndef MB_L_ALARM_H
#define MB_L_ALARM_H

#include <stdbool.h>
#include <time.h>

/* Make handler the handler of signal signo (SA_RESTART, nothing masked).
 * false if sigaction failed. */
bool alarm_handler(int signo, void (*handler)(int));
/* Create a CLOCK_MONOTONIC timer that sends signo, in *out; false if the
 * system has none to give (the callers then fall back on a count hook). */
bool alarm_timer(int signo, timer_t *out);
/* Arm t to fire `seconds` from now (at least a microsecond), or disarm it
 * when seconds <= 0. false if timer_settime failed. */
bool alarm_set(timer_t t, double seconds);

#endif
