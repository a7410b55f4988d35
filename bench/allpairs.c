/*
 * bench/allpairs.c: the time of allpairs_join (src/join/allpairs.c), the exact
 * self-join behind cluster --exact, on a synthetic corpus shaped like the
 * word 3-gram sets of source files.  Only the join is timed, in wall time
 * (CLOCK_MONOTONIC) and CPU time (CLOCK_PROCESS_CPUTIME_ID).
 *
 *   allpairs [-c copies%] [-d near%] [-m min] [-M max] [-n count]
 *       [-s seed] [-t threshold] [-z exponent]
 *
 * Sizes are log-uniform in [min, max] (200 .. 5000).  Tokens follow a
 * Zipf law of the exponent (1.0) over a vocabulary of 4M ranks, each
 * rank's token a hash of it: a few 3-grams ("} } }") in most files, most
 * in one.  Of the sets, near% (20) are another set edited (up to a
 * tenth of it deleted and as much added) and copies% (5) are copies of
 * another.  Prints one line:
 *
 *   n=N tokens=T pairs=P need_mb=M seconds=S cpu_seconds=C
 *
 * Build: cc -O2 -Isrc/join -Isrc/lib -o allpairs bench/allpairs.c src/join/allpairs.o \
 *     src/lib/keysort.o src/lib/xmalloc.o $(pkg-config --libs libbsd-overlay libxxhash)
 * (after make, which builds the objects).
 */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "allpairs.h"

#define VOCAB	(4 * 1024 * 1024)

static uint64_t rng;

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static double
uniform(void)
{
	return (double)(splitmix64(&rng) >> 11) / 9007199254740992.0;
}

static double *cdf;

/* A token: the hash of a rank drawn by Zipf's law. */
static uint64_t
token(void)
{
	double u = uniform();
	size_t lo = 0, hi = VOCAB - 1, mid;
	uint64_t x;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	x = lo;
	return splitmix64(&x);
}

static int
cmpu64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort v[0..n) and drop repeats; returns the new length. */
static size_t
distinct(uint64_t *v, size_t n)
{
	size_t i, k;

	qsort(v, n, sizeof(*v), cmpu64);
	for (i = k = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* A set of about want distinct tokens into v (room for 2 * want). */
static size_t
fresh(uint64_t *v, size_t want)
{
	size_t n = 0;

	while (n < want) {
		while (n < 2 * want && n < want + want / 4 + 16)
			v[n++] = token();
		n = distinct(v, n);
		if (n > want)
			n = want;
	}
	return n;
}

static void
count(void *ctx, uint32_t a, uint32_t b, double sim)
{
	(void)a;
	(void)b;
	(void)sim;
	(*(size_t *)ctx)++;
}

static double
seconds(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
usage(void)
{
	fprintf(stderr, "usage: allpairs [-c copies%%] [-d near%%] [-m min] "
	    "[-M max] [-n count]\n"
	    "                [-s seed] [-t threshold] [-z exponent]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	uint64_t **set, *v;
	size_t *len, i, k, m, src, room, tokens = 0, pairs = 0, need, edit;
	double t = 0.8, z = 1.0, pc = 5, pd = 20, lmin = 200, lmax = 5000;
	double sum, w0, c0;
	uint32_t n = 3000;
	int ch;

	rng = 1;
	while ((ch = getopt(argc, argv, "c:d:m:M:n:s:t:z:")) != -1) {
		switch (ch) {
		case 'c':
			pc = atof(optarg);
			break;
		case 'd':
			pd = atof(optarg);
			break;
		case 'm':
			lmin = atof(optarg);
			break;
		case 'M':
			lmax = atof(optarg);
			break;
		case 'n':
			n = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 10);
			break;
		case 't':
			t = atof(optarg);
			break;
		case 'z':
			z = atof(optarg);
			break;
		default:
			usage();
		}
	}
	if (n == 0 || lmin < 1 || lmax < lmin)
		usage();

	if ((cdf = malloc(VOCAB * sizeof(*cdf))) == NULL)
		err(2, NULL);
	for (sum = 0, k = 0; k < VOCAB; k++)
		cdf[k] = sum += pow((double)(k + 1), -z);
	for (k = 0; k < VOCAB; k++)
		cdf[k] /= sum;

	set = calloc(n, sizeof(*set));
	len = calloc(n, sizeof(*len));
	if (set == NULL || len == NULL)
		err(2, NULL);
	for (i = 0; i < n; i++) {
		m = (size_t)(lmin * pow(lmax / lmin, uniform()));
		src = i > 0 ? (size_t)(uniform() * i) : 0;
		room = len[src] > m ? len[src] : m;
		if ((v = malloc((2 * room + 64) * sizeof(*v))) == NULL)
			err(2, NULL);
		if (i > 0 && uniform() * 100 < pc) {
			memcpy(v, set[src], len[src] * sizeof(*v));
			len[i] = len[src];
		} else if (i > 0 && uniform() * 100 < pd) {
			memcpy(v, set[src], len[src] * sizeof(*v));
			m = len[src];
			edit = (size_t)(uniform() * (double)m / 10);
			for (k = 0; k < edit && m > 1; k++) {
				size_t j = (size_t)(uniform() * (double)m);
				v[j] = v[--m];
			}
			edit = (size_t)(uniform() * (double)len[src] / 10);
			for (k = 0; k < edit; k++)
				v[m++] = token();
			len[i] = distinct(v, m);
		} else
			len[i] = fresh(v, m);
		set[i] = v;
		tokens += len[i];
	}

	w0 = seconds(CLOCK_MONOTONIC);
	c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
	if (allpairs_join((const uint64_t *const *)set, len, n, t,
	    (size_t)1 << 40, &need, count, &pairs) == -1)
		err(2, "allpairs_join");
	printf("n=%u tokens=%zu pairs=%zu need_mb=%.1f seconds=%.3f "
	    "cpu_seconds=%.3f\n", n, tokens, pairs, need / 1048576.0,
	    seconds(CLOCK_MONOTONIC) - w0,
	    seconds(CLOCK_PROCESS_CPUTIME_ID) - c0);
	return 0;
}
