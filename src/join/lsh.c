/*
 * Band choice and band keys.
 */
#include <math.h>
#include <string.h>

#include "byteorder.h"
#include "lsh.h"
#include "xxh.h"

double
lsh_prob(const struct lsh *l, double s)
{
	return 1 - pow(1 - pow(s, l->r), l->b);
}

/* The integral of f over [lo, hi] by Simpson's rule. */
static double
area(const struct lsh *l, double lo, double hi, int above)
{
	const int n = 200;
	double h = (hi - lo) / n, sum = 0, x, y;
	int i;

	for (i = 0; i <= n; i++) {
		x = lo + i * h;
		y = above ? 1 - lsh_prob(l, x) : lsh_prob(l, x);
		sum += y * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
	}
	return sum * h / 3;
}

void
lsh_choose(struct lsh *best, double t, unsigned k, unsigned maxb,
    double fpw, double fnw)
{
	lsh_choose_at(best, t, t + 0.1, k, maxb, fpw, fnw);
}

void
lsh_choose_at(struct lsh *best, double t, double at, unsigned k,
    unsigned maxb, double fpw, double fnw)
{
	struct lsh l;
	double cost, min = HUGE_VAL;
	int pass, found = 0;

	best->b = 1;
	best->r = k;
	/* First among the pairs that meet the recall bar, then among all. */
	for (pass = 0; pass < 2 && !found; pass++) {
		for (l.b = 1; l.b <= k && l.b <= maxb; l.b++) {
			for (l.r = 1; l.b * l.r <= k; l.r++) {
				if (pass == 0 && at <= 1 &&
				    lsh_prob(&l, at) < LSH_RECALL)
					continue;
				cost = fpw * area(&l, 0, t, 0) +
				    fnw * area(&l, t, 1, 1);
				if (cost < min) {
					min = cost;
					*best = l;
					found = 1;
				}
			}
		}
	}
}

void
lsh_pick_bands(struct lsh *l, double t, unsigned k)
{
	double target = -(double)k * log(t);
	unsigned b = 1;

	while ((double)b * log((double)b) < target && b < k)
		b++;
	l->b = b;
	l->r = k / b;
}

uint64_t
lsh_band_key(const struct lsh *l, const uint64_t *v, unsigned i,
    uint64_t seed)
{
	uint32_t in[1 + 64];
	unsigned j, r = l->r;
	uint64_t key = 0;

	/* Bands of up to 64 rows in one go; longer ones are chained. */
	for (j = 0; j < r; j += 64) {
		unsigned n = r - j < 64 ? r - j : 64, m;

		in[0] = le32(i);
		for (m = 0; m < n; m++)
			in[1 + m] = le32((uint32_t)v[(size_t)i * r + j + m]);
		key = xxh_bytes(in, (1 + n) * sizeof(in[0]), seed ^ key);
	}
	return key;
}
