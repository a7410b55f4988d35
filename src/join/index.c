/*
 * Permuted tables for Hamming-distance search (see index.h).
 *
 * Bits are numbered from the most significant bit of the first word.
 * Block b holds bits bstart[b] .. bstart[b + 1] - 1.  A table's key is the
 * first 64 bits of the fingerprint with the table's B - d blocks moved to
 * the front; for 64-bit fingerprints that is the whole fingerprint, so the
 * popcount of two keys' XOR is their distance.
 *
 * A pair within d bits agrees on a set A of blocks with at least B - d
 * members, and is met in every table whose key blocks lie in A.  It is
 * reported only by the first such table, so each pair (and each match of
 * a query) comes out once without remembering what was already seen.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "keysort.h"
#include "xmalloc.h"

/* Fingerprints of a table between two calls of the tick of index_self. */
#define INDEX_TICK	65536

/* Bits start .. start + len - 1 of w, right-aligned (len <= 64). */
static inline uint64_t
get_bits(const uint64_t *w, unsigned start, unsigned len)
{
	unsigned wi = start / 64, off = start % 64;
	uint64_t v = w[wi] << off;

	if (off > 0 && off + len > 64)
		v |= w[wi + 1] >> (64 - off);
	return len == 64 ? v : v >> (64 - len);
}

/* The key of fingerprint w in table t. */
static uint64_t
permute(const struct index *ix, const struct index_table *t,
    const uint64_t *w)
{
	unsigned i, b, len, filled = 0;
	uint64_t key = 0, v;

	for (i = 0; i < ix->nblocks && filled < 64; i++) {
		b = t->order[i];
		len = ix->bstart[b + 1] - ix->bstart[b];
		v = get_bits(w, ix->bstart[b], len);
		if (filled + len > 64) {
			v >>= filled + len - 64;
			len = 64 - filled;
		}
		key = len == 64 ? v : (key << len) | v;
		filled += len;
	}
	return key;
}

/* The blocks on which a and b agree, as a mask. */
static uint64_t
agreement(const struct index *ix, const uint64_t *a, const uint64_t *b)
{
	uint64_t mask = 0;
	unsigned i, len;

	for (i = 0; i < ix->nblocks; i++) {
		len = ix->bstart[i + 1] - ix->bstart[i];
		if (get_bits(a, ix->bstart[i], len) ==
		    get_bits(b, ix->bstart[i], len))
			mask |= (uint64_t)1 << i;
	}
	return mask;
}

/*
 * Is t the first table whose key blocks are all among the agreeing ones?
 * (A key of more than 64 bits is cut short, so equal keys alone do not
 * prove that t's own blocks agree: that is checked too.)
 */
static int
first_table(const struct index *ix, unsigned t, uint64_t agree)
{
	unsigned i;

	if ((ix->t[t].smask & ~agree) != 0)
		return 0;
	for (i = 0; i < t; i++)
		if ((ix->t[i].smask & ~agree) == 0)
			return 0;
	return 1;
}

static unsigned
distance(const struct index *ix, const uint64_t *a, const uint64_t *b)
{
	unsigned i, dist = 0;

	for (i = 0; i < ix->words; i++)
		dist += (unsigned)__builtin_popcountll(a[i] ^ b[i]);
	return dist;
}

/*
 * The scan: the first fingerprint from i on, of n, within d bits of q,
 * its distance in *dist; n if none.  This loop is all the time of a scan,
 * a popcount a fingerprint, and the popcount instruction makes it some
 * five times faster than the portable count: it is compiled twice, and
 * scan_next() takes the instruction where the processor has it.
 */
static inline __attribute__((always_inline)) size_t
scan_body(const uint64_t *fp, unsigned words, const uint64_t *q, size_t i,
    size_t n, unsigned d, unsigned *dist)
{
	unsigned x;

	if (words == 1) {
		for (; i < n; i++)
			if ((x = (unsigned)__builtin_popcountll(fp[i] ^ q[0])) <=
			    d) {
				*dist = x;
				return i;
			}
		return n;
	}
	for (; i < n; i++)
		if ((x = (unsigned)__builtin_popcountll(fp[2 * i] ^ q[0]) +
		    (unsigned)__builtin_popcountll(fp[2 * i + 1] ^ q[1])) <=
		    d) {
			*dist = x;
			return i;
		}
	return n;
}

static size_t
scan_plain(const uint64_t *fp, unsigned words, const uint64_t *q, size_t i,
    size_t n, unsigned d, unsigned *dist)
{
	return scan_body(fp, words, q, i, n, d, dist);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("popcnt"))) static size_t
scan_popcnt(const uint64_t *fp, unsigned words, const uint64_t *q, size_t i,
    size_t n, unsigned d, unsigned *dist)
{
	return scan_body(fp, words, q, i, n, d, dist);
}
#endif

static size_t
scan_next(const struct index *ix, const uint64_t *q, size_t i,
    unsigned *dist)
{
#if defined(__x86_64__) || defined(__i386__)
	static int popcnt = -1;

	if (popcnt == -1) {
		__builtin_cpu_init();
		popcnt = __builtin_cpu_supports("popcnt") != 0;
	}
	if (popcnt)
		return scan_popcnt(ix->fp, ix->words, q, i, ix->n, ix->d,
		    dist);
#endif
	return scan_plain(ix->fp, ix->words, q, i, ix->n, ix->d, dist);
}

static double
binom(unsigned n, unsigned k)
{
	double r = 1;
	unsigned i;

	for (i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

/*
 * B blocks for n fingerprints of bits bits at distance d, or 0 for a scan.
 * More blocks mean longer keys and so fewer candidates to check per
 * table, but C(B, d) tables to build, hold and search.  The cost, in
 * fingerprints checked by a scan (a popcount each), is per query, or per
 * fingerprint of a self join; a self join is half the work of its queries
 * either way.  Each table costs a key built and sorted (KEYCOST), for a
 * query a key looked up besides, a binary search whose every step misses
 * the cache (LOOKUPCOST a step), and the candidates, n / 2^p for random
 * fingerprints (p the bits of the shortest key), checked at CANDCOST
 * each.  The tables are built for as many queries as fingerprints.  The
 * figures were measured on an x86-64 with the popcount instruction.
 *
 * The tables win at small distances, the scan once their keys are so
 * short that together they look at more than the whole index: at d = 16
 * of 64 bits, 17 tables of 3-bit keys, each of n / 8 candidates.  At
 * most INDEX_MAXTABLES tables; B = d + 1 always fits (d + 1 tables, and
 * B = 2 for d = 0 at 128 bits, one table, since a block is at most 64
 * bits).
 */
#define KEYCOST		100.0
#define LOOKUPCOST	75.0
#define CANDCOST	4.0

static unsigned
choose_blocks(size_t n, unsigned bits, unsigned d, int use)
{
	unsigned b, first = d + 1 > bits / 64 ? d + 1 : bits / 64, best = 0;
	double key, cost, p, least;

	key = use == INDEX_SELF ? 2 * KEYCOST :
	    KEYCOST + LOOKUPCOST * log2((double)n + 1);
	least = use == INDEX_TABLES ? INFINITY :
	    (double)n * (double)(bits / 64);
	/* Blocks of at most 64 bits: 128-bit fingerprints need two. */
	for (b = first; b <= bits && b <= INDEX_MAXBLOCKS; b++) {
		if (binom(b, d) > INDEX_MAXTABLES)
			break;
		/* The shortest key: B - d of the shorter blocks. */
		p = fmin(64, (double)((b - d) * (bits / b)));
		cost = binom(b, d) * (key + CANDCOST * (double)n / exp2(p));
		if (cost < least) {
			least = cost;
			best = b;
		}
	}
	return best;
}

void
index_build(struct index *ix, const uint64_t *fp, size_t n, unsigned bits,
    unsigned d, int use)
{
	unsigned b, i, j, k, nkey, comb[INDEX_MAXBLOCKS], nb;
	struct index_table *t;
	size_t x;

	memset(ix, 0, sizeof(*ix));
	ix->bits = bits;
	ix->words = bits / 64;
	ix->d = d;
	ix->n = n;
	ix->fp = fp;
	if (d >= INDEX_MAXBLOCKS ||
	    (nb = ix->nblocks = choose_blocks(n, bits, d, use)) == 0)
		return;		/* no tables: scan */
	/* Blocks as equal as can be, the longer ones first. */
	for (b = 0, i = 0; b < nb; b++) {
		ix->bstart[b] = i;
		i += bits / nb + (b < bits % nb);
	}
	ix->bstart[nb] = bits;
	/* One table per combination of B - d key blocks, in lexical order. */
	nkey = nb - d;
	ix->ntables = (unsigned)binom(nb, d);
	ix->t = xcalloc(ix->ntables, sizeof(*ix->t));
	for (i = 0; i < nkey; i++)
		comb[i] = i;
	for (k = 0; k < ix->ntables; k++) {
		t = &ix->t[k];
		for (i = 0; i < nkey; i++) {
			t->order[i] = (unsigned char)comb[i];
			t->smask |= (uint64_t)1 << comb[i];
			t->pbits += ix->bstart[comb[i] + 1] - ix->bstart[comb[i]];
		}
		for (b = 0, j = nkey; b < nb; b++)
			if (!(t->smask & ((uint64_t)1 << b)))
				t->order[j++] = (unsigned char)b;
		if (t->pbits > 64)
			t->pbits = 64;
		t->key = xreallocarray(NULL, n ? n : 1, sizeof(*t->key));
		t->id = xreallocarray(NULL, n ? n : 1, sizeof(*t->id));
		for (x = 0; x < n; x++) {
			t->key[x] = permute(ix, t, fp + x * ix->words);
			t->id[x] = (uint32_t)x;
		}
		keysort(t->key, t->id, n, t->pbits);
		/* The next combination. */
		for (i = nkey; i-- > 0;)
			if (comb[i] < nb - nkey + i)
				break;
		if (i == (unsigned)-1)
			break;
		comb[i]++;
		for (j = i + 1; j < nkey; j++)
			comb[j] = comb[j - 1] + 1;
	}
}

static inline uint64_t
prefix_mask(unsigned pbits)
{
	return pbits >= 64 ? ~(uint64_t)0 : ~(~(uint64_t)0 >> pbits);
}

static void
add_match(struct index_match **out, size_t *cap, size_t *n, uint32_t id,
    unsigned dist)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*out = xreallocarray(*out, *cap, sizeof(**out));
	}
	(*out)[*n].id = id;
	(*out)[*n].dist = dist;
	++*n;
}

static int
match_cmp(const void *x, const void *y)
{
	const struct index_match *a = x, *b = y;

	if (a->dist != b->dist)
		return a->dist < b->dist ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

size_t
index_query(const struct index *ix, const uint64_t *q,
    struct index_match **out, size_t *cap)
{
	const struct index_table *t;
	size_t lo, hi, mid, i, n = 0;
	uint64_t k, mask;
	unsigned tab, dist;

	if (ix->ntables == 0)
		for (i = 0; (i = scan_next(ix, q, i, &dist)) < ix->n; i++)
			add_match(out, cap, &n, (uint32_t)i, dist);
	for (tab = 0; tab < ix->ntables; tab++) {
		t = &ix->t[tab];
		k = permute(ix, t, q);
		mask = prefix_mask(t->pbits);
		for (lo = 0, hi = ix->n; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if ((t->key[mid] & mask) < (k & mask))
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo; i < ix->n && (t->key[i] & mask) == (k & mask);
		    i++) {
			/* The key's distance is a lower bound (exact at 64). */
			if ((unsigned)__builtin_popcountll(t->key[i] ^ k) >
			    ix->d)
				continue;
			dist = ix->words == 1 ?
			    (unsigned)__builtin_popcountll(t->key[i] ^ k) :
			    distance(ix, ix->fp + (size_t)t->id[i] * ix->words,
			    q);
			if (dist > ix->d || !first_table(ix, tab, agreement(ix,
			    ix->fp + (size_t)t->id[i] * ix->words, q)))
				continue;
			add_match(out, cap, &n, t->id[i], dist);
		}
	}
	if (n > 1)
		qsort(*out, n, sizeof(**out), match_cmp);
	return n;
}

void
index_self(const struct index *ix, index_pair_fn *fn, void *ctx)
{
	const struct index_table *t;
	const uint64_t *a, *b;
	size_t i, j, end, ticked = 0;
	uint64_t mask, total;
	unsigned tab, dist;

	/* The work: each fingerprint of each table (or of the scan). */
	total = (uint64_t)ix->n * (ix->ntables ? ix->ntables : 1);
	if (ix->ntables == 0) {
		/* Row by row: the pairs of i come before those of i + 1. */
		for (i = 0; i < ix->n; i++) {
			if (ix->tick != NULL && (i & 1023) == 0)
				ix->tick(ix->tickctx, i, total);
			for (j = i + 1; (j = scan_next(ix, ix->fp + i *
			    ix->words, j, &dist)) < ix->n; j++)
				fn(ctx, (uint32_t)i, (uint32_t)j, dist);
		}
	}
	for (tab = 0; tab < ix->ntables; tab++) {
		t = &ix->t[tab];
		mask = prefix_mask(t->pbits);
		for (i = 0; i < ix->n; i = end) {
			if (ix->tick != NULL && i - ticked >= INDEX_TICK) {
				ix->tick(ix->tickctx, (uint64_t)tab * ix->n + i,
				    total);
				ticked = i;
			}
			for (end = i + 1; end < ix->n && ((t->key[end] ^
			    t->key[i]) & mask) == 0; end++)
				;
			for (; i < end; i++) {
				for (j = i + 1; j < end; j++) {
					if ((unsigned)__builtin_popcountll(
					    t->key[i] ^ t->key[j]) > ix->d)
						continue;
					a = ix->fp + (size_t)t->id[i] * ix->words;
					b = ix->fp + (size_t)t->id[j] * ix->words;
					dist = distance(ix, a, b);
					if (dist > ix->d || !first_table(ix, tab,
					    agreement(ix, a, b)))
						continue;
					if (t->id[i] < t->id[j])
						fn(ctx, t->id[i], t->id[j], dist);
					else
						fn(ctx, t->id[j], t->id[i], dist);
				}
			}
		}
		ticked = 0;
	}
	if (ix->tick != NULL)
		ix->tick(ix->tickctx, total, total);
}

void
index_free(struct index *ix)
{
	unsigned i;

	for (i = 0; i < ix->ntables; i++) {
		free(ix->t[i].key);
		free(ix->t[i].id);
	}
	free(ix->t);
	memset(ix, 0, sizeof(*ix));
}
