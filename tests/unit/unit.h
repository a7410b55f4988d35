/*
 * A tiny header-only unit test framework.
 *
 * Each test is a "static void test_xxx(void)" that makes CHECKs; main runs
 * them with RUN(test_xxx) and returns unit_status().  RUN prints exactly
 * one line per test on standard output, "PASS test_xxx" or
 * "FAIL test_xxx: file:line: reason" (tests/run counts those lines); the
 * further failures of a test go to standard error, indented, so that they
 * are seen but not counted twice.  A failed CHECK does not end the test:
 * CHECK is an expression whose value is the condition, so a test that
 * cannot go on after a failure writes "if (!CHECK(...)) return;".
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIT_REASONMAX	512
#define UNIT_SHOWMAX	10	/* failures of one test shown on stderr */

struct unit_state {
	int	 failures;	/* in the current test */
	int	 failed_tests;
	int	 tests;
	char	 reason[UNIT_REASONMAX];
};

static struct unit_state unit_st;

/*
 * Record the outcome of one check: on failure keep the first reason for
 * the FAIL line and show the next few on stderr.
 */
static int unit_check(int ok, const char *file, int line, const char *fmt,
    ...) __attribute__((format(printf, 4, 5), unused));

static int
unit_check(int ok, const char *file, int line, const char *fmt, ...)
{
	char msg[UNIT_REASONMAX];
	va_list ap;
	int n;

	if (ok)
		return 1;
	n = snprintf(msg, sizeof(msg), "%s:%d: ", file, line);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	if (unit_st.failures == 0)
		memcpy(unit_st.reason, msg, sizeof(msg));
	else if (unit_st.failures <= UNIT_SHOWMAX)
		fprintf(stderr, "    also %s\n", msg);
	unit_st.failures++;
	return 0;
}

/* Run one test and print its PASS or FAIL line. */
static void unit_run(void (*fn)(void), const char *name)
    __attribute__((unused));

static void
unit_run(void (*fn)(void), const char *name)
{
	unit_st.failures = 0;
	unit_st.reason[0] = '\0';
	fn();
	unit_st.tests++;
	if (unit_st.failures == 0)
		printf("PASS %s\n", name);
	else {
		unit_st.failed_tests++;
		if (unit_st.failures > 1)
			printf("FAIL %s: %s (and %d more)\n", name,
			    unit_st.reason, unit_st.failures - 1);
		else
			printf("FAIL %s: %s\n", name, unit_st.reason);
	}
	fflush(stdout);
	fflush(stderr);
}

/* The exit status of the test program: 1 if any test failed. */
static int unit_status(void) __attribute__((unused));

static int
unit_status(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		return 1;
	return unit_st.failed_tests > 0;
}

/*
 * The factor a test's time limits are stretched by: UNIT_TIME_SCALE from
 * the environment (make check-s390x sets it for qemu, whose emulated code
 * is many times slower), or 1.
 */
static double unit_time_scale(void) __attribute__((unused));

static double
unit_time_scale(void)
{
	const char *s = getenv("UNIT_TIME_SCALE");
	double f;

	if (s == NULL || (f = strtod(s, NULL)) < 1)
		return 1;
	return f;
}

/* CHECK(cond, fmt, ...): the format and its arguments follow cond. */
#define CHECK(cond, ...) \
	unit_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define RUN(test)	unit_run(test, #test)

/* Test data only (never fingerprints): Vigna's splitmix64. */
static inline uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

#endif
