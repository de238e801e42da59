/* harness.h: the in-house unit-test harness for the engine's C tests.
 *
 * A test file defines static test functions with TEST(name) and exports one
 * table of them, terminated by {0}:
 *
 *     TEST(seed_zero) { CHECK_INT(rng_getrandbits(&r, 32), 3626764237); }
 *     const TestCase rng_tests[] = { {"seed_zero", seed_zero}, {0} };
 *
 * The table is listed once in test_main.c. CHECK macros record a failure
 * (with file, line and both values) and let the test go on, so one run shows
 * every broken assertion. The runner prints one line per failing test and a
 * final "N passed, N failed" line, and takes name filters as arguments. */
#ifndef MB_TEST_HARNESS_H
#define MB_TEST_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*TestFn)(void);
typedef struct TestCase {
    const char *name;
    TestFn fn;
} TestCase;

#define TEST(name) static void name(void)

/* Record one failed assertion of the running test. */
void t_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Directory holding the committed test data (tests/data). */
const char *t_data_dir(void);

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) t_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                               \
    } while (0)

#define CHECK_INT(actual, expected)                                                                \
    do {                                                                                           \
        long long t_a_ = (long long)(actual), t_e_ = (long long)(expected);                        \
        if (t_a_ != t_e_)                                                                          \
            t_fail(__FILE__, __LINE__, "%s == %lld, expected %lld", #actual, t_a_, t_e_);          \
    } while (0)

#define CHECK_U64(actual, expected)                                                                \
    do {                                                                                           \
        unsigned long long t_a_ = (actual), t_e_ = (expected);                                     \
        if (t_a_ != t_e_)                                                                          \
            t_fail(__FILE__, __LINE__, "%s == %llu, expected %llu", #actual, t_a_, t_e_);          \
    } while (0)

#define CHECK_STR(actual, expected)                                                                \
    do {                                                                                           \
        const char *t_a_ = (actual), *t_e_ = (expected);                                           \
        if (strcmp(t_a_, t_e_) != 0)                                                               \
            t_fail(__FILE__, __LINE__, "%s ==\n\"%s\"\nexpected\n\"%s\"", #actual, t_a_, t_e_);    \
    } while (0)

#endif
