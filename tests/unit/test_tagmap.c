/*
 * The multimap of src/dedup/tagmap.c against a plain list: every id added under
 * a key is found under it, once and in the order added, whatever the
 * growths did, with keys that share tags, parts and home buckets, also
 * while parts are being rebuilt in the job thread; and no id turns up
 * under a key it was not added with.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tagmap.h"
#include "unit.h"

static uint64_t seed = 0x7461676d61702121ULL;

struct pair {
	uint64_t key;
	uint32_t id;
};

static uint64_t kept_mask;	/* the bits of a key the map keeps */
static size_t overs;		/* over tables the last map had */

/* Sort by the key as kept, then id. */
static int
cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	uint64_t kx = x->key & kept_mask, ky = y->key & kept_mask;

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The ids under key in m are want[0..nwant), in that order? */
static int
ids_are(const struct tagmap *m, uint64_t key, const uint32_t *want,
    size_t nwant, uint32_t *got, size_t room)
{
	struct tagmap_cursor c;
	size_t ngot = 0, k;
	uint32_t id;

	tagmap_seek(m, key, &c);
	while ((id = tagmap_next(&c)) != TAGMAP_NONE && ngot < room)
		got[ngot++] = id;
	if (!CHECK(ngot == nwant, "key %016llx: %zu ids, want %zu",
	    (unsigned long long)key, ngot, nwant))
		return 0;
	for (k = 0; k < ngot; k++)
		if (!CHECK(got[k] == want[k], "key %016llx: id %zu is %u, "
		    "want %u", (unsigned long long)key, k, got[k], want[k]))
			return 0;
	return 1;
}

/* A job that holds the job thread up for a fifth of a second. */
static void
slow_job(void *arg)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	(void)arg;
	(void)nanosleep(&ts, NULL);
}

/* Tables narrow in some part of m. */
static size_t
narrow_parts(const struct tagmap *m)
{
	size_t i, k = 0;

	for (i = 0; i < TAGMAP_PARTS; i++)
		k += m->part[i].narrow;
	return k;
}

/*
 * Add n pairs whose keys come from a pool of nkeys (so that keys repeat),
 * looking some keys up as they go, then look every key up: its ids are
 * those added under the keys that agree with it in the bits the map
 * keeps, in the order added.  With clash, every other key agrees with
 * the one before in those bits, so that the map must merge them.  With
 * bg, every part grows in a job thread from its first growth, and
 * lookups meet parts being rebuilt; with bg 2, the job thread is held up
 * at first, so that side tables fill to their limit.  Tags are of hbits
 * bits: with fewer than TAGMAP_HBITS, tables turn narrow while small.
 */
static void
check_map_as(size_t n, size_t nkeys, int clash, int bg, unsigned hbits)
{
	struct tagmap m;
	struct bgjob *job;
	struct bgjob_task slow;
	struct pair *p = calloc(n, sizeof(*p));
	uint64_t *keys = calloc(nkeys, sizeof(*keys));
	uint32_t *got = calloc(n, sizeof(*got)), *want = calloc(n,
	    sizeof(*want));
	size_t i, j, q, nwant, most;
	int ok = 1;

	if (!CHECK(p != NULL && keys != NULL && got != NULL && want != NULL,
	    "calloc"))
		return;
	kept_mask = ~(~(uint64_t)0 >> TAGMAP_PARTBITS) |
	    (((uint64_t)1 << hbits) - 1);
	for (i = 0; i < nkeys; i++) {
		keys[i] = splitmix64(&seed);
		if (clash && i % 2 == 1)	/* same part and tag as i - 1 */
			keys[i] = (keys[i - 1] & kept_mask) |
			    (keys[i] & ~kept_mask);
	}
	job = bg ? bgjob_new() : NULL;
	tagmap_init_bits(&m, job, hbits);
	if (bg)
		m.bgmin = 0;
	if (bg == 2) {
		slow.fn = slow_job;
		bgjob_start(job, &slow);
	}
	for (i = 0; i < n; i++) {
		p[i].key = keys[splitmix64(&seed) % nkeys];
		p[i].id = (uint32_t)i;
		tagmap_add(&m, p[i].key, p[i].id);
		/* Now and then, the ids of a key added so far. */
		if (ok && i % (61 + n / 2000) == 0) {
			q = splitmix64(&seed) % (i + 1);
			for (j = nwant = 0; j <= i; j++)
				if (((p[j].key ^ p[q].key) & kept_mask) == 0)
					want[nwant++] = p[j].id;
			ok = ids_are(&m, p[q].key, want, nwant, got, n);
		}
	}
	if (hbits < TAGMAP_HBITS)
		CHECK(narrow_parts(&m) > 0, "no narrow table");
	/* Sorted by key as kept, then id: the order in which they were
	   added. */
	qsort(p, n, sizeof(*p), cmp_pair);
	for (i = 0; i < n && ok; i = j) {
		for (j = i, nwant = 0; j < n && ((p[j].key ^ p[i].key) &
		    kept_mask) == 0; j++)
			want[nwant++] = p[j].id;
		/* Each key met, as given. */
		for (q = i; q < j && ok; q++)
			if (q == i || p[q].key != p[q - 1].key)
				ok = ids_are(&m, p[q].key, want, nwant, got,
				    n);
	}
	/*
	 * At most 15 bytes an element and a page a part, and a page for
	 * the over table of each; parts still being rebuilt count their new
	 * table and side table too, and the spare one part more.
	 */
	most = (size_t)(n / TAGMAP_LOAD * 1.5 * 8) + 2 * TAGMAP_PARTS * 4096;
	if (bg)
		most = most * 3 + most / 8 + TAGMAP_PARTS * 4096;
	CHECK(tagmap_memory(&m) <= most, "memory %zu for %zu elements",
	    tagmap_memory(&m), n);
	for (i = overs = 0; i < TAGMAP_PARTS; i++)
		overs += m.part[i].over != NULL;
	tagmap_free(&m);
	bgjob_free(job);
	free(p);
	free(keys);
	free(got);
	free(want);
}

static void
check_map(size_t n, size_t nkeys, int clash)
{
	check_map_as(n, nkeys, clash, 0, TAGMAP_HBITS);
	check_map_as(n, nkeys, clash, 0, 20);
}

static void
test_grown_in_job_thread(void)
{
	unsigned hbits[] = { TAGMAP_HBITS, 21 }, k;

	for (k = 0; k < 2; k++) {
		check_map_as(300000, 300000, 0, 1, hbits[k]);
		check_map_as(100000, 3000, 0, 1, hbits[k]);
		check_map_as(100000, 3000, 1, 1, hbits[k]);
		check_map_as(20000, 5, 0, 1, hbits[k]);
		check_map_as(100000, 100000, 0, 2, hbits[k]);
		check_map_as(20000, 5, 0, 2, hbits[k]);
	}
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

/* Narrow, the ids of a key fill the reach and go on in its over table. */
static void
test_few_keys_many_ids(void)
{
	check_map(5000, 7, 0);
	CHECK(overs > 0, "no over table");
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

	tagmap_init(&m, NULL);
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
	RUN(test_grown_in_job_thread);
	return unit_status();
}
