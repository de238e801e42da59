/* test_main.c: runs the engine's C unit tests.
 *
 * Usage: test_engine [-v] [FILTER...]
 * A test runs when its "suite/name" contains any FILTER (all run without
 * one). Prints each failure as it happens, then "N passed, N failed";
 * exits 1 if any test failed. MB_TEST_DATA overrides the data directory. */
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"

extern const TestCase geometry_tests[];
extern const TestCase game_tests[];
extern const TestCase judge_tests[];
extern const TestCase notation_tests[];
extern const TestCase markpats_tests[];
extern const TestCase symmetry_tests[];
extern const TestCase perft_tests[];
extern const TestCase rng_tests[];
extern const TestCase wincheck_tests[];
extern const TestCase binding_tests[];
extern const TestCase tree_tests[];
extern const TestCase search_tests[];
extern const TestCase iddfs_tests[];
extern const TestCase solve_tests[];
extern const TestCase fulldepth_tests[];
extern const TestCase treeview_tests[];
extern const TestCase rating_tests[];
extern const TestCase journal_tests[];
extern const TestCase gomocup_tests[];
extern const TestCase mcts_tests[];
extern const TestCase rule_tests[];
extern const TestCase linefeat_tests[];
extern const TestCase vcf_tests[];
extern const TestCase utf8fix_tests[];
extern const TestCase watchdog_tests[];
extern const TestCase interrupt_tests[];
extern const TestCase pattern_tests[];
extern const TestCase pvs_tests[];

static const struct {
    const char *name;
    const TestCase *cases;
} suites[] = {
    {"geometry", geometry_tests},
    {"game", game_tests},
    {"judge", judge_tests},
    {"notation", notation_tests},
    {"markpats", markpats_tests},
    {"symmetry", symmetry_tests},
    {"perft", perft_tests},
    {"rng", rng_tests},
    {"wincheck", wincheck_tests},
    {"binding", binding_tests},
    {"tree", tree_tests},
    {"search", search_tests},
    {"iddfs", iddfs_tests},
    {"solve", solve_tests},
    {"fulldepth", fulldepth_tests},
    {"treeview", treeview_tests},
    {"rating", rating_tests},
    {"journal", journal_tests},
    {"gomocup", gomocup_tests},
    {"mcts", mcts_tests},
    {"rule", rule_tests},
    {"linefeat", linefeat_tests},
    {"vcf", vcf_tests},
    {"utf8fix", utf8fix_tests},
    {"watchdog", watchdog_tests},
    {"interrupt", interrupt_tests},
    {"pattern", pattern_tests},
    {"pvs", pvs_tests},
};

static int current_failures;
static const char *current_name;

void t_fail(const char *file, int line, const char *fmt, ...)
{
    if (current_failures < 20) {
        va_list ap;
        fprintf(stderr, "FAIL %s: %s:%d: ", current_name, file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    } else if (current_failures == 20) {
        fprintf(stderr, "FAIL %s: further failures not shown\n", current_name);
    }
    current_failures++;
}

const char *t_data_dir(void)
{
    const char *d = getenv("MB_TEST_DATA");
    return d ? d : "tests/data";
}

static bool selected(const char *full, int argc, char **argv, int first)
{
    if (first >= argc) return true;
    for (int i = first; i < argc; i++)
        if (strstr(full, argv[i])) return true;
    return false;
}

int main(int argc, char **argv)
{
    int first = 1, verbose = 0, passed = 0, failed = 0;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        verbose = 1;
        first = 2;
    }
    for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        for (const TestCase *t = suites[s].cases; t->name; t++) {
            char full[256];
            snprintf(full, sizeof full, "%s/%s", suites[s].name, t->name);
            if (!selected(full, argc, argv, first)) continue;
            current_name = full;
            current_failures = 0;
            clock_t c0 = clock();
            t->fn();
            double ms = 1000.0 * (double)(clock() - c0) / CLOCKS_PER_SEC;
            if (current_failures) {
                failed++;
                fprintf(stderr, "not ok %s (%d failed checks)\n", full, current_failures);
            } else {
                passed++;
                if (verbose) printf("ok %s (%.0f ms)\n", full, ms);
            }
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
