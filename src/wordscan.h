/*
 * The block scanner: words of plain ASCII found 64 bytes at a time with
 * SSE2 bitmaps, their hashes through a small cache.  Where SSE2 is missing
 * (or with -DNEARDUP_SCALAR, to check that both agree) the shingler's
 * byte-at-a-time path does all the work, with the same results.
 */
#ifndef WORDSCAN_H
#define WORDSCAN_H

#if defined(__SSE2__) && !defined(NEARDUP_SCALAR)
#define WORDSCAN 1
#if defined(__x86_64__) && defined(__GNUC__)
#define WORDSCAN_AVX512 1	/* compiled in, used where the processor has it */
#endif
#endif

/*
 * Hot loops are compiled twice where GCC can pick at run time (ifunc): for
 * the processors of x86-64-v3 (BMI2's flag-free shifts and bit extraction)
 * and for any x86-64.  Both give the same results.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(NEARDUP_SCALAR) && !defined(__SANITIZE_ADDRESS__)
#define WORDSCAN_CLONES __attribute__((target_clones("arch=x86-64-v3", \
	    "default")))
/* And loops of 64-bit multiplies, for AVX-512 (x86-64-v4) too. */
#define WORDSCAN_CLONES_V4 __attribute__((target_clones("arch=x86-64-v4", \
	    "arch=x86-64-v3", "default"), optimize("tree-vectorize")))
#else
#define WORDSCAN_CLONES
#define WORDSCAN_CLONES_V4
#endif

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

/*
 * Has the processor the AVX-512 (F, BW, DQ, VL, VBMI, VBMI2) that
 * wordscan_ascii512 and charscan_ascii512 use, and is NEARDUP_NO_AVX512
 * unset?
 */
int	wordscan_avx512(void);

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
