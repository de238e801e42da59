/* interrupt.c: the engine's interrupt flag (interrupt.h). */
#include "interrupt.h"

volatile sig_atomic_t mb_interrupt_flag;

void mb_interrupt_raise(void) { mb_interrupt_flag = 1; }

void mb_interrupt_clear(void) { mb_interrupt_flag = 0; }
