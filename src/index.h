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
 * the number of tables.
 *
 * Memory: 8 or 16 bytes a fingerprint for the fingerprints themselves, and
 * 12 bytes a fingerprint in each table.  A distance too large for blocks
 * (d >= INDEX_MAXBLOCKS) is answered by a plain scan, which is what the
 * tables come down to there anyway.
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

/*
 * Build the index of n fingerprints of bits (64 or 128) bits at fp (most
 * significant word first), which must outlive it, for distances up to d.
 */
void	index_build(struct index *, const uint64_t *fp, size_t n,
	    unsigned bits, unsigned d);

/*
 * The fingerprints within d bits of q: into *out (grown as needed, *cap
 * its size), nearest first, ties in index order.  Returns their number.
 */
size_t	index_query(const struct index *, const uint64_t *q,
	    struct index_match **out, size_t *cap);

/* Called for each pair found by index_self (a < b). */
typedef void index_pair_fn(void *ctx, uint32_t a, uint32_t b, unsigned dist);

/* Every unordered pair of indexed fingerprints within d bits, once. */
void	index_self(const struct index *, index_pair_fn *, void *ctx);

void	index_free(struct index *);

#endif
