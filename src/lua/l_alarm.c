/* l_alarm.c: a process's POSIX timer that sends a signal (l_alarm.h). */
#include <signal.h>
#include <string.h>

#include "l_alarm.h"

bool alarm_handler(int signo, void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(signo, &sa, NULL) == 0;
}

bool alarm_timer(int signo, timer_t *out)
{
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = signo;
    return timer_create(CLOCK_MONOTONIC, &ev, out) == 0;
}

bool alarm_set(timer_t t, double seconds)
{
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    if (seconds > 0) {
        if (seconds < 1e-6) seconds = 1e-6;
        its.it_value.tv_sec = (time_t)seconds;
        its.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    }
    return timer_settime(t, 0, &its, NULL) == 0;
}
