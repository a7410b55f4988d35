/*
 * Open-addressing sets of 64-bit hashes.  The hashes are XXH3 outputs, so
 * their top bits index the table directly.
 */
#include <stdlib.h>
#include <string.h>

#include "shset.h"
#include "xmalloc.h"

void
shset_init(struct shset *s)
{
	memset(s, 0, sizeof(*s));
}

static unsigned
bits(size_t cap)
{
	unsigned b = 0;

	while (((size_t)1 << b) < cap)
		b++;
	return b;
}

static size_t
find(const uint64_t *slot, size_t cap, uint64_t h)
{
	size_t mask = cap - 1, i = (size_t)(h >> (64 - bits(cap)));

	while (slot[i] != 0 && slot[i] != h)
		i = (i + 1) & mask;
	return i;
}

static void
grow(struct shset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024, i;
	uint64_t *slot = xcalloc(cap, sizeof(*slot));

	for (i = 0; i < s->cap; i++)
		if (s->slot[i] != 0)
			slot[find(slot, cap, s->slot[i])] = s->slot[i];
	free(s->slot);
	s->slot = slot;
	s->cap = cap;
}

void
shset_add(struct shset *s, const uint64_t *h, size_t n)
{
	size_t i, j, mask;
	unsigned shift;

	if (s->cap == 0)
		grow(s);
	mask = s->cap - 1;
	shift = 64 - bits(s->cap);
	for (i = 0; i < n; i++) {
		if (h[i] == 0) {
			s->n += !s->has_zero;
			s->has_zero = 1;
			continue;
		}
		for (j = (size_t)(h[i] >> shift); s->slot[j] != 0 &&
		    s->slot[j] != h[i]; j = (j + 1) & mask)
			;
		if (s->slot[j] != 0)
			continue;
		s->slot[j] = h[i];
		if (++s->n * 2 > s->cap) {
			grow(s);
			mask = s->cap - 1;
			shift = 64 - bits(s->cap);
		}
	}
}

int
shset_has(const struct shset *s, uint64_t h)
{
	if (h == 0)
		return s->has_zero;
	return s->cap > 0 && s->slot[find(s->slot, s->cap, h)] == h;
}

size_t
shset_shared(const struct shset *a, const struct shset *b)
{
	const struct shset *small = a->n <= b->n ? a : b;
	const struct shset *big = small == a ? b : a;
	size_t i, shared = small->has_zero && big->has_zero;

	for (i = 0; i < small->cap; i++)
		if (small->slot[i] != 0 && shset_has(big, small->slot[i]))
			shared++;
	return shared;
}

void
shset_free(struct shset *s)
{
	free(s->slot);
	shset_init(s);
}
