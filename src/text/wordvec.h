/*
 * The AVX-512 block scanners (see scan.h): wordscan_words and
 * wordscan_chars eight items at a time, with the same results bit for
 * bit: the words where cpu_usable has CPU_AVX512_WORDS (cpu.h), the
 * characters where it has CPU_AVX512_TEXT, as s->avx512 says.
 */
#ifndef WORDVEC_H
#define WORDVEC_H

#include "cpu.h"
#include "scan.h"
#include "wordscan.h"

/* Set up s's tables (vctl, vkey) for its seed. */
void	wordvec_init(struct scan *s);

/*
 * As wordscan_words and wordscan_chars; besides, out[0 .. s->nout) must
 * be finished (s->nfin == s->nout), and the n-grams these queue are.
 */
const unsigned char *wordvec_words(struct scan *s, const unsigned char *p,
	    const unsigned char *end, const unsigned char **scalar_until);
const unsigned char *wordvec_chars(struct scan *s, const unsigned char *p,
	    const unsigned char *end, const unsigned char **scalar_until);

/*
 * The word and character scanners s runs, as s->avx512 says: these where
 * the processor has them, else wordscan_words and wordscan_chars.
 */
static inline const unsigned char *
blockscan_words(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
#ifdef CPU_AVX512_SCAN
	if (s->avx512)
		return wordvec_words(s, p, end, scalar_until);
#endif
	return wordscan_words(s, p, end, scalar_until);
}

static inline const unsigned char *
blockscan_chars(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
#ifdef CPU_AVX512_SCAN
	if (s->avx512 == 2)		/* with VBMI2 */
		return wordvec_chars(s, p, end, scalar_until);
#endif
	return wordscan_chars(s, p, end, scalar_until);
}

#endif
