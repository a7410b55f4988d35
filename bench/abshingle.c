/*
 * bench/abshingle.c: two builds of the engine side by side in one
 * process, for changes of a few percent on a machine too noisy to show
 * them by whole runs.  Each build is a shared object (bench/ab.sh makes
 * them); both shingle the same text, held in memory, pass by pass in
 * turn (A B, B A, A B, ...), each with its own shingler kept from pass to
 * pass (its word cache warm, as in a long file).  A slow stretch of the
 * host then slows a pass of each alike, and the median of the per-pass
 * ratios B / A says what the change does.
 *
 *   abshingle A.so B.so FILE c|w N BYTES PASSES
 *
 * c or w: character or word n-grams, of N items; BYTES: how much of FILE
 * is read (a few MB stay in the caches, as the reading buffer of a run
 * does).  NEARDUP_NO_AVX2, NEARDUP_NO_AVX512, NEARDUP_NO_VBMI2 and
 * NEARDUP_GATHER are applied to both builds, as the command applies them
 * (src/cli/main.c: the engine never reads the environment).  Prints each
 * build's fastest and median pass in ms a MB and the ratio's median and
 * quartiles; "differ" if the two builds' n-grams do not sum alike.
 */
#define _GNU_SOURCE	/* htole64 in the engine's headers, clock_gettime */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"
#include "shingle.h"

struct engine {
	void	(*init)(struct shingler *, const struct scheme *,
		    const struct weights *, shingle_sink *, void *);
	void	(*feed)(struct shingler *, const void *, size_t);
	void	(*end)(struct shingler *);
	void	(*free)(struct shingler *);
	void	(*disable)(unsigned);
	void	(*gathers)(int);
};

static uint64_t sum;

static void
add_up(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	size_t i;

	(void)ctx;
	(void)w;
	for (i = 0; i < n; i++)
		sum += h[i];
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
load(const char *path, struct engine *e)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	unsigned off = 0;
	const char *env;

	if (h == NULL) {
		fprintf(stderr, "abshingle: %s\n", dlerror());
		return -1;
	}
	*(void **)&e->init = dlsym(h, "shingle_init");
	*(void **)&e->feed = dlsym(h, "shingle_feed");
	*(void **)&e->end = dlsym(h, "shingle_end");
	*(void **)&e->free = dlsym(h, "shingle_free");
	*(void **)&e->disable = dlsym(h, "cpu_disable");
	*(void **)&e->gathers = dlsym(h, "cpu_gathers");
	if (e->init == NULL || e->feed == NULL || e->end == NULL ||
	    e->free == NULL || e->disable == NULL || e->gathers == NULL) {
		fprintf(stderr, "abshingle: %s: not an engine build\n", path);
		return -1;
	}
	if (getenv("NEARDUP_NO_AVX2") != NULL)
		off |= CPU_AVX2;
	if (getenv("NEARDUP_NO_AVX512") != NULL)
		off |= CPU_AVX512F;
	if (getenv("NEARDUP_NO_VBMI2") != NULL)
		off |= CPU_AVX512_TEXT;
	e->disable(off);
	if ((env = getenv("NEARDUP_GATHER")) != NULL && *env != '\0')
		e->gathers(strcmp(env, "0") != 0);
	return 0;
}

int
main(int argc, char **argv)
{
	struct engine e[2];
	static struct shingler sh[2];
	struct scheme sc;
	unsigned char *text;
	double *t[2], *ratio, t0, mb;
	uint64_t sums[2] = { 0, 0 };
	size_t len, r, npass;
	FILE *f;
	int k, i;

	if (argc != 8 || (argv[4][0] != 'c' && argv[4][0] != 'w')) {
		fprintf(stderr, "usage: abshingle A.so B.so FILE c|w N BYTES "
		    "PASSES\n");
		return 2;
	}
	if (load(argv[1], &e[0]) != 0 || load(argv[2], &e[1]) != 0)
		return 1;
	len = strtoul(argv[6], NULL, 10);
	npass = strtoul(argv[7], NULL, 10);
	if ((f = fopen(argv[3], "rb")) == NULL || len == 0 || npass == 0 ||
	    (text = malloc(len)) == NULL) {
		fprintf(stderr, "abshingle: %s: cannot read\n", argv[3]);
		return 1;
	}
	len = fread(text, 1, len, f);
	fclose(f);
	mb = (double)len / 1e6;
	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_SIMHASH;
	sc.size = 64;
	sc.chars = argv[4][0] == 'c';
	sc.ngram = (unsigned)strtoul(argv[5], NULL, 10);
	t[0] = malloc(npass * sizeof(double));
	t[1] = malloc(npass * sizeof(double));
	ratio = malloc(npass * sizeof(double));
	if (t[0] == NULL || t[1] == NULL || ratio == NULL)
		return 1;
	for (i = 0; i < 2; i++) {
		e[i].init(&sh[i], &sc, NULL, add_up, NULL);
		e[i].feed(&sh[i], text, len);	/* the word cache warmed */
	}
	for (r = 0; r < npass; r++)
		for (k = 0; k < 2; k++) {
			i = r % 2 == 0 ? k : 1 - k;
			sum = 0;
			t0 = now();
			e[i].feed(&sh[i], text, len);
			t[i][r] = now() - t0;
			sums[i] += sum;
		}
	for (i = 0; i < 2; i++) {
		e[i].end(&sh[i]);
		e[i].free(&sh[i]);
	}
	for (r = 0; r < npass; r++)
		ratio[r] = t[1][r] / t[0][r];
	qsort(ratio, npass, sizeof(double), by_value);
	for (i = 0; i < 2; i++)
		qsort(t[i], npass, sizeof(double), by_value);
	printf("A %.3f ms/MB fastest, %.3f median; B %.3f, %.3f; B / A "
	    "median %.4f (quartiles %.4f, %.4f)%s\n", t[0][0] * 1e3 / mb,
	    t[0][npass / 2] * 1e3 / mb, t[1][0] * 1e3 / mb,
	    t[1][npass / 2] * 1e3 / mb, ratio[npass / 2], ratio[npass / 4],
	    ratio[3 * npass / 4], sums[0] == sums[1] ? "" : "; differ");
	return 0;
}
