/* test.h - a tiny unit-test harness (C99 and C++11, header only).

     TEST(name) { ... CHECK(x); CHECK_EQ_U64(a, b); ... }
     int main(int argc, char **argv) {
         test_filter(argc, argv); RUN_TEST(name); return test_report(); }

   CHECK(cond)          counts one pass or one failure; a failure prints
                        file:line, the current test and context, and the
                        expression. Evaluates to 1 on pass, 0 on failure, so
                        `if (!CHECK(p)) return;` guards a later dereference.
   CHECK_EQ_U64(a, b)   the same for two integers, printing both values.
   test_set_context(s)  a short label (e.g. "big-endian") added to failure
                        messages until changed; NULL or "" clears it.
   test_skip(reason)    marks the current test skipped (it could not run
                        here); it is reported as a skip, never as a pass.
   test_filter(c, v)    the command line's arguments are name filters:
                        RUN_TEST runs only the tests whose name contains one
                        of them (`build/test/test_core iter_ sample_`).
   test_report()        prints "N passed, N failed" (N = CHECKs), plus
                        ", N skipped" (N = tests skipped) when there are
                        skips, and returns nonzero when anything failed or a
                        filter matched no test. */
#ifndef TEST_H
#define TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define TEST__UNUSED __attribute__((unused))
#else
#define TEST__UNUSED
#endif

static unsigned long test__passed TEST__UNUSED = 0;
static unsigned long test__failed TEST__UNUSED = 0;
static const char *test__name TEST__UNUSED = "";
static const char *test__context TEST__UNUSED = "";
static unsigned long test__skipped TEST__UNUSED = 0;
static unsigned long test__ran TEST__UNUSED = 0;
static int test__nfilters TEST__UNUSED = 0;
static char **test__filters TEST__UNUSED = NULL;

static TEST__UNUSED void test__where(const char *file, int line) {
    fprintf(stderr, "%s:%d: FAIL in %s", file, line, test__name);
    if (test__context[0]) fprintf(stderr, " [%s]", test__context);
    fprintf(stderr, ": ");
}

static TEST__UNUSED int test__check(int ok, const char *file, int line, const char *expr) {
    if (ok) {
        test__passed++;
        return 1;
    }
    test__failed++;
    test__where(file, line);
    fprintf(stderr, "CHECK(%s)\n", expr);
    return 0;
}

static TEST__UNUSED int test__check_eq_u64(uint64_t a, uint64_t b, const char *file, int line, const char *ea,
                                           const char *eb) {
    if (a == b) {
        test__passed++;
        return 1;
    }
    test__failed++;
    test__where(file, line);
    fprintf(stderr, "CHECK_EQ_U64(%s, %s): %llu (0x%llx) != %llu (0x%llx)\n", ea, eb, (unsigned long long)a,
            (unsigned long long)a, (unsigned long long)b, (unsigned long long)b);
    return 0;
}

static TEST__UNUSED void test_set_context(const char *context) {
    test__context = context ? context : "";
}

static TEST__UNUSED void test_skip(const char *reason) {
    test__skipped++;
    printf("skip %s: %s\n", test__name, reason);
}

static TEST__UNUSED void test_filter(int argc, char **argv) {
    test__nfilters = argc > 1 ? argc - 1 : 0;
    test__filters = argv + 1;
}

static TEST__UNUSED void test__run(const char *name, void (*fn)(void)) {
    unsigned long failed_before = test__failed;
    int i, wanted = test__nfilters == 0;
    for (i = 0; i < test__nfilters && !wanted; i++) wanted = strstr(name, test__filters[i]) != NULL;
    if (!wanted) return;
    test__ran++;
    test__name = name;
    test__context = "";
    fn();
    if (test__failed != failed_before)
        fprintf(stderr, "-- %s: %lu failed check(s)\n", name, test__failed - failed_before);
    test__name = "";
    test__context = "";
}

static TEST__UNUSED int test_report(void) {
    if (test__nfilters && !test__ran) {
        fprintf(stderr, "no test name contains the filter(s) given\n");
        test__failed++;
    }
    if (test__skipped)
        printf("%lu passed, %lu failed, %lu skipped\n", test__passed, test__failed, test__skipped);
    else
        printf("%lu passed, %lu failed\n", test__passed, test__failed);
    fflush(stdout);
    return test__failed != 0;
}

#define CHECK(cond) test__check((cond) ? 1 : 0, __FILE__, __LINE__, #cond)
#define CHECK_EQ_U64(a, b) test__check_eq_u64((uint64_t)(a), (uint64_t)(b), __FILE__, __LINE__, #a, #b)
#define TEST(name) static void name(void)
#define RUN_TEST(name) test__run(#name, name)

#endif /* TEST_H */
