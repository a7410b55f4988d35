/*
 * Hamming-distance search over simhash fingerprints with the permuted
 * tables of Manku, Jain and Das Sarma (2007), "Detecting near-duplicates
 * for web crawling".
 *
 * The f bits (64 or 128) are cut into B blocks.  Two fingerprints within
 * d bits of each other differ in at most d blocks, so they agree on some
 * B - d of them.  There is one table for every choice of B - d blocks: the
 * fingerprints with those blocks moved to the front, sorted.  A query
 * looks up, in every table, the fingerprints whose front blocks equal its
 * own, and checks only those by popcount: every fingerprint within d bits
 * is found, and few others are looked at.  B is chosen from d, the number
 * of fingerprints and f to minimize the work of a query within a bound on
 * the number of tables; and where even the best tables cost more than
 * checking every fingerprint, as at large distances, where the keys are
 * short, or in a small index, there are none: a plain scan answers, and
 * index_self gives its pairs in order, those of each first fingerprint
 * together.
 *
 * Memory: 8 or 16 bytes a fingerprint for the fingerprints themselves, and
 * 12 bytes a fingerprint in each table.
 */
#ifndef INDEX_H
#define INDEX_H

#include <stddef.h>
#include <stdint.h>

#define INDEX_MAXBLOCKS	 64
#define INDEX_MAXTABLES	 64

struct index_table {
	unsigned char order[INDEX_MAXBLOCKS];	/* key blocks first */
	uint64_t smask;		/* the key blocks, as a mask */
	unsigned pbits;		/* bits of the key blocks (at most 64) */
	uint64_t *key;		/* first 64 bits of the permuted values */
	uint32_t *id;		/* sorted by key */
};

struct index {
	unsigned bits;		/* 64 or 128 */
	unsigned words;		/* bits / 64 */
	unsigned d;		/* the largest distance searched */
	unsigned nblocks;	/* B */
	unsigned bstart[INDEX_MAXBLOCKS + 1];	/* first bit of each block */
	size_t	 n;
	const uint64_t *fp;	/* n fingerprints of words each (not owned) */
	unsigned ntables;
	struct index_table *t;
	/*
	 * Set after index_build, if wanted: index_self calls tick with the
	 * work done so far and the whole of it, now and then (for a
	 * progress line).
	 */
	void	(*tick)(void *tickctx, uint64_t done, uint64_t total);
	void	*tickctx;
};

struct index_match {
	uint32_t id;
	unsigned dist;
};

/* Largest distance an index of bits-bit fingerprints answers. */
#define INDEX_MAXD(bits) ((bits) / 2)

/* What an index is built for: the tables or the scan by their cost. */
#define INDEX_QUERIES	0	/* index_query, as many as fingerprints */
#define INDEX_SELF	1	/* index_self */
#define INDEX_TABLES	2	/* tables whatever they cost (for tests) */

/*
 * Build the index of n fingerprints of bits (64 or 128) bits at fp (most
 * significant word first), which must outlive it, for distances up to d,
 * to be used as use says.
 */
void	index_build(struct index *, const uint64_t *fp, size_t n,
	    unsigned bits, unsigned d, int use);

/*
 * The fingerprints within d bits of q: into *out (grown as needed, *cap
 * its size), nearest first, ties in index order.  Returns their number.
 */
size_t	index_query(const struct index *, const uint64_t *q,
	    struct index_match **out, size_t *cap);

/* Called for each pair found by index_self (a < b). */
typedef void index_pair_fn(void *ctx, uint32_t a, uint32_t b, unsigned dist);

/*
 * Every unordered pair of indexed fingerprints within d bits, once.  When
 * the index is a scan (ntables is 0), the pairs come by a, and for one a
 * by b: all of a's before any of a + 1's.
 */
void	index_self(const struct index *, index_pair_fn *, void *ctx);

void	index_free(struct index *);

#endif
