/*
 * Bottom-k sketches kept as a sorted array.  After the first few thousand
 * shingles almost every hash is above the k-th smallest and is rejected by
 * one comparison; the rest are placed by binary search.
 */
#include <stdlib.h>
#include <string.h>

#include "bottomk.h"
#include "xmalloc.h"

void
bottomk_init(struct bottomk *b, unsigned k)
{
	b->k = k;
	b->n = 0;
	b->v = xreallocarray(NULL, k, sizeof(*b->v));
}

void
bottomk_reset(struct bottomk *b)
{
	b->n = 0;
}

static void
insert(struct bottomk *b, uint64_t h)
{
	unsigned lo = 0, hi = b->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (b->v[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < b->n && b->v[lo] == h)
		return;
	if (b->n < b->k)
		b->n++;
	memmove(b->v + lo + 1, b->v + lo, (b->n - 1 - lo) * sizeof(*b->v));
	b->v[lo] = h;
}

void
bottomk_add(struct bottomk *b, const uint64_t *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (b->n == b->k && h[i] >= b->v[b->k - 1])
			continue;
		insert(b, h[i]);
	}
}

void
bottomk_final(const struct bottomk *b, uint64_t *out)
{
	unsigned i;

	memcpy(out, b->v, b->n * sizeof(*out));
	for (i = b->n; i < b->k; i++)
		out[i] = BOTTOMK_EMPTY;
}

uint64_t
bottomk_key(const struct bottomk *b)
{
	uint64_t x = 0;
	unsigned i;

	for (i = 0; i < b->n; i++)
		x ^= b->v[i];
	return x;
}

void
bottomk_free(struct bottomk *b)
{
	free(b->v);
	b->v = NULL;
}

static size_t
used(const uint64_t *a, size_t k)
{
	while (k > 0 && a[k - 1] == BOTTOMK_EMPTY)
		k--;
	return k;
}

double
bottomk_jaccard(const uint64_t *a, const uint64_t *b, size_t k)
{
	size_t na = used(a, k), nb = used(b, k), i = 0, j = 0, seen = 0;
	size_t shared = 0;

	if (na == 0 && nb == 0)
		return 1.0;
	/* Walk the union in order, stopping after its k smallest. */
	while (seen < k && (i < na || j < nb)) {
		if (j == nb || (i < na && a[i] < b[j]))
			i++;
		else if (i == na || b[j] < a[i])
			j++;
		else {
			shared++;
			i++;
			j++;
		}
		seen++;
	}
	/*
	 * A value of the union's bottom k that one sketch lacks is absent
	 * from that document only if the sketch was not full up to it; a
	 * full sketch ends below it, and the walk stops there too, so
	 * shared / seen is Broder's estimate.
	 */
	return (double)shared / (double)seen;
}

double
bottomk_containment(const uint64_t *a, const uint64_t *b, size_t k)
{
	size_t na = used(a, k), nb = used(b, k), i, j = 0, below = 0;
	size_t shared = 0;
	uint64_t limit = nb == k ? b[k - 1] : BOTTOMK_EMPTY;

	if (na == 0)
		return 1.0;
	for (i = 0; i < na && a[i] <= limit; i++) {
		below++;
		while (j < nb && b[j] < a[i])
			j++;
		if (j < nb && b[j] == a[i])
			shared++;
	}
	return below ? (double)shared / (double)below : 0.0;
}
