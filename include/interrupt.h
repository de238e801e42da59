/* interrupt.h: the engine's interrupt flag: how a person's Ctrl-C reaches
 * a search running in C.
 *
 * One flag for the process (a signal handler can reach nothing else): the
 * program's SIGINT handler raises it (async-signal-safe), and every search
 * that runs for long polls it where it already looks at its clock (the αβ
 * search and iterative deepening, the series' searchers, the solver, MCTS,
 * VCF/VCT, the game tree's build), then unwinds as from a timeout: the
 * game is restored and the call ends with its "interrupted" status
 * (SEARCH_INTERRUPTED, VCF_INTERRUPTED, MB_EINTR). The flag stays raised
 * until the program clears it (the REPL does before each chunk), so every
 * search of the interrupted computation stops at once, not just the
 * innermost. A program that never raises it (a library user, stock lua5.4
 * loading marubatsu.so) never sees an interrupt. Uses only <signal.h>. */
#ifndef MB_INTERRUPT_H
#define MB_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

/* Nonzero from mb_interrupt_raise() until mb_interrupt_clear(). */
extern volatile sig_atomic_t mb_interrupt_flag;

/* Has an interrupt been raised? One load: cheap enough for any loop. */
static inline bool mb_interrupted(void) { return mb_interrupt_flag != 0; }
/* Raise the flag: async-signal-safe (for a SIGINT handler). */
void mb_interrupt_raise(void);
/* Lower it (before a new computation). */
void mb_interrupt_clear(void);

#endif
