/*
 * bench/latency.c: the time of a dependent load from a working set of
 * each size given (MiB), by a walk of one random cycle through its cache
 * lines: what the caches of this machine hold for one process, which a
 * virtual machine's lscpu need not say.  For the uniq figures of
 * bench/README.md (issue 25, CPUs with small caches).
 *
 *   cc -O2 -o /tmp/latency bench/latency.c && /tmp/latency 1 4 16 32 128 512
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime under -std=c11 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LINE	64		/* bytes: one load a cache line */
#define STEPS	20000000

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	uint64_t *a, *perm, x, t, r = 88172645463325252ULL;
	size_t n, i, j, w = LINE / sizeof(*a);
	double ns;
	int k;

	if (argc < 2) {
		fprintf(stderr, "usage: latency MiB ...\n");
		return 2;
	}
	printf("| working set | ns a dependent load |\n|--:|--:|\n");
	for (k = 1; k < argc; k++) {
		n = ((size_t)strtoul(argv[k], NULL, 10) << 20) / LINE;
		if (n < 2 || (a = aligned_alloc(LINE, n * LINE)) == NULL ||
		    (perm = malloc(n * sizeof(*perm))) == NULL) {
			fprintf(stderr, "latency: %s MiB: no\n", argv[k]);
			return 1;
		}
		/* A random order of the lines, each pointing to the next. */
		for (i = 0; i < n; i++)
			perm[i] = i;
		for (i = n - 1; i > 0; i--) {
			r ^= r << 13;		/* xorshift64 */
			r ^= r >> 7;
			r ^= r << 17;
			j = r % (i + 1);
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < n; i++)
			a[perm[i] * w] = perm[(i + 1) % n] * w;
		x = perm[0] * w;
		for (i = 0; i < n; i++)		/* once round, to fault in */
			x = a[x];
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < STEPS; i++)
			x = a[x];
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 +
		    (double)(t1.tv_nsec - t0.tv_nsec)) / STEPS;
		/* x printed, so that the walk is not optimized away. */
		printf("| %s MiB | %.1f |%s\n", argv[k], ns, x == 1 ? " " : "");
		free(a);
		free(perm);
	}
	return 0;
}
