/*
 * The multimap of src/tagmap.c against a plain list: every id added under
 * a key is found under it, once, whatever the growth in place did, with
 * keys that share tags, parts and home buckets; and no id turns up under
 * a key it was not added with.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tagmap.h"
#include "unit.h"

static uint64_t seed = 0x7461676d61702121ULL;

struct pair {
	uint64_t key;
	uint32_t id;
};

/* Sort by key, then id. */
static int
cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int
cmp_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Add n pairs whose keys come from a pool of nkeys (so that keys repeat),
 * then look every key up.  With clash, keys differ only in the bits the
 * map does not keep, so that the map must merge them.  With ahead, every
 * part has its next buckets faulted in ahead, from its first growth.
 */
static void
check_map_as(size_t n, size_t nkeys, int clash, int ahead)
{
	struct tagmap m;
	struct tagmap_cursor c;
	struct prefault *pf;
	struct pair *p = calloc(n, sizeof(*p));
	uint64_t *keys = calloc(nkeys, sizeof(*keys));
	uint32_t *got = calloc(n, sizeof(*got)), id;
	size_t i, j, k, ngot, want;
	int ok = 1;

	if (!CHECK(p != NULL && keys != NULL && got != NULL, "calloc"))
		return;
	for (i = 0; i < nkeys; i++) {
		keys[i] = splitmix64(&seed);
		if (clash && i % 2 == 1)	/* same part and tag as i - 1 */
			keys[i] = (keys[i - 1] & 0xFC000000FFFFFFFFULL) |
			    (keys[i] & 0x03FFFFFF00000000ULL);
	}
	/* Slots after others', as when tables share the thread. */
	pf = ahead ? prefault_new(2 * TAGMAP_PARTS) : NULL;
	tagmap_init(&m, pf, TAGMAP_PARTS);
	if (ahead)
		m.pfmin = 0;
	for (i = 0; i < n; i++) {
		p[i].key = keys[splitmix64(&seed) % nkeys];
		p[i].id = (uint32_t)i;
		tagmap_add(&m, p[i].key, p[i].id);
	}
	qsort(p, n, sizeof(*p), cmp_pair);
	for (i = 0; i < n && ok; i = j) {
		for (j = i; j < n && p[j].key == p[i].key; j++)
			;
		/* Keys merged by the map count as one. */
		want = j - i;
		for (k = 0; clash && k < n; k++)
			if (p[k].key != p[i].key &&
			    (p[k].key & 0xFC000000FFFFFFFFULL) ==
			    (p[i].key & 0xFC000000FFFFFFFFULL))
				want++;
		ngot = 0;
		tagmap_seek(&m, p[i].key, &c);
		while ((id = tagmap_next(&c)) != TAGMAP_NONE && ngot < n)
			got[ngot++] = id;
		ok = CHECK(ngot == want, "key %016llx: %zu ids, want %zu",
		    (unsigned long long)p[i].key, ngot, want);
		qsort(got, ngot, sizeof(*got), cmp_id);
		for (k = 0; ok && !clash && k < ngot; k++)
			ok = CHECK(got[k] == p[i + k].id, "key %016llx: id "
			    "%u, want %u", (unsigned long long)p[i].key,
			    got[k], p[i + k].id);
	}
	CHECK(tagmap_memory(&m) <= (size_t)(n / TAGMAP_LOAD * 1.5 * 8) +
	    TAGMAP_PARTS * 4096, "memory %zu for %zu elements",
	    tagmap_memory(&m), n);
	tagmap_free(&m);
	prefault_free(pf);
	free(p);
	free(keys);
	free(got);
}

static void
check_map(size_t n, size_t nkeys, int clash)
{
	check_map_as(n, nkeys, clash, 0);
}

static void
test_faulted_ahead(void)
{
	check_map_as(300000, 300000, 0, 1);
	check_map_as(100000, 3000, 1, 1);
}

static void
test_distinct_keys(void)
{
	check_map(200000, 200000, 0);
}

static void
test_repeated_keys(void)
{
	check_map(100000, 3000, 0);
}

static void
test_few_keys_many_ids(void)
{
	check_map(5000, 7, 0);
}

static void
test_keys_merged_by_tag(void)
{
	check_map(20000, 2000, 1);
}

static void
test_absent_keys(void)
{
	struct tagmap m;
	struct tagmap_cursor c;
	uint64_t s = 42;
	size_t i, found = 0;

	tagmap_init(&m, NULL, 0);
	for (i = 0; i < 100000; i++)
		tagmap_add(&m, splitmix64(&s), (uint32_t)i);
	for (i = 0; i < 100000; i++) {
		tagmap_seek(&m, splitmix64(&s), &c);
		found += tagmap_next(&c) != TAGMAP_NONE;
	}
	CHECK(found == 0, "%zu keys never added were found", found);
	tagmap_free(&m);
}

int
main(void)
{
	RUN(test_distinct_keys);
	RUN(test_repeated_keys);
	RUN(test_few_keys_many_ids);
	RUN(test_keys_merged_by_tag);
	RUN(test_absent_keys);
	RUN(test_faulted_ahead);
	return unit_status();
}
