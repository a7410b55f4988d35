/*
 * The block scanner: words of plain ASCII found 64 bytes at a time with
 * SSE2 bitmaps, their hashes through a small cache.  Where SSE2 is missing
 * (or with -DNEARDUP_SCALAR, to check that both agree) the shingler's
 * byte-at-a-time path does all the work, with the same results.
 */
#ifndef WORDSCAN_H
#define WORDSCAN_H

#include "cpu.h"

#define WORDSCAN_CACHE_BITS 13	/* 8192 cached words, 128 KiB */

struct shingler;

/*
 * Scan from p, between words, in whole blocks of 64 bytes; a word that
 * runs into the next block is found whole there.  Stops at the end (less
 * than 64 bytes left), before a block with non-ASCII bytes (*scalar_until
 * is then set past it, for the byte-at-a-time path), or after a block
 * whose last word goes on past what the scanner can see (into the last
 * bytes, a non-ASCII block, or beyond the next block): the word is then
 * in the shingler's token buffer.  Unweighted shingling only.  Returns
 * where it stopped.
 */
const unsigned char *wordscan_ascii(struct shingler *, const unsigned char *p,
	    const unsigned char *end, const unsigned char **scalar_until);

/* Set up a shingler's tables for the AVX-512 scanners. */
void	wordvec_init(struct shingler *);

/*
 * wordscan_ascii and charscan_ascii with AVX-512, eight items at a time
 * (wordvec.c).
 */
const unsigned char *wordscan_ascii512(struct shingler *,
	    const unsigned char *p, const unsigned char *end,
	    const unsigned char **scalar_until);
const unsigned char *charscan_ascii512(struct shingler *,
	    const unsigned char *p, const unsigned char *end,
	    const unsigned char **scalar_until);

/*
 * The same for character n-grams, which have no tokens to carry: stops at
 * the end (*scalar_until is then set to end) or before a block with
 * non-ASCII bytes (*scalar_until set past it).
 */
const unsigned char *charscan_ascii(struct shingler *, const unsigned char *p,
	    const unsigned char *end, const unsigned char **scalar_until);

#endif
