/*
 * bench/scan.c: the brute-force baseline for `neardup near`.  Every query
 * is compared by popcount with every indexed 64-bit fingerprint, and the
 * ids within d bits are collected: the work an index saves.  Only the
 * queries are timed, in wall time (CLOCK_MONOTONIC) and CPU time
 * (CLOCK_PROCESS_CPUTIME_ID), not reading or generating.
 *
 *   scan [-d distance] [-q count] [-s seed] -n count
 *   scan [-d distance] [-q count] [-s seed] index [queries]
 *
 * With -n, the index is count random fingerprints (splitmix64 from seed);
 * otherwise it is read from a file of neardup fingerprint lines
 * ("nd1-simhash64-...:%016x  name", the hex after the first colon).  The
 * queries are the first -q lines of the queries file or, without one, -q
 * fingerprints drawn from the index (so each has a match).  Prints one line:
 *
 *   n=N queries=Q d=D matches=M seconds=S per_query_us=U
 *   per_query_cpu_us=C idsum=I
 *
 * all on one line (S and U wall time, C CPU time; I, the sum of the
 * matching ids, keeps the matches from being optimized away).
 *
 * Build: cc -O2 [-mpopcnt] -o scan bench/scan.c
 */
#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct fps {
	uint64_t *v;
	size_t	 n, cap;
};

static void
usage(void)
{
	fprintf(stderr, "usage: scan [-d distance] [-q count] [-s seed] "
	    "-n count\n"
	    "       scan [-d distance] [-q count] [-s seed] index "
	    "[queries]\n");
	exit(2);
}

static unsigned long long
number(const char *opt, const char *s, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v > max)
		errx(2, "%s: %s: want a number up to %llu", opt, s, max);
	return v;
}

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static void
push(struct fps *s, uint64_t v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1 << 16;
		if ((s->v = realloc(s->v, s->cap * sizeof(*s->v))) == NULL)
			err(2, NULL);
	}
	s->v[s->n++] = v;
}

/* Read up to max fingerprint lines of path (the hex after the colon). */
static void
load(struct fps *s, const char *path, size_t max)
{
	char *line = NULL, *p, *end;
	size_t cap = 0, lineno = 0;
	uint64_t v;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	while (s->n < max && getline(&line, &cap, f) != -1) {
		lineno++;
		if ((p = strchr(line, ':')) == NULL)
			errx(2, "%s:%zu: no colon", path, lineno);
		errno = 0;
		v = strtoull(p + 1, &end, 16);
		if (end != p + 17 || errno != 0)
			errx(2, "%s:%zu: want 16 hex digits after the colon",
			    path, lineno);
		push(s, v);
	}
	if (ferror(f))
		err(2, "%s", path);
	fclose(f);
	free(line);
}

static double
now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char *argv[])
{
	struct fps ix = { 0 }, q = { 0 };
	uint32_t *match;
	uint64_t seed = 1, x, sum = 0;
	size_t n = 0, nq = 1000, i, j, nm, total = 0;
	unsigned d = 3;
	double t0, t1, c0, c1;
	int ch;

	while ((ch = getopt(argc, argv, "d:n:q:s:")) != -1) {
		switch (ch) {
		case 'd':
			d = (unsigned)number("-d", optarg, 64);
			break;
		case 'n':
			n = (size_t)number("-n", optarg, UINT32_MAX);
			break;
		case 'q':
			nq = (size_t)number("-q", optarg, UINT32_MAX);
			break;
		case 's':
			seed = number("-s", optarg, UINT64_MAX);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (n > 0 ? argc != 0 : argc < 1 || argc > 2)
		usage();
	x = seed;
	if (n > 0)
		for (i = 0; i < n; i++)
			push(&ix, splitmix64(&x));
	else
		load(&ix, argv[0], SIZE_MAX);
	if (ix.n == 0)
		errx(2, "empty index");
	if (argc == 2)
		load(&q, argv[1], nq);
	else
		for (i = 0; i < nq; i++)
			push(&q, ix.v[splitmix64(&x) % ix.n]);
	if (q.n == 0)
		errx(2, "no queries");
	if ((match = malloc(ix.n * sizeof(*match))) == NULL)
		err(2, NULL);

	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	for (j = 0; j < q.n; j++) {
		for (i = 0, nm = 0; i < ix.n; i++)
			if ((unsigned)__builtin_popcountll(ix.v[i] ^ q.v[j]) <=
			    d)
				match[nm++] = (uint32_t)i;
		/* Use the matches, as a real search would. */
		total += nm;
		for (i = 0; i < nm; i++)
			sum += match[i];
	}
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	t1 = now(CLOCK_MONOTONIC);

	printf("n=%zu queries=%zu d=%u matches=%zu seconds=%.6f "
	    "per_query_us=%.3f per_query_cpu_us=%.3f idsum=%llu\n", ix.n, q.n,
	    d, total, t1 - t0, (t1 - t0) / (double)q.n * 1e6,
	    (c1 - c0) / (double)q.n * 1e6, (unsigned long long)sum);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	free(match);
	free(ix.v);
	free(q.v);
	return 0;
}
