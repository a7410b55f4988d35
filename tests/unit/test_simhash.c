/*
 * Unit tests of simhash counting (src/sketch/simhash.c): however the features
 * arrive (one at a time, in groups of 16 or of 128, across the flushes of
 * the byte counters), the fingerprint is the majority vote counted the
 * plain way.
 */
#include <stdlib.h>

#include "simhash.h"
#include "unit.h"

/* The fingerprint by definition: bit b set when most hashes have it. */
static uint64_t
naive64(const uint64_t *h, size_t n)
{
	uint64_t out = 0, c;
	unsigned b;
	size_t i;

	for (b = 0; b < 64; b++) {
		for (c = 0, i = 0; i < n; i++)
			c += h[i] >> b & 1;
		if (2 * c > n)
			out |= (uint64_t)1 << b;
	}
	return out;
}

/*
 * Hashes with a bias per bit, so that the votes are close and a miscount
 * shows: bit b is set with probability about 1/2 + (b % 7 - 3) / 64.
 */
static void
fill(uint64_t *x, uint64_t *h, size_t n)
{
	uint64_t v, r;
	unsigned b;
	size_t i;

	for (i = 0; i < n; i++) {
		v = 0;
		for (b = 0; b < 64; b++) {
			r = splitmix64(x) % 64;
			if (r < 32 + (b % 7) - 3)
				v |= (uint64_t)1 << b;
		}
		h[i] = v;
	}
}

static void
test_counting_paths(void)
{
	static const size_t sizes[] = {
		0, 1, 15, 16, 17, 127, 128, 129, 254, 255, 256, 1000, 2048, 4095,
		4096, 4097, 33000, 70000,
	};
	struct simhash sh;
	uint64_t x = 7, *h, got;
	size_t si, n, i, chunk;
	unsigned mode;

	if ((h = malloc(70000 * sizeof(*h))) == NULL)
		abort();
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		n = sizes[si];
		fill(&x, h, n);
		for (mode = 0; mode < 4; mode++) {
			simhash_init(&sh, 64, 0);
			for (i = 0; i < n; i += chunk) {
				/* whole, singles, 16 + 1, random pieces */
				chunk = mode == 0 ? n : mode == 1 ? 1 :
				    mode == 2 ? 17 : 1 + splitmix64(&x) % 300;
				if (chunk > n - i)
					chunk = n - i;
				simhash_add(&sh, h + i, chunk);
			}
			simhash_final(&sh, &got);
			CHECK(got == naive64(h, n), "%zu hashes, feed mode %u: "
			    "%016llx, by definition %016llx", n, mode,
			    (unsigned long long)got,
			    (unsigned long long)naive64(h, n));
		}
	}
	free(h);
}

/* All hashes equal: every count is n or 0, however large n. */
static void
test_unanimous(void)
{
	struct simhash sh;
	uint64_t *h, got;
	size_t i, n = 300000;

	if ((h = malloc(n * sizeof(*h))) == NULL)
		abort();
	for (i = 0; i < n; i++)
		h[i] = 0xF0F0F0F0CAFEBABEULL;
	simhash_init(&sh, 64, 0);
	simhash_add(&sh, h, n);
	simhash_final(&sh, &got);
	CHECK(got == 0xF0F0F0F0CAFEBABEULL, "got %016llx",
	    (unsigned long long)got);
	free(h);
}

/*
 * The counts left at the end at their largest: a group of 128 whose eight
 * lanes each leave 15 in their planes, then 200 single hashes of all ones
 * in the byte counters.  Counted together, as simhash_final does, 320
 * would overflow a byte: it must empty them first (checked: without,
 * every bit comes out 0).
 */
static void
test_full_counters(void)
{
	uint64_t h[128 + 200], got;
	struct simhash sh;
	size_t i;

	for (i = 0; i < 128 + 200; i++)
		h[i] = i < 128 && i / 8 % 16 == 0 ? 0 : ~(uint64_t)0;
	simhash_init(&sh, 64, 0);
	simhash_add(&sh, h, 128);
	for (i = 128; i < 128 + 200; i++)
		simhash_add(&sh, h + i, 1);
	simhash_final(&sh, &got);
	CHECK(got == naive64(h, 128 + 200) && got == ~(uint64_t)0,
	    "got %016llx", (unsigned long long)got);
}

/*
 * simhash_reset clears what a document used, whichever way it counted:
 * after any document, the next comes out as from a new simhash.
 */
static void
test_reset(void)
{
	static const size_t sizes[] = { 0, 5, 20, 300, 5000, 70000 };
	struct simhash sh, fresh;
	uint64_t x = 11, *h, got, want, got2[2], want2[2];
	double *w;
	size_t a, b, i, n = sizeof(sizes) / sizeof(sizes[0]);

	if ((h = malloc(2 * 70000 * sizeof(*h))) == NULL ||
	    (w = malloc(70000 * sizeof(*w))) == NULL)
		abort();
	fill(&x, h, 2 * 70000);
	for (i = 0; i < 70000; i++)
		w[i] = (double)(i % 5);
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			/* 64 bits: a document of sizes[a], then one of b. */
			simhash_init(&sh, 64, 0);
			simhash_add(&sh, h, sizes[a]);
			if (a % 2)
				simhash_add_weighted(&sh, h, w, sizes[a]);
			simhash_final(&sh, &got);
			simhash_reset(&sh);
			simhash_add(&sh, h + 70000, sizes[b]);
			simhash_final(&sh, &got);
			simhash_init(&fresh, 64, 0);
			simhash_add(&fresh, h + 70000, sizes[b]);
			simhash_final(&fresh, &want);
			CHECK(got == want, "64 bits, %zu then %zu hashes: "
			    "%016llx, new %016llx", sizes[a], sizes[b],
			    (unsigned long long)got, (unsigned long long)want);
			/* 128 bits, weighted after unweighted. */
			simhash_init(&sh, 128, 3);
			simhash_add(&sh, h, sizes[a] / 10);
			simhash_final(&sh, got2);
			simhash_reset(&sh);
			simhash_add_weighted(&sh, h + 70000, w, sizes[b] / 10);
			simhash_final(&sh, got2);
			simhash_init(&fresh, 128, 3);
			simhash_add_weighted(&fresh, h + 70000, w,
			    sizes[b] / 10);
			simhash_final(&fresh, want2);
			CHECK(got2[0] == want2[0] && got2[1] == want2[1],
			    "128 bits, %zu then %zu hashes", sizes[a] / 10,
			    sizes[b] / 10);
		}
	free(h);
	free(w);
}

int
main(void)
{
	RUN(test_counting_paths);
	RUN(test_unanimous);
	RUN(test_full_counters);
	RUN(test_reset);
	return unit_status();
}
