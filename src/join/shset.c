/*
 * Open-addressing sets of 64-bit hashes.  The hashes are XXH3 outputs, so
 * their top bits index the table directly: the table is in the order of
 * its elements, and doubling it is one pass through both tables in step.
 *
 * A large set is mostly cache misses, one a new shingle, so the slot of
 * the hash AHEAD places on is asked for before it is needed: compare of
 * two 100 MB texts spent most of its time waiting on them.  (Huge pages
 * did not make the probes cheaper, and their first faults on a virtual
 * machine cost more: bench/README.md, compare.)
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shset.h"
#include "xmalloc.h"

#define CAP_BITS	10	/* a new set's table: 2^CAP_BITS slots */
#define AHEAD		16	/* hashes whose slots are asked for ahead */
/*
 * Tables of MAP_MIN bytes and more are mappings of their own; under
 * AddressSanitizer none is, so that it checks every table (and its
 * allocation limits apply, as the tests of running out of memory use).
 */
#if defined(__SANITIZE_ADDRESS__)
#define MAP_MIN		SIZE_MAX
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAP_MIN		SIZE_MAX
#endif
#endif
#ifndef MAP_MIN
#define MAP_MIN		(1024 * 1024)
#endif

void
shset_init(struct shset *s)
{
	memset(s, 0, sizeof(*s));
}

/*
 * A zeroed table of cap slots.  A large one is a mapping of its own,
 * faulted in for writing at once: its first access is mostly a read,
 * which would map the zero page, and the write after it would then fault
 * again and, with another thread of the process on the other core, flush
 * that core's TLB (compare reads its two documents at once).
 */
static uint64_t *
table_new(size_t cap)
{
	if (cap * sizeof(uint64_t) < MAP_MIN)
		return xcalloc(cap, sizeof(uint64_t));
	return xmap(cap * sizeof(uint64_t));
}

static void
table_free(uint64_t *slot, size_t cap)
{
	if (cap * sizeof(uint64_t) < MAP_MIN)
		free(slot);
	else
		munmap(slot, cap * sizeof(uint64_t));
}

/* Put h, not yet there, in the table. */
static void
place(uint64_t *slot, size_t mask, unsigned shift, uint64_t h)
{
	size_t i;

	for (i = (size_t)(h >> shift); slot[i] != 0; i = (i + 1) & mask)
		;
	slot[i] = h;
}

static void
grow(struct shset *s)
{
	size_t cap = s->cap ? 2 * s->cap : (size_t)1 << CAP_BITS, i;
	unsigned shift = s->cap ? s->shift - 1 : 64 - CAP_BITS;
	uint64_t *slot = table_new(cap);

	for (i = 0; i < s->cap; i++)
		if (s->slot[i] != 0)
			place(slot, cap - 1, shift, s->slot[i]);
	table_free(s->slot, s->cap);
	s->slot = slot;
	s->cap = cap;
	s->shift = shift;
}

/* The slot of h in s: where it is, or the empty one it would take. */
static size_t
find(const struct shset *s, uint64_t h)
{
	size_t i, mask = s->cap - 1;

	for (i = (size_t)(h >> s->shift); s->slot[i] != 0 && s->slot[i] != h;
	    i = (i + 1) & mask)
		;
	return i;
}

void
shset_add(struct shset *s, const uint64_t *h, size_t n)
{
	size_t i, j;

	if (s->cap == 0)
		grow(s);
	for (i = 0; i < n; i++) {
		/* A hint only: a growth on the way just makes it useless. */
		if (i + AHEAD < n)
			__builtin_prefetch(&s->slot[h[i + AHEAD] >> s->shift]);
		if (h[i] == 0) {
			s->n += !s->has_zero;
			s->has_zero = 1;
			continue;
		}
		if (s->slot[j = find(s, h[i])] != 0)
			continue;
		s->slot[j] = h[i];
		if (++s->n * 2 > s->cap)
			grow(s);
	}
}

int
shset_has(const struct shset *s, uint64_t h)
{
	if (h == 0)
		return s->has_zero;
	return s->cap > 0 && s->slot[find(s, h)] == h;
}

size_t
shset_shared(const struct shset *a, const struct shset *b)
{
	const struct shset *small = a->n <= b->n ? a : b;
	const struct shset *big = small == a ? b : a;
	size_t i, shared = small->has_zero && big->has_zero;
	uint64_t h;

	if (big->cap == 0)
		return shared;
	/*
	 * Both tables are in the order of their hashes, so the big one is
	 * read nearly in order too; its slots are asked for ahead all the
	 * same, for the stretches the small one skips.
	 */
	for (i = 0; i < small->cap; i++) {
		if (i + AHEAD < small->cap && (h = small->slot[i + AHEAD]) != 0)
			__builtin_prefetch(&big->slot[h >> big->shift]);
		if ((h = small->slot[i]) != 0 && shset_has(big, h))
			shared++;
	}
	return shared;
}

void
shset_free(struct shset *s)
{
	if (s->slot != NULL)
		table_free(s->slot, s->cap);
	shset_init(s);
}
