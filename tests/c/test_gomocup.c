/* test_gomocup.c: the Gomocup protocol's lines (gomocup.h) and the child
 * processes that speak them (brainproc.h). Checks: every command parsed
 * with its arguments (any case, blanks, "\r"), unknown words kept for the
 * UNKNOWN answer, INFO keys and integer values (negative time_left, big
 * max_memory), and each malformed command refused with its status and
 * message; BOARD stone lines and DONE; every answer kind, including "OK -
 * text", and garbage refused; canonical formatting and format-parse round
 * trips; line breaks never leak into a formatted line; lines past the
 * limit refused. Processes: a line echoed through cat, a timeout, EOF and
 * "exit status 3", death by SIGSEGV named, a program that cannot be run
 * reported at spawn, the CPU limit ending a busy loop (SIGXCPU/SIGKILL),
 * a line too long dropped to its end, a kill ending everything the program
 * started (a background process, and one in a session of its own: setsid)
 * in the box, in group mode and as a plain child (the background one), a
 * write to a gone child returning an error (no SIGPIPE), and a forked child
 * answering its parent. The box: what the program sees in its namespace
 * (pid 2 under our init, only stdin/stdout/stderr open though the test
 * holds a descriptor without close-on-exec, no capabilities, a writable
 * private /tmp as TMPDIR, a read-only file system elsewhere, a handful of
 * processes in /proc); a pause stopping a spinning child (under 0.1 s of
 * CPU in 1.5 s paused, against 0.1 s or more running), in the box and in
 * group mode; a memory limit on resident memory ending a program that
 * allocates without end ("over its memory limit"), where a plain child's
 * address-space limit makes its allocation fail instead; stderr kept to
 * its cap, then one note; MARUBATSU_BRAIN_ISOLATION=group honoured. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "brainproc.h"
#include "gomocup.h"
#include "harness.h"
#include "mberror.h"

static int cmd(const char *line, GomocupCommand *c)
{
    char err[160];
    return gomocup_parse_command(line, strlen(line), c, err, sizeof err);
}

TEST(commands_parse)
{
    GomocupCommand c;
    CHECK_INT(cmd("START 20", &c), MB_OK);
    CHECK_INT(c.kind, GC_START);
    CHECK_INT(c.x, 20);
    CHECK_INT(c.y, 20);
    CHECK_INT(cmd("  rectstart 12, 7\r", &c), MB_OK);
    CHECK_INT(c.kind, GC_RECTSTART);
    CHECK_INT(c.x, 12);
    CHECK_INT(c.y, 7);
    CHECK_INT(cmd("TURN 10,11", &c), MB_OK);
    CHECK_INT(c.kind, GC_TURN);
    CHECK_INT(c.x, 10);
    CHECK_INT(c.y, 11);
    CHECK_INT(cmd("TAKEBACK 0,0", &c), MB_OK);
    CHECK_INT(c.kind, GC_TAKEBACK);
    const struct {
        const char *line;
        GomocupCommandKind kind;
    } plain[] = {{"RESTART", GC_RESTART}, {"BEGIN", GC_BEGIN}, {"Board", GC_BOARD}, {"END", GC_END},
                 {"ABOUT\r", GC_ABOUT},   {"", GC_EMPTY},      {" \t\r", GC_EMPTY}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        CHECK_INT(cmd(plain[i].line, &c), MB_OK);
        CHECK_INT(c.kind, plain[i].kind);
    }
    CHECK_INT(cmd("YXSHOWFORBID now", &c), MB_OK);
    CHECK_INT(c.kind, GC_UNKNOWN);
    CHECK_STR(c.word, "YXSHOWFORBID");
}

TEST(info_parse)
{
    GomocupCommand c;
    CHECK_INT(cmd("INFO timeout_turn 1000", &c), MB_OK);
    CHECK_INT(c.kind, GC_INFO);
    CHECK_STR(c.key, "timeout_turn");
    CHECK_STR(c.value, "1000");
    CHECK(c.has_int);
    CHECK_INT(c.ivalue, 1000);
    CHECK_INT(cmd("INFO Time_Left -35", &c), MB_OK);
    CHECK_STR(c.key, "time_left");
    CHECK_INT(c.ivalue, -35);
    CHECK_INT(cmd("INFO max_memory 83886080000", &c), MB_OK);
    CHECK_INT(c.ivalue, 83886080000LL);
    CHECK_INT(cmd("INFO folder C:\\brains\\data dir ", &c), MB_OK);
    CHECK_STR(c.value, "C:\\brains\\data dir");
    CHECK(!c.has_int);
    CHECK_INT(cmd("INFO evaluate 3,4", &c), MB_OK);
    CHECK(!c.has_int);
}

TEST(commands_refused)
{
    GomocupCommand c;
    char err[160] = "";
    const struct {
        const char *line;
        int rc;
        const char *msg;
    } bad[] = {
        {"START", MB_ESYNTAX, "START: expected 1 comma-separated numbers"},
        {"START x", MB_ESYNTAX, "START: expected 1 comma-separated numbers"},
        {"START 20 20", MB_ESYNTAX, "START: unexpected text after the numbers"},
        {"TURN 3", MB_ESYNTAX, "TURN: expected 2 comma-separated numbers"},
        {"TURN 3,", MB_ESYNTAX, "TURN: expected 2 comma-separated numbers"},
        {"TURN -1,2", MB_ESYNTAX, "TURN: expected 2 comma-separated numbers"},
        {"TURN 1,2,3", MB_ESYNTAX, "TURN: unexpected text after the numbers"},
        {"TURN 10000,1", MB_ERANGE, "TURN: number above 9999"},
        {"RECTSTART 5", MB_ESYNTAX, "RECTSTART: expected 2 comma-separated numbers"},
        {"INFO", MB_ESYNTAX, "INFO: a key is needed"},
        {"INFO time-left 5", MB_ESYNTAX, "INFO: the key must be letters, digits and '_'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(gomocup_parse_command(bad[i].line, strlen(bad[i].line), &c, err, sizeof err),
                  bad[i].rc);
        CHECK_STR(err, bad[i].msg);
    }
    CHECK_INT(gomocup_parse_command("TURN 1\0,2", 9, &c, err, sizeof err), MB_ESYNTAX);
    static char longline[GOMOCUP_LINE_MAX + 2];
    memset(longline, 'A', sizeof longline - 1);
    CHECK_INT(gomocup_parse_command(longline, sizeof longline - 1, &c, err, sizeof err), MB_ERANGE);
}

TEST(stones)
{
    GomocupStone s;
    bool done;
    char err[160];
    CHECK_INT(gomocup_parse_stone("7,8,1\r", 6, &s, &done, err, sizeof err), MB_OK);
    CHECK(!done);
    CHECK_INT(s.x, 7);
    CHECK_INT(s.y, 8);
    CHECK_INT(s.field, 1);
    CHECK_INT(gomocup_parse_stone("done", 4, &s, &done, err, sizeof err), MB_OK);
    CHECK(done);
    /* the fields of the protocol: 1 own stone, 2 the opponent's, 3 a stone
     * of a continuous game (parsed here; the brain refuses the game) */
    for (int f = 1; f <= 3; f++) {
        char line[16];
        snprintf(line, sizeof line, "3,4,%d", f);
        CHECK_INT(gomocup_parse_stone(line, strlen(line), &s, &done, err, sizeof err), MB_OK);
        CHECK_INT(s.field, f);
        CHECK_INT(s.x, 3);
        CHECK_INT(s.y, 4);
    }
    CHECK_INT(gomocup_parse_stone("7,8,4", 5, &s, &done, err, sizeof err), MB_ESYNTAX);
    CHECK_STR(err, "BOARD line: the field must be 1, 2 or 3");
    CHECK_INT(gomocup_parse_stone("7,8,0", 5, &s, &done, err, sizeof err), MB_ESYNTAX);
    CHECK_STR(err, "BOARD line: the field must be 1, 2 or 3");
    CHECK_INT(gomocup_parse_stone("7,8", 3, &s, &done, err, sizeof err), MB_ESYNTAX);
}

static int ans(const char *line, GomocupAnswer *a)
{
    char err[160];
    return gomocup_parse_answer(line, strlen(line), a, err, sizeof err);
}

TEST(answers)
{
    GomocupAnswer a;
    CHECK_INT(ans("11,10", &a), MB_OK);
    CHECK_INT(a.kind, GA_MOVE);
    CHECK_INT(a.x, 11);
    CHECK_INT(a.y, 10);
    CHECK_INT(ans(" 3 , 4 \r", &a), MB_OK);
    CHECK_INT(a.x, 3);
    CHECK_INT(ans("OK - everything is good", &a), MB_OK);
    CHECK_INT(a.kind, GA_OK);
    CHECK_INT(ans("ERROR unsupported size", &a), MB_OK);
    CHECK_INT(a.kind, GA_ERROR);
    CHECK_STR(a.text, "unsupported size");
    CHECK_INT(ans("MESSAGE  hello  ", &a), MB_OK);
    CHECK_INT(a.kind, GA_MESSAGE);
    CHECK_STR(a.text, "hello");
    CHECK_INT(ans("DEBUG", &a), MB_OK);
    CHECK_INT(a.kind, GA_DEBUG);
    CHECK_STR(a.text, "");
    CHECK_INT(ans("UNKNOWN FOO", &a), MB_OK);
    CHECK_INT(a.kind, GA_UNKNOWN);
    CHECK_INT(ans("SUGGEST 2,3", &a), MB_OK);
    CHECK_INT(a.kind, GA_SUGGEST);
    CHECK_INT(a.y, 3);
    CHECK_INT(ans("", &a), MB_OK);
    CHECK_INT(a.kind, GA_EMPTY);
    char err[160];
    CHECK_INT(gomocup_parse_answer("hello", 5, &a, err, sizeof err), MB_ESYNTAX);
    CHECK_STR(err, "neither a move X,Y nor OK, ERROR, UNKNOWN, MESSAGE, DEBUG, SUGGEST");
    CHECK_INT(ans("7", &a), MB_ESYNTAX);
    CHECK_INT(ans("7,7 please", &a), MB_ESYNTAX);
    CHECK_INT(ans("12345,1", &a), MB_ERANGE);
}

TEST(formatting)
{
    char buf[256];
    GomocupCommand c = {0};
    c.kind = GC_RECTSTART;
    c.x = 12;
    c.y = 7;
    CHECK_INT(gomocup_format_command(&c, buf, sizeof buf), 14);
    CHECK_STR(buf, "RECTSTART 12,7");
    c.kind = GC_INFO;
    strcpy(c.key, "time_left");
    strcpy(c.value, "2147483647");
    gomocup_format_command(&c, buf, sizeof buf);
    CHECK_STR(buf, "INFO time_left 2147483647");
    strcpy(c.value, "a\nb");
    CHECK_INT(gomocup_format_command(&c, buf, sizeof buf), -1);
    c.kind = GC_EMPTY;
    CHECK_INT(gomocup_format_command(&c, buf, sizeof buf), -1);
    /* snprintf-like: the needed length with a small buffer */
    c.kind = GC_BEGIN;
    CHECK_INT(gomocup_format_command(&c, buf, 3), 5);
    CHECK_STR(buf, "BE");

    GomocupAnswer a = {0};
    a.kind = GA_MOVE;
    a.x = 0;
    a.y = 14;
    gomocup_format_answer(&a, buf, sizeof buf);
    CHECK_STR(buf, "0,14");
    a.kind = GA_MESSAGE;
    strcpy(a.text, " two\nlines\r ");
    gomocup_format_answer(&a, buf, sizeof buf);
    CHECK_STR(buf, "MESSAGE two lines");
    a.kind = GA_ERROR;
    a.text[0] = '\0';
    gomocup_format_answer(&a, buf, sizeof buf);
    CHECK_STR(buf, "ERROR");
}

TEST(round_trips)
{
    const char *lines[] = {
        "START 15", "RECTSTART 20,10", "TURN 0,9999",          "TAKEBACK 3,3", "BOARD",
        "END",      "INFO rule 1",     "INFO folder /tmp/x y", "FOOBAR"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        GomocupCommand c, c2;
        char buf[256];
        CHECK_INT(cmd(lines[i], &c), MB_OK);
        int n = gomocup_format_command(&c, buf, sizeof buf);
        CHECK_INT(n, (long long)strlen(lines[i]));
        CHECK_STR(buf, lines[i]);
        CHECK_INT(cmd(buf, &c2), MB_OK);
        CHECK(memcmp(&c, &c2, sizeof c) == 0);
    }
    const char *answers[] = {"3,4",   "OK",         "ERROR no", "UNKNOWN x y", "MESSAGE hi there",
                             "DEBUG", "SUGGEST 1,2"};
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        GomocupAnswer a, a2;
        char buf[256];
        CHECK_INT(ans(answers[i], &a), MB_OK);
        gomocup_format_answer(&a, buf, sizeof buf);
        CHECK_STR(buf, answers[i]);
        CHECK_INT(ans(buf, &a2), MB_OK);
        CHECK(memcmp(&a, &a2, sizeof a) == 0);
    }
}

/* ---- processes ---- */

static int spawn_sh(BrainProc *p, const char *script, const BrainLimits *lim)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    char err[256];
    return brainproc_spawn(p, argv, lim, err, sizeof err);
}

TEST(proc_echo_eof_status)
{
    BrainProc p;
    CHECK_INT(spawn_sh(&p, "read a; echo \"got $a\"; printf 'last'; exit 3", NULL), MB_OK);
    CHECK_INT(brainproc_send(&p, "hello", 1000), MB_OK);
    char line[256];
    size_t len;
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
    CHECK_STR(line, "got hello");
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
    CHECK_STR(line, "last");
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_EOF);
    CHECK(brainproc_wait(&p, 5000));
    char what[96];
    brainproc_describe(&p, what, sizeof what);
    CHECK_STR(what, "exit status 3");
    brainproc_kill(&p);
    /* a write to a child that has gone: an error, not SIGPIPE */
    CHECK_INT(brainproc_send(&p, "anyone?", 100), MB_EIO);
}

/* Is process pid alive (not gone, not a zombie)? Linux's /proc. */
static bool alive(long pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *close_paren = strrchr(buf, ')');
    return close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' && close_paren[2] != 'X';
}

/* How many processes have `marker` in their command line (Linux's /proc;
 * the box's pids mean nothing out here). */
static int marked(const char *marker)
{
    DIR *d = opendir("/proc");
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        char path[300], buf[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i < got; i++)
            if (buf[i] == '\0') buf[i] = ' ';
        buf[got] = '\0';
        if (alive(atol(e->d_name)) && strstr(buf, marker)) n++;
    }
    closedir(d);
    return n;
}

static int gone_marked(const char *marker)
{
    struct timespec ten_ms = {0, 10000000};
    int n = marked(marker);
    for (int i = 0; i < 100 && n != 0; i++) {
        nanosleep(&ten_ms, NULL);
        n = marked(marker);
    }
    return n;
}

static const int isolations[] = {BP_ISOLATE_AUTO, BP_ISOLATE_GROUP, BP_ISOLATE_NONE};

TEST(proc_timeout_and_kill)
{
    for (int k = 0; k < 3; k++) {
        BrainLimits lim = {.isolation = isolations[k]};
        char script[160], marker[64];
        snprintf(marker, sizeof marker, "bp-background-%ld-%d", (long)getpid(), k);
        snprintf(script, sizeof script, "sh -c 'sleep 30' %s & echo started; sleep 30", marker);
        BrainProc p;
        CHECK_INT(spawn_sh(&p, script, &lim), MB_OK);
        char line[64];
        size_t len;
        CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
        CHECK_STR(line, "started");
        CHECK(marked(marker) >= 1); /* sh -c 'sleep 30' MARKER, and the script itself */
        double t0 = brainproc_now_ms();
        CHECK_INT(brainproc_recv(&p, 50, line, sizeof line, &len), BP_TIMEOUT);
        CHECK(brainproc_now_ms() - t0 >= 49);
        brainproc_kill(&p);
        char what[96];
        brainproc_describe(&p, what, sizeof what);
        CHECK_STR(what, "killed by signal 9 (SIGKILL)");
        /* the background process is gone too */
        CHECK_INT(gone_marked(marker), 0);
    }
}

TEST(proc_box_setsid_escape)
{
    for (int k = 0; k < 2; k++) { /* the box, group mode */
        BrainLimits lim = {.isolation = isolations[k]};
        char script[200], marker[64];
        snprintf(marker, sizeof marker, "bp-escape-%ld-%d", (long)getpid(), k);
        snprintf(script, sizeof script,
                 "setsid sh -c 'sleep 30' %s </dev/null >/dev/null 2>&1 & sleep 0.2; echo started; "
                 "sleep 30",
                 marker);
        BrainProc p;
        CHECK_INT(spawn_sh(&p, script, &lim), MB_OK);
        char line[64];
        size_t len;
        CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
        CHECK(marked(marker) >= 1); /* sh -c 'sleep 30' MARKER, and the script itself */
        brainproc_kill(&p);
        CHECK_INT(gone_marked(marker), 0);
    }
}

TEST(proc_box_view)
{
    char why[160];
    if (brainproc_isolation(why, sizeof why) != BP_ISOLATE_NAMESPACE) {
        printf("note: proc_box_view skipped, no namespaces here (%s)\n", why);
        return;
    }
    int stray = open("/dev/null", O_RDONLY); /* no close-on-exec: must not reach the box */
    /* ls writes the shell's descriptors straight to the brain's stdout,
     * one per line: a pipe or a redirection would have the shell hold
     * one more descriptor while ls looks (the test failed once under
     * load with a pipe's read end on 3). */
    char outside[64];
    snprintf(outside, sizeof outside, "bp-box-write-%ld", (long)getpid());
    char script[600];
    snprintf(script, sizeof script,
             "echo $$ $PPID; ls /proc/$$/fd; grep CapEff /proc/self/status; "
             "echo $TMPDIR; echo x >/tmp/f && cat /tmp/f; "
             "if touch %s 2>/dev/null; then echo wrote; else echo refused; fi; "
             "ls /proc | grep -c '^[0-9]'",
             outside);
    BrainProc p;
    CHECK_INT(spawn_sh(&p, script, NULL), MB_OK);
    CHECK_INT(p.isolation, BP_ISOLATE_NAMESPACE);
    static const char *const want[] = {"2 1",  "0", "1",      "2", "CapEff:\t0000000000000000",
                                       "/tmp", "x", "refused"};
    char line[256];
    size_t len;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
        CHECK_STR(line, want[i]);
    }
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
    CHECK(atoi(line) >= 2 && atoi(line) <= 5); /* init, sh, ls, grep */
    brainproc_kill(&p);
    CHECK(access(outside, F_OK) != 0);
    unlink(outside);
    close(stray);
}

/* The spinner's CPU ticks, as the program of proc_pause tells them. */
static long ask_ticks(BrainProc *p)
{
    char line[64];
    size_t len;
    if (brainproc_send(p, "ticks", 1000) != MB_OK) return -1;
    return brainproc_recv(p, 10000, line, sizeof line, &len) == BP_LINE ? atol(line) : -1;
}

TEST(proc_pause)
{
    static const char script[] =
        "while :; do :; done & s=$!; "
        "while read l; do set -- $(cat /proc/$s/stat); echo $((${14} + ${15})); done";
    long hz = sysconf(_SC_CLK_TCK);
    for (int k = 0; k < 2; k++) {
        BrainLimits lim = {.isolation = isolations[k]};
        BrainProc p;
        CHECK_INT(spawn_sh(&p, script, &lim), MB_OK);
        long ticks[3];
        struct timespec wait = {1, 500000000};
        ticks[0] = ask_ticks(&p);
        brainproc_pause(&p);
        nanosleep(&wait, NULL);
        brainproc_resume(&p);
        ticks[1] = ask_ticks(&p);
        nanosleep(&wait, NULL);
        ticks[2] = ask_ticks(&p);
        brainproc_kill(&p);
        /* paused from ticks[0] to ticks[1], running from ticks[1] to ticks[2] */
        CHECK(ticks[0] >= 0 && ticks[1] - ticks[0] < hz / 10);
        CHECK(ticks[2] - ticks[1] >= hz / 10);
    }
}

TEST(proc_crash_and_exec_failure)
{
    BrainProc p;
    CHECK_INT(spawn_sh(&p, "kill -SEGV $$", NULL), MB_OK);
    char line[64], what[96];
    size_t len;
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_EOF);
    CHECK(brainproc_wait(&p, 5000));
    brainproc_describe(&p, what, sizeof what);
    CHECK_STR(what, "killed by signal 11 (SIGSEGV)");
    brainproc_kill(&p);

    char *argv[] = {"/nonexistent/brain", NULL};
    char err[256];
    CHECK_INT(brainproc_spawn(&p, argv, NULL, err, sizeof err), MB_EIO);
    CHECK_STR(err, "cannot run /nonexistent/brain: No such file or directory");
    CHECK_INT(p.in_fd, -1);
}

TEST(proc_cpu_limit)
{
    BrainProc p;
    BrainLimits lim = {.cpu_seconds = 1};
    CHECK_INT(spawn_sh(&p, "while :; do :; done", &lim), MB_OK);
    char line[64], what[96];
    size_t len;
    CHECK_INT(brainproc_recv(&p, 20000, line, sizeof line, &len), BP_EOF);
    CHECK(brainproc_wait(&p, 5000));
    brainproc_describe(&p, what, sizeof what);
    CHECK(strcmp(what, "killed by signal 24 (SIGXCPU)") == 0 ||
          strcmp(what, "killed by signal 9 (SIGKILL)") == 0);
    brainproc_kill(&p);
}

TEST(proc_memory)
{
    static const char hog[] = "awk 'BEGIN { s = \"x\"; while (1) s = s s }'; exit $?";
    for (int k = 0; k < 3; k++) {
        BrainLimits lim = {.memory = 64 << 20, .isolation = isolations[k]};
        BrainProc p;
        CHECK_INT(spawn_sh(&p, hog, &lim), MB_OK);
        char line[64], what[96];
        size_t len;
        CHECK_INT(brainproc_recv(&p, 20000, line, sizeof line, &len), BP_EOF);
        CHECK(brainproc_wait(&p, 5000));
        brainproc_describe(&p, what, sizeof what);
        if (k < 2) { /* resident memory, counted by the box */
            CHECK(p.over_memory);
            CHECK_STR(what, "over its memory limit");
        } else { /* an address space: the allocation fails, awk says so */
            CHECK(!p.over_memory);
            CHECK_STR(what, "exit status 2");
        }
        brainproc_kill(&p);
    }
}

TEST(proc_stderr_cap)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/bp-stderr-%ld", (long)getpid());
    unlink(path);
    BrainLimits lim = {.stderr_path = path, .stderr_cap = 1000};
    BrainProc p;
    CHECK_INT(spawn_sh(&p, "head -c 100000 /dev/zero | tr '\\0' e >&2; echo done", &lim), MB_OK);
    char line[64];
    size_t len;
    CHECK_INT(brainproc_recv(&p, 10000, line, sizeof line, &len), BP_LINE);
    CHECK_STR(line, "done");
    brainproc_kill(&p);
    static char text[4096];
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[got] = '\0';
    static const char note[] =
        "\n[marubatsu: the rest of this brain's stderr in this game is dropped]\n";
    CHECK_INT(got, 1000 + strlen(note));
    CHECK(strspn(text, "e") == 1000);
    CHECK_STR(text + 1000, note);
    unlink(path);
}

TEST(proc_isolation_forced)
{
    setenv("MARUBATSU_BRAIN_ISOLATION", "group", 1);
    char why[160];
    CHECK_INT(brainproc_isolation(why, sizeof why), BP_ISOLATE_GROUP);
    CHECK_STR(why, "MARUBATSU_BRAIN_ISOLATION=group");
    BrainProc p;
    CHECK_INT(spawn_sh(&p, "echo $$", NULL), MB_OK);
    CHECK_INT(p.isolation, BP_ISOLATE_GROUP);
    brainproc_kill(&p);
    unsetenv("MARUBATSU_BRAIN_ISOLATION");
    int mode = brainproc_isolation(why, sizeof why);
    CHECK(mode == BP_ISOLATE_NAMESPACE || (mode == BP_ISOLATE_GROUP && why[0]));
}

TEST(proc_long_line)
{
    BrainProc p;
    CHECK_INT(spawn_sh(&p, "head -c 20000 /dev/zero | tr '\\0' a; echo; echo after", NULL), MB_OK);
    char line[64];
    size_t len;
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_TOOLONG);
    /* the rest of the long line is dropped: the next line is the next one */
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
    CHECK_STR(line, "after");
    brainproc_kill(&p);
}

TEST(proc_fork)
{
    BrainProc p;
    bool child;
    char err[256];
    CHECK_INT(brainproc_fork(&p, NULL, &child, err, sizeof err), MB_OK);
    char line[64];
    size_t len;
    if (child) {
        if (brainproc_recv(&p, 5000, line, sizeof line, &len) == BP_LINE &&
            strcmp(line, "ping") == 0)
            brainproc_send(&p, "pong", 1000);
        _exit(0);
    }
    CHECK_INT(brainproc_send(&p, "ping", 1000), MB_OK);
    CHECK_INT(brainproc_recv(&p, 5000, line, sizeof line, &len), BP_LINE);
    CHECK_STR(line, "pong");
    CHECK(brainproc_wait(&p, 5000));
    brainproc_kill(&p);
}

const TestCase gomocup_tests[] = {
    {"commands_parse", commands_parse},
    {"info_parse", info_parse},
    {"commands_refused", commands_refused},
    {"stones", stones},
    {"answers", answers},
    {"formatting", formatting},
    {"round_trips", round_trips},
    {"proc_echo_eof_status", proc_echo_eof_status},
    {"proc_timeout_and_kill", proc_timeout_and_kill},
    {"proc_box_setsid_escape", proc_box_setsid_escape},
    {"proc_box_view", proc_box_view},
    {"proc_pause", proc_pause},
    {"proc_memory", proc_memory},
    {"proc_stderr_cap", proc_stderr_cap},
    {"proc_isolation_forced", proc_isolation_forced},
    {"proc_crash_and_exec_failure", proc_crash_and_exec_failure},
    {"proc_cpu_limit", proc_cpu_limit},
    {"proc_long_line", proc_long_line},
    {"proc_fork", proc_fork},
    {0},
};
