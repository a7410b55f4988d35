/*
 * XXH3-64 of short words, four at a time in the 64-bit lanes of AVX2
 * (see wordhash.h).  Every word is first hashed as one of up to 8 bytes,
 * XXH3's mixes for 1 to 3 bytes (XXH64's avalanche) and 4 to 8 (rrmxmx)
 * computed as one with their constants chosen by lane; then the words of
 * 9 to 16 bytes (a tenth of those of source code and prose) are hashed
 * again, four at a time, with the folded 128-bit product.  No branch on
 * the data, where the length dispatch of xxh_bytes, word by word,
 * mispredicts.  AVX2 has no 64-bit multiply: the products are made of
 * 32-bit ones.  The inputs of all the mixes are in the word's first and
 * last 8 bytes: 4 to 8 bytes read the first four and the last four, 1 to
 * 3 the first, the middle and the last byte.  test_shingle checks the
 * results against the library's, length by length.
 */
#include <string.h>

#include "cpu.h"
#include "wordhash.h"
#include "xxh.h"

#ifdef CPU_AVX2_SCAN
#include <immintrin.h>

#define T256 __attribute__((target("avx2")))
#define INLINE256 static inline T256 __attribute__((always_inline))

/* The low 64 bits of x * m, m's high halves given as mh. */
INLINE256 __m256i
mul64(__m256i x, __m256i m, __m256i mh)
{
	__m256i cross;

	cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), m),
	    _mm256_mul_epu32(x, mh));
	return _mm256_add_epi64(_mm256_mul_epu32(x, m),
	    _mm256_slli_epi64(cross, 32));
}

/*
 * The 128-bit product of a and b, its halves XORed (XXH3_mul128_fold64):
 * the low half as mul64 makes it, the high one from the four 32-bit
 * products and the carry out of their middle column.
 */
INLINE256 __m256i
mul128_fold(__m256i a, __m256i b)
{
	const __m256i m32 = _mm256_set1_epi64x(0xffffffffLL);
	__m256i ah, bh, ll, hl, lh, carry, hi;

	ah = _mm256_srli_epi64(a, 32);
	bh = _mm256_srli_epi64(b, 32);
	ll = _mm256_mul_epu32(a, b);
	hl = _mm256_mul_epu32(ah, b);
	lh = _mm256_mul_epu32(a, bh);
	carry = _mm256_srli_epi64(_mm256_add_epi64(_mm256_srli_epi64(ll, 32),
	    _mm256_add_epi64(_mm256_and_si256(hl, m32),
	    _mm256_and_si256(lh, m32))), 32);
	hi = _mm256_add_epi64(_mm256_add_epi64(_mm256_mul_epu32(ah, bh),
	    carry), _mm256_add_epi64(_mm256_srli_epi64(hl, 32),
	    _mm256_srli_epi64(lh, 32)));
	return _mm256_xor_si256(hi, _mm256_add_epi64(ll,
	    _mm256_slli_epi64(_mm256_add_epi64(hl, lh), 32)));
}

/* The seed's parts of XXH3's short mixes, in lanes. */
struct flips {
	__m256i f13, f48, f1, f2;
};

/*
 * XXH3-64 of four words of 1 to 8 bytes: the mixes of 1 to 3 and of 4 to
 * 8 bytes as one, their constants chosen by lane.
 */
INLINE256 __m256i
hash_short(__m256i first, __m256i last, __m256i len, const struct flips *fl)
{
	const __m256i mx2 = _mm256_set1_epi64x((long long)0x9FB21C651E98DF25ULL);
	const __m256i p2 = _mm256_set1_epi64x((long long)XXH_PRIME64_2);
	const __m256i p3 = _mm256_set1_epi64x((long long)XXH_PRIME64_3);
	const __m256i ff = _mm256_set1_epi64x(0xff);
	__m256i small, x, y, m, c;

	small = _mm256_cmpgt_epi64(_mm256_set1_epi64x(4), len);
	/* 1 to 3 bytes: last, length, first and middle, as XXH3 packs them. */
	c = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi64(last, 56),
	    _mm256_slli_epi64(len, 8)), _mm256_or_si256(_mm256_slli_epi64(
	    _mm256_and_si256(first, ff), 16), _mm256_slli_epi64(
	    _mm256_and_si256(_mm256_srlv_epi64(first, _mm256_slli_epi64(
	    _mm256_srli_epi64(len, 1), 3)), ff), 24)));
	/* 4 to 8: the first four bytes high, the last four low. */
	x = _mm256_or_si256(_mm256_srli_epi64(last, 32),
	    _mm256_slli_epi64(first, 32));
	x = _mm256_blendv_epi8(_mm256_xor_si256(x, fl->f48),
	    _mm256_xor_si256(c, fl->f13), small);
	/* x ^= x >> 33, or x ^= rotl(x, 49) ^ rotl(x, 24) */
	y = _mm256_xor_si256(_mm256_or_si256(_mm256_slli_epi64(x, 49),
	    _mm256_srli_epi64(x, 15)), _mm256_or_si256(_mm256_slli_epi64(x,
	    24), _mm256_srli_epi64(x, 40)));
	x = _mm256_xor_si256(x, _mm256_blendv_epi8(y, _mm256_srli_epi64(x,
	    33), small));
	m = _mm256_blendv_epi8(mx2, p2, small);
	x = mul64(x, m, _mm256_srli_epi64(m, 32));
	/* x ^= x >> 29, or x ^= (x >> 35) + len */
	x = _mm256_xor_si256(x, _mm256_blendv_epi8(_mm256_add_epi64(
	    _mm256_srli_epi64(x, 35), len), _mm256_srli_epi64(x, 29), small));
	m = _mm256_blendv_epi8(mx2, p3, small);
	x = mul64(x, m, _mm256_srli_epi64(m, 32));
	/* x ^= x >> 32, or x ^= x >> 28 */
	return _mm256_xor_si256(x, _mm256_blendv_epi8(_mm256_srli_epi64(x,
	    28), _mm256_srli_epi64(x, 32), small));
}

/* XXH3-64 of four words of 9 to 16 bytes, then XXH3's avalanche. */
INLINE256 __m256i
hash_long(__m256i first, __m256i last, __m256i len, const struct flips *fl)
{
	const __m256i mx1 = _mm256_set1_epi64x((long long)0x165667919E3779F9ULL);
	const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fLL,
	    0x0001020304050607LL, 0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
	__m256i y;

	first = _mm256_xor_si256(first, fl->f1);
	last = _mm256_xor_si256(last, fl->f2);
	y = _mm256_add_epi64(_mm256_add_epi64(len, _mm256_shuffle_epi8(first,
	    bswap)), _mm256_add_epi64(last, mul128_fold(first, last)));
	y = _mm256_xor_si256(y, _mm256_srli_epi64(y, 37));
	y = mul64(y, mx1, _mm256_srli_epi64(mx1, 32));
	return _mm256_xor_si256(y, _mm256_srli_epi64(y, 32));
}

/* The lengths len[0 .. 4) in lanes. */
INLINE256 __m256i
lengths4(const unsigned char *len)
{
	uint32_t len4;

	memcpy(&len4, len, sizeof(len4));
	return _mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)len4));
}

/*
 * The words of over 8 bytes, found by their lengths 32 at a time, and
 * hashed four at a time, their hashes put in their places (the last group
 * padded with copies of the first word).
 */
INLINE256 void
hash_longs(const struct wordhash *w, size_t n, const struct flips *fl,
    uint64_t *h)
{
	const __m256i nine = _mm256_set1_epi8(9);
	uint32_t longi[WORDHASH_MAX];
	uint64_t out[4], m;
	size_t i, j, k[4], nlong = 0;
	__m256i l;

	for (i = 0; i < n; i += 32) {
		/* Unsigned: a length of 9 or more is its maximum with 9. */
		l = _mm256_loadu_si256((const __m256i *)(w->len + i));
		m = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
		    _mm256_max_epu8(l, nine), l)) &
		    (n - i >= 32 ? 0xffffffffu : (1u << (n - i)) - 1);
		for (; m != 0; m &= m - 1)
			longi[nlong++] = (uint32_t)(i +
			    (size_t)__builtin_ctzll(m));
	}
	for (i = 0; i < nlong; i += 4) {
		for (j = 0; j < 4; j++)
			k[j] = longi[i + j < nlong ? i + j : i];
		_mm256_storeu_si256((__m256i *)out, hash_long(
		    _mm256_set_epi64x((long long)w->first[k[3]],
		    (long long)w->first[k[2]], (long long)w->first[k[1]],
		    (long long)w->first[k[0]]),
		    _mm256_set_epi64x((long long)w->last[k[3]],
		    (long long)w->last[k[2]], (long long)w->last[k[1]],
		    (long long)w->last[k[0]]),
		    _mm256_set_epi64x(w->len[k[3]], w->len[k[2]],
		    w->len[k[1]], w->len[k[0]]), fl));
		for (j = 0; j < 4; j++)
			h[k[j]] = out[j];
	}
}

T256 void
wordhash_avx2(struct wordhash *w, size_t n, uint64_t seed, uint64_t *h)
{
	const unsigned char *k = XXH3_kSecret;
	struct flips fl;
	uint64_t out[4];
	size_t i;

	fl.f13 = _mm256_set1_epi64x((long long)((XXH_readLE32(k) ^
	    XXH_readLE32(k + 4)) + seed));
	fl.f48 = _mm256_set1_epi64x((long long)((XXH_readLE64(k + 8) ^
	    XXH_readLE64(k + 16)) - (seed ^
	    (uint64_t)XXH_swap32((uint32_t)seed) << 32)));
	fl.f1 = _mm256_set1_epi64x((long long)((XXH_readLE64(k + 24) ^
	    XXH_readLE64(k + 32)) + seed));
	fl.f2 = _mm256_set1_epi64x((long long)((XXH_readLE64(k + 40) ^
	    XXH_readLE64(k + 48)) - seed));
	/* All as words of up to 8 bytes, the last vector into out. */
	for (i = 0; i < n; i += 4)
		_mm256_storeu_si256((__m256i *)(n - i >= 4 ? h + i : out),
		    hash_short(_mm256_loadu_si256((const __m256i *)(w->first +
		    i)), _mm256_loadu_si256((const __m256i *)(w->last + i)),
		    lengths4(w->len + i), &fl));
	if (n % 4 != 0)
		memcpy(h + n - n % 4, out, n % 4 * sizeof(*h));
	hash_longs(w, n, &fl, h);
	for (i = 0; i < w->nhuge; i++)
		h[w->hugei[i]] = w->hugeh[i];
	w->nhuge = 0;
}
#else
typedef int wordhash_unused;	/* ISO C wants something here */
#endif
