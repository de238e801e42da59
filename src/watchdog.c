/* watchdog.c: the hard line under the sandbox's budgets (watchdog.h).
 *
 * A slot's seq counts arms and disarms: odd while a move is armed. The
 * worker fills in the move, stores its deadline, then publishes the odd
 * seq with release order; the supervisor loads seq with acquire order
 * before the deadline, so a deadline it reads belongs to that move or a
 * later one, and it checks seq again before it kills. The record of the
 * move is read only after the worker is dead, when nothing can change it. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "watchdog.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "clock.h"

static WatchSlot *current; /* the slot this process reports to */
static uint64_t armed_seq; /* this process's last seq (only it writes its slot) */

WatchSlot *watch_slots_new(int n)
{
    if (n < 1) n = 1;
    void *p = mmap(NULL, (size_t)n * sizeof(WatchSlot), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    return p; /* mmap gives zeroed pages */
}

void watch_slots_free(WatchSlot *s, int n)
{
    if (s) munmap(s, (size_t)(n < 1 ? 1 : n) * sizeof(WatchSlot));
}

/* ---- the worker ---- */

void watch_use(WatchSlot *s)
{
    current = s;
    armed_seq = s ? atomic_load_explicit(&s->seq, memory_order_relaxed) : 0;
}

void watch_game(long game)
{
    if (current) current->move.game = game;
}

WatchMove *watch_prepare(void) { return current ? &current->move : NULL; }

void watch_arm(double seconds)
{
    WatchSlot *s = current;
    if (!s) return;
    if (armed_seq % 2) watch_disarm();
    double now = clock_now();
    s->move.started = now;
    s->move.seconds = seconds;
    double deadline = now + (seconds > 0 ? seconds : 0);
    atomic_store_explicit(&s->deadline_ns, (int64_t)(deadline * 1e9), memory_order_relaxed);
    armed_seq++;
    atomic_store_explicit(&s->seq, armed_seq, memory_order_release);
}

void watch_disarm(void)
{
    WatchSlot *s = current;
    if (!s || armed_seq % 2 == 0) return;
    armed_seq++;
    atomic_store_explicit(&s->seq, armed_seq, memory_order_release);
}

/* ---- the supervisor ---- */

void watch_clear(WatchSlot *s)
{
    atomic_store_explicit(&s->deadline_ns, 0, memory_order_relaxed);
    atomic_store_explicit(&s->seq, 0, memory_order_release);
    s->move.game = 0;
    s->move.nmoves = 0;
}

double watch_due(WatchSlot *s, double slack)
{
    uint64_t seq = atomic_load_explicit(&s->seq, memory_order_acquire);
    if (seq % 2 == 0) return 0;
    double deadline = (double)atomic_load_explicit(&s->deadline_ns, memory_order_relaxed) / 1e9;
    return deadline + slack;
}

bool watch_overdue(WatchSlot *s, double slack, double now, uint64_t *seq)
{
    uint64_t before = atomic_load_explicit(&s->seq, memory_order_acquire);
    if (before % 2 == 0) return false;
    double deadline = (double)atomic_load_explicit(&s->deadline_ns, memory_order_relaxed) / 1e9;
    if (now <= deadline + slack) return false;
    /* the same move still armed after the deadline was read */
    if (atomic_load_explicit(&s->seq, memory_order_acquire) != before) return false;
    *seq = before;
    return true;
}

bool watch_ended(WatchSlot *s, uint64_t seq)
{
    return atomic_load_explicit(&s->seq, memory_order_acquire) == seq;
}

void watch_reap(pid_t pid, double seconds, int *status)
{
    int st = 0;
    double until = clock_now() + seconds;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) break;
        if (r == 0 && clock_now() >= until) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
            break;
        }
        if (r == 0) nanosleep(&(struct timespec){0, 2 * 1000 * 1000}, NULL); /* 2 ms */
    }
    if (status) *status = st;
}
