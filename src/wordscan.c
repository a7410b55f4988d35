/*
 * The block scanner (see wordscan.h).  Between words the text is read 64
 * bytes at a time: SSE2 compares turn a block into bitmaps of word bytes,
 * capitals and non-ASCII bytes, and the words are the runs of ones.  The
 * window state lives in locals here, where the compiler keeps it in
 * registers.
 */
#include <string.h>

#include "shingle.h"
#include "window.h"
#include "wordscan.h"
#include "xxh.h"

#ifdef WORDSCAN
#include <emmintrin.h>


/*
 * Bitmaps of 64 bytes at p: bytes that belong to words, ASCII capitals,
 * and non-ASCII bytes.  Also the 64 bytes with capitals folded, in low.
 */
static inline void
classify64(const unsigned char *p, int keeppunct, int fold, uint64_t *word,
    uint64_t *upper, uint64_t *high, unsigned char low[64])
{
	const __m128i k80 = _mm_set1_epi8((char)0x80);
	__m128i v, t, w, u;
	uint64_t mw = 0, mu = 0, mh = 0;
	unsigned i;

	for (i = 0; i < 4; i++) {
		v = _mm_loadu_si128((const __m128i *)(p + 16 * i));
		/* x in [lo, lo + n) as a signed compare, offset by 0x80. */
		u = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x80 - 'A')),
		    _mm_set1_epi8((char)(0x80 + 26)));
		if (keeppunct) {
			t = _mm_cmplt_epi8(_mm_add_epi8(v,
			    _mm_set1_epi8(0x80 - 9)), _mm_set1_epi8((char)(0x80 + 5)));
			t = _mm_or_si128(t, _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
			w = _mm_andnot_si128(t, _mm_cmpeq_epi8(v, v));
		} else {
			t = _mm_cmplt_epi8(_mm_add_epi8(v,
			    _mm_set1_epi8(0x80 - '0')), _mm_set1_epi8((char)(0x80 + 10)));
			w = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v,
			    _mm_set1_epi8(0x20)), _mm_set1_epi8(0x80 - 'a')),
			    _mm_set1_epi8((char)(0x80 + 26)));
			w = _mm_or_si128(w, t);
		}
		if (fold)
			v = _mm_or_si128(v, _mm_and_si128(u, _mm_set1_epi8(0x20)));
		_mm_storeu_si128((__m128i *)(low + 16 * i), v);
		mh |= (uint64_t)(unsigned)_mm_movemask_epi8(
		    _mm_and_si128(v, k80)) << (16 * i);
		mw |= (uint64_t)(unsigned)_mm_movemask_epi8(w) << (16 * i);
		mu |= (uint64_t)(unsigned)_mm_movemask_epi8(u) << (16 * i);
	}
	*word = mw & ~mh;
	*upper = mu;
	*high = mh;
}

/*
 * The hash of a word of len bytes at p, of which at least 8 are readable.
 * Words of up to 8 bytes go through a direct-mapped cache: text reuses a
 * small vocabulary, and a hit costs less than XXH3's length dispatch.
 */
static inline uint64_t
word_hash(struct shingler *s, const unsigned char *p, unsigned len)
{
	struct shingle_cached *c;
	uint64_t key;

	if (len > 8)
		return xxh_bytes(p, len, s->seed);
	memcpy(&key, p, sizeof(key));
	if (len < 8) {
		/* The top byte is free: it holds the length. */
		key &= ((uint64_t)1 << (8 * len)) - 1;
		key |= (uint64_t)len << 56;
	} else if ((key >> 56) < 8)
		return xxh_bytes(p, len, s->seed);	/* looks like a length */
	c = &s->cache[(key * 0x9E3779B97F4A7C15ULL) >> (64 - WORDSCAN_CACHE_BITS)];
	if (c->key == key)
		return c->hash;
	c->key = key;
	return c->hash = xxh_bytes(p, len, s->seed);
}

const unsigned char *
wordscan_ascii(struct shingler *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	unsigned char low[64 + 8] = { 0 };	/* + 8: word_hash reads 8 */
	uint64_t mw, mu, mh, st, en, carry, t;
	uint64_t roll = s->roll, seen = s->seen, *win = s->win;
	unsigned b, e, n = s->n, pos = s->pos;
	size_t nout = s->nout;

	for (; end - p >= 64; p += 64) {
		classify64(p, s->keeppunct, !s->keepcase, &mw, &mu, &mh, low);
		if (mh != 0) {
			*scalar_until = p + 64;
			break;
		}
		/*
		 * Word starts and last bytes, each word one bit of each.  A
		 * word that reaches the end of the block may go on: it is
		 * kept aside.  Walking the two masks by clearing their lowest
		 * bits keeps the loop's dependency chain one cycle long.
		 */
		st = mw & ~(mw << 1);
		en = mw & ~(mw >> 1);
		carry = 0;
		if (mw >> 63) {
			b = 63 - (unsigned)__builtin_clzll(st);
			carry = (uint64_t)1 << b;
			st &= ~carry;
			en &= ~((uint64_t)1 << 63);
		}
		for (; st != 0; st &= st - 1, en &= en - 1) {
			b = (unsigned)__builtin_ctzll(st);
			e = (unsigned)__builtin_ctzll(en) + 1;
			t = word_hash(s, low + b, e - b);
			if (window_slide(&roll, &seen, &pos, win, n, t)) {
				s->out[nout++] = roll;
				if (nout == SHINGLE_BATCH) {
					s->nout = nout;
					shingle_flush(s);
					nout = 0;
				}
			}
		}
		if (carry != 0) {
			/* The word goes on past the block. */
			b = (unsigned)__builtin_ctzll(carry);
			shingle_add_tok(s, low + b, 64 - b);
		}
		if (s->toklen > 0) {
			p += 64;
			break;
		}
	}
	s->roll = roll;
	s->seen = seen;
	s->pos = pos;
	s->nout = nout;
	return p;
}
#else
typedef int wordscan_unused;	/* ISO C wants something here */
#endif
