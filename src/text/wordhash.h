/*
 * Word hashes in batches: token_hash of many words at once, those of 1
 * to 16 bytes eight at a time with AVX2, for the portable word scanner
 * (wordscan.c) where the processor has AVX2 (cpu_usable() & CPU_AVX2) and
 * not the AVX-512 of wordvec.c.
 * A word is queued as its first and last 8 bytes and its length; the
 * rare one of over 16 bytes is hashed as it is queued.
 */
#ifndef WORDHASH_H
#define WORDHASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "byteorder.h"
#include "token.h"

#define WORDHASH_MAX	512	/* words in a batch */

struct wordhash {
	uint64_t first[WORDHASH_MAX];	/* little-endian: byte 0 the low */
	uint64_t last[WORDHASH_MAX];
	/* Lengths, and room to read the last ones 8 at a time. */
	unsigned char len[WORDHASH_MAX + 8];
	/* The words of over 16 bytes, by their place, with their hashes. */
	uint32_t hugei[WORDHASH_MAX];
	uint64_t hugeh[WORDHASH_MAX];
	size_t	 nhuge;
};

/*
 * Queue word i of the batch w (the one after the last queued): len bytes
 * (1 to 255) at p, with 8 bytes readable before it and after it.  Only
 * the rare word of over 16 bytes takes a branch; those of 9 to 16 are
 * found by their lengths when the batch is hashed.
 */
static inline void
wordhash_add(struct wordhash *w, size_t i, const unsigned char *p,
    unsigned len, uint64_t seed)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
	w->first[i] = le64(x);
	memcpy(&x, p + len - 8, sizeof(x));
	w->last[i] = le64(x);
	w->len[i] = (unsigned char)len;
	if (len > 16) {
		w->hugei[w->nhuge] = (uint32_t)i;
		w->hugeh[w->nhuge++] = token_hash(p, len, seed);
	}
}

/*
 * h[i] = xxh_le64_lin(token_hash of word i), the item the word scanner
 * rolls (xxh.h), for the n words queued in w; empties w.
 * Only where the processor has AVX2.
 */
void	wordhash_avx2(struct wordhash *w, size_t n, uint64_t seed,
	    uint64_t *h);

#endif
