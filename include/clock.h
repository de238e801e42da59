/* clock.h: the program's one clock, on the ground floor (it uses nothing
 * of the engine): searches, the sandbox's budgets, time controls,
 * mb.clock, the brains' milliseconds and perft --time all read it. */
#ifndef MB_CLOCK_H
#define MB_CLOCK_H

/* Seconds on the monotonic clock (not the time of day: it never jumps). */
double clock_now(void);

#endif
