/* test.h - a tiny unit-test harness (C99 and C++11, header only).

     TEST(name) { ... CHECK(x); CHECK_EQ_U64(a, b); ... }
     int main(void) { RUN_TEST(name); return test_report(); }

   CHECK(cond)          counts one pass or one failure; a failure prints
                        file:line, the current test and context, and the
                        expression. Evaluates to 1 on pass, 0 on failure, so
                        `if (!CHECK(p)) return;` guards a later dereference.
   CHECK_EQ_U64(a, b)   the same for two integers, printing both values.
   test_set_context(s)  a short label (e.g. "big-endian") added to failure
                        messages until changed; NULL or "" clears it.
   test_report()        prints "N passed, N failed" (N = CHECKs) and returns
                        nonzero when anything failed. */
#ifndef TEST_H
#define TEST_H

#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__) || defined(__clang__)
#define TEST__UNUSED __attribute__((unused))
#else
#define TEST__UNUSED
#endif

static unsigned long test__passed TEST__UNUSED = 0;
static unsigned long test__failed TEST__UNUSED = 0;
static const char *test__name TEST__UNUSED = "";
static const char *test__context TEST__UNUSED = "";

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

static TEST__UNUSED void test__run(const char *name, void (*fn)(void)) {
    unsigned long failed_before = test__failed;
    test__name = name;
    test__context = "";
    fn();
    if (test__failed != failed_before)
        fprintf(stderr, "-- %s: %lu failed check(s)\n", name, test__failed - failed_before);
    test__name = "";
    test__context = "";
}

static TEST__UNUSED int test_report(void) {
    printf("%lu passed, %lu failed\n", test__passed, test__failed);
    fflush(stdout);
    return test__failed != 0;
}

#define CHECK(cond) test__check((cond) ? 1 : 0, __FILE__, __LINE__, #cond)
#define CHECK_EQ_U64(a, b) test__check_eq_u64((uint64_t)(a), (uint64_t)(b), __FILE__, __LINE__, #a, #b)
#define TEST(name) static void name(void)
#define RUN_TEST(name) test__run(#name, name)

#endif /* TEST_H */
