/* test_watchdog.c: checks the hard line (watchdog.c) and the pool's use of it
 * (tourney.c): a slot's arm/disarm as the supervisor sees it (due time,
 * overdue only past deadline + slack, the move's record), and whole pools
 * whose play function gets stuck in C on one game: with one isolated worker
 * and with two, the stuck game gets the forfeit line, every other game its
 * own line, the pool returns MB_OK well within the bound, and with isolate
 * the games run in another process; and a pool with `once`, whose game
 * kills its worker: the run stops with "its worker died (signal 9)" after
 * one try, where without it the game is played again. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "mberror.h"
#include "clock.h"
#include "tourney.h"
#include "watchdog.h"

TEST(slot_arm_and_disarm)
{
    WatchSlot *s = watch_slots_new(1);
    CHECK(s != NULL);
    if (!s) return;
    watch_clear(s);
    CHECK(watch_prepare() == NULL); /* not supervised: nothing to fill in */
    watch_use(s);
    WatchMove *m = watch_prepare();
    CHECK(m == &s->move);
    watch_game(7);
    m->nmoves = 2;
    m->moves[0] = 4;
    m->moves[1] = 0;
    m->kind = WATCH_MOVE_TIME;
    double t0 = clock_now();
    watch_arm(0.25);
    double due = watch_due(s, 0.5);
    CHECK(due >= t0 + 0.75 && due <= clock_now() + 0.75);
    uint64_t seq = 0;
    CHECK(!watch_overdue(s, 0.5, t0 + 0.7, &seq)); /* before deadline + slack */
    CHECK(watch_overdue(s, 0.5, clock_now() + 0.76, &seq));
    CHECK(seq % 2 == 1);
    CHECK(watch_ended(s, seq));
    CHECK_INT(s->move.game, 7);
    CHECK_INT(s->move.nmoves, 2);
    CHECK_INT(s->move.moves[0], 4);
    CHECK(s->move.seconds == 0.25);
    watch_disarm();
    CHECK(watch_due(s, 0.5) == 0);
    CHECK(!watch_overdue(s, 0.5, clock_now() + 100, &seq));
    CHECK(!watch_ended(s, seq)); /* the move numbered seq is over */
    watch_arm(0);                /* a new move, due at once + slack */
    CHECK(watch_overdue(s, 0.1, clock_now() + 0.2, &seq));
    watch_use(NULL);
    CHECK(watch_prepare() == NULL);
    watch_arm(1); /* no-ops now */
    watch_disarm();
    CHECK(watch_due(s, 0.5) > 0); /* the slot keeps what it was last told */
    watch_clear(s);
    CHECK(watch_due(s, 0.5) == 0);
    watch_slots_free(s, 1);
}

/* A pool's games: game 3 arms a 50 ms move and spins in C for 30 s (only
 * the hard line can end it sooner; without it the checks below fail); the
 * others send "game N pid P". */
typedef struct Seen {
    int lines;
    char text[8][64];
} Seen;

static long stuck_play(void *ctx, long game, char *out, size_t size)
{
    (void)ctx;
    if (game == 3) {
        WatchMove *m = watch_prepare();
        if (m) {
            m->nmoves = 1;
            m->moves[0] = 8;
            m->kind = WATCH_BUDGET;
            watch_arm(0.05);
        }
        double until = clock_now() + 30;
        while (clock_now() < until) {}
    }
    return snprintf(out, size, "game %ld pid %ld\n", game, (long)getpid());
}

static long stuck_forfeit(void *ctx, long game, const WatchMove *m, double used, char *out,
                          size_t size)
{
    (void)ctx;
    return snprintf(out, size, "forfeit %ld after %d moves (%s)\n", game, m->nmoves,
                    used >= 0.05 + 0.1 ? "past the slack" : "too early");
}

static int stuck_done(void *ctx, const char *lines, size_t len, long count)
{
    Seen *seen = ctx;
    (void)len;
    for (long i = 0; i < count && seen->lines < 8; i++) {
        const char *nl = strchr(lines, '\n');
        size_t n = nl ? (size_t)(nl - lines) : strlen(lines);
        snprintf(seen->text[seen->lines++], sizeof seen->text[0], "%.*s", (int)n, lines);
        lines = nl ? nl + 1 : lines + n;
    }
    return 0;
}

/* Run 5 games on `jobs` workers with the hard line (slack 0.1 s). */
static void stuck_pool(int jobs)
{
    Seen seen = {0, {{0}}};
    TourneyOptions opt = {jobs, true, 0.1, stuck_forfeit, false};
    char err[256];
    double t0 = clock_now();
    int rc = tourney_pool(NULL, 5, &opt, stuck_play, stuck_done, &seen, err, sizeof err);
    double took = clock_now() - t0;
    CHECK_INT(rc, MB_OK);
    CHECK(took < 20); /* the stuck game alone never ends */
    CHECK_INT(seen.lines, 5);
    int forfeits = 0, others = 0;
    char mine[32];
    snprintf(mine, sizeof mine, " pid %ld", (long)getpid());
    for (int i = 0; i < seen.lines; i++) {
        if (strcmp(seen.text[i], "forfeit 3 after 1 moves (past the slack)") == 0) forfeits++;
        if (strncmp(seen.text[i], "game ", 5) == 0 && strstr(seen.text[i], mine) == NULL &&
            seen.text[i][5] != '3')
            others++;
    }
    CHECK_INT(forfeits, 1);
    CHECK_INT(others, 4); /* played in worker processes, not here */
}

TEST(pool_kills_a_stuck_worker_one_job) { stuck_pool(1); }
TEST(pool_kills_a_stuck_worker_two_jobs) { stuck_pool(2); }

/* A game that kills its own worker; the tries are counted in a file (the
 * workers are other processes), one byte per try. */
static long dying_play(void *ctx, long game, char *out, size_t size)
{
    FILE *f = fopen(ctx, "a");
    if (f) {
        fputc('.', f);
        fclose(f);
    }
    (void)game;
    (void)out;
    (void)size;
    kill(getpid(), SIGKILL);
    return -1;
}

static long no_forfeit(void *ctx, long game, const WatchMove *m, double used, char *out,
                       size_t size)
{
    (void)ctx;
    (void)game;
    (void)m;
    (void)used;
    return snprintf(out, size, "unexpected\n");
}

static int count_done(void *ctx, const char *lines, size_t len, long count)
{
    (void)ctx;
    (void)lines;
    (void)len;
    (void)count;
    return 0;
}

static long tries_of(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = 0;
    if (!f) return 0;
    while (fgetc(f) != EOF) n++;
    fclose(f);
    return n;
}

static void dying_pool(bool once, long want_tries, const char *want_err)
{
    char path[] = "/tmp/mb_watchdog_tries_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    TourneyOptions opt = {1, true, 0.1, no_forfeit, once};
    char err[256] = "";
    int rc = tourney_pool(NULL, 1, &opt, dying_play, count_done, path, err, sizeof err);
    CHECK_INT(rc, MB_EIO);
    CHECK_STR(err, want_err);
    CHECK_INT(tries_of(path), want_tries);
    unlink(path);
}

TEST(pool_once_stops_when_its_worker_dies)
{
    dying_pool(true, 1, "game 1: its worker died (signal 9)");
    dying_pool(false, 2, "game 1: its worker died twice (signal 9)");
}

const TestCase watchdog_tests[] = {
    {"slot_arm_and_disarm", slot_arm_and_disarm},
    {"pool_kills_a_stuck_worker_one_job", pool_kills_a_stuck_worker_one_job},
    {"pool_kills_a_stuck_worker_two_jobs", pool_kills_a_stuck_worker_two_jobs},
    {"pool_once_stops_when_its_worker_dies", pool_once_stops_when_its_worker_dies},
    {0},
};
