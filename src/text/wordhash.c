/*
 * XXH3-64 of short words, eight at a time in the 64-bit lanes of a vector
 * (see wordhash.h), given as the scanner's items: mixed by xxh_le64_lin.
 * Every word is first hashed as one of up to 8 bytes, XXH3's mixes for 1
 * to 3 bytes (XXH64's avalanche) and 4 to 8 (rrmxmx) computed as one with
 * their constants chosen by lane; then the words of 9 to 16 bytes (a tenth
 * of those of source code and prose) are hashed again, eight at a time,
 * with the folded 128-bit product.  No branch on the data, where the
 * length dispatch of xxh_bytes, word by word, mispredicts.  The inputs of
 * all the mixes are in the word's first and last 8 bytes: 4 to 8 bytes
 * read the first four and the last four, 1 to 3 the first, the middle and
 * the last byte.
 *
 * The code is written in the vectors of eight 64-bit lanes that GCC and
 * clang provide, and compiled for AVX2, where each vector is two
 * registers and a 64-bit product is made of 32-bit ones.  test_shingle
 * checks it against the library, length by length.
 */
#include <string.h>

#include "byteorder.h"
#include "cpu.h"
#include "wordhash.h"
#include "xxh.h"

#ifdef CPU_AVX2_SCAN
#define T256 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

/*
 * The helpers take and return vectors of 64 bytes, which the compilers
 * note would pass differently with AVX-512; they are always inlined, and
 * no call passes one.
 */
#pragma GCC diagnostic ignored "-Wpsabi"

typedef uint64_t vec __attribute__((vector_size(64)));

/* The seed's parts of XXH3's short mixes. */
struct flips {
	uint64_t f13, f48, f1, f2;
};

INLINE vec
splat(uint64_t x)
{
	return (vec){ x, x, x, x, x, x, x, x };
}

INLINE vec
load(const uint64_t *p)
{
	vec v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* a where the lanes of m are all ones, else b. */
INLINE vec
pick(vec m, vec a, vec b)
{
	return (a & m) | (b & ~m);
}

INLINE vec
rotl(vec x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

/*
 * The 128-bit product of a and b, its halves XORed (XXH3_mul128_fold64),
 * from the four 32-bit products and the carry out of their middle column.
 */
INLINE vec
mul128_fold(vec a, vec b)
{
	const vec m32 = splat(0xffffffff);
	vec al = a & m32, ah = a >> 32, bl = b & m32, bh = b >> 32;
	vec ll = al * bl, hl = ah * bl, lh = al * bh, carry, hi;

	carry = ((ll >> 32) + (hl & m32) + (lh & m32)) >> 32;
	hi = ah * bh + carry + (hl >> 32) + (lh >> 32);
	return hi ^ (ll + ((hl + lh) << 32));
}

/*
 * XXH3-64 of eight words of 1 to 8 bytes: the mixes of 1 to 3 and of 4 to
 * 8 bytes as one, their constants chosen by lane.
 */
INLINE vec
hash_short(vec first, vec last, vec len, const struct flips *fl)
{
	const vec mx2 = splat(0x9FB21C651E98DF25ULL);
	const vec ff = splat(0xff);
	vec small, c, x;

	/*
	 * All ones where len < 4: the sign of len - 4 (GCC makes a compare of
	 * eight lanes lane by lane under AVX2).
	 */
	small = -((len - 4) >> 63);
	/* 1 to 3 bytes: last, length, first and middle, as XXH3 packs them. */
	c = (last >> 56) | (len << 8) | (first & ff) << 16 |
	    (first >> ((len >> 1) << 3) & ff) << 24;
	/* 4 to 8: the first four bytes high, the last four low. */
	x = pick(small, c ^ fl->f13, ((last >> 32) | (first << 32)) ^ fl->f48);
	/* x ^= x >> 33, or x ^= rotl(x, 49) ^ rotl(x, 24) */
	x ^= pick(small, x >> 33, rotl(x, 49) ^ rotl(x, 24));
	x *= pick(small, splat(XXH_PRIME64_2), mx2);
	/* x ^= x >> 29, or x ^= (x >> 35) + len */
	x ^= pick(small, x >> 29, (x >> 35) + len);
	x *= pick(small, splat(XXH_PRIME64_3), mx2);
	/* x ^= x >> 32, or x ^= x >> 28 */
	return x ^ pick(small, x >> 32, x >> 28);
}

/* xxh_le64_lin (xxh.h) of each lane: the item the scanner rolls. */
INLINE vec
lin(vec x)
{
	vec h = rotl(x, 32);

	return h ^ rotl(h, 49) ^ rotl(h, 24);
}

/* The bytes of each lane of x in reverse order. */
INLINE vec
bswap(vec x)
{
	x = (x & 0x00ff00ff00ff00ffULL) << 8 | (x >> 8 & 0x00ff00ff00ff00ffULL);
	x = (x & 0x0000ffff0000ffffULL) << 16 |
	    (x >> 16 & 0x0000ffff0000ffffULL);
	return x << 32 | x >> 32;
}

/* XXH3-64 of eight words of 9 to 16 bytes, then XXH3's avalanche. */
INLINE vec
hash_long(vec first, vec last, vec len, const struct flips *fl)
{
	vec y;

	first ^= fl->f1;
	last ^= fl->f2;
	y = len + bswap(first) + last + mul128_fold(first, last);
	y ^= y >> 37;
	y *= 0x165667919E3779F9ULL;
	return y ^ (y >> 32);
}

/* The lengths len[0 .. 8) in lanes. */
INLINE vec
lengths(const unsigned char *len)
{
	const vec at = { 0, 8, 16, 24, 32, 40, 48, 56 };
	uint64_t x;

	memcpy(&x, len, sizeof(x));
	return splat(le64(x)) >> at & 0xff;
}

/*
 * The words of over 8 bytes, found by their lengths eight at a time (a
 * byte's high bit set in big if it is 9 or more), and hashed eight at a
 * time, their hashes put in their places (the last group padded with
 * copies of the first word).
 */
INLINE void
hash_longs(const struct wordhash *w, size_t n, const struct flips *fl,
    uint64_t *h)
{
	const uint64_t ones = 0x0101010101010101ULL, high = ones << 7;
	uint32_t longi[WORDHASH_MAX];
	uint64_t f[8], l[8], ln[8], out[8], x, big;
	size_t i, j, k, nlong = 0;
	vec r;

	for (i = 0; i < n; i += 8) {
		memcpy(&x, w->len + i, sizeof(x));
		x = le64(x);
		big = (((x | high) - 9 * ones) | x) & high;
		if (n - i < 8)
			big &= ((uint64_t)1 << 8 * (n - i)) - 1;
		for (; big != 0; big &= big - 1)
			longi[nlong++] = (uint32_t)(i +
			    (size_t)__builtin_ctzll(big) / 8);
	}
	for (i = 0; i < nlong; i += 8) {
		for (j = 0; j < 8; j++) {
			k = longi[i + j < nlong ? i + j : i];
			f[j] = w->first[k];
			l[j] = w->last[k];
			ln[j] = w->len[k];
		}
		r = lin(hash_long(load(f), load(l), load(ln), fl));
		memcpy(out, &r, sizeof(out));
		for (j = 0; j < 8 && i + j < nlong; j++)
			h[longi[i + j]] = out[j];
	}
}

T256 void
wordhash_avx2(struct wordhash *w, size_t n, uint64_t seed, uint64_t *h)
{
	const unsigned char *k = XXH3_kSecret;
	struct flips fl;
	uint64_t out[8];
	vec r;
	size_t i;

	fl.f13 = (XXH_readLE32(k) ^ XXH_readLE32(k + 4)) + seed;
	fl.f48 = (XXH_readLE64(k + 8) ^ XXH_readLE64(k + 16)) - (seed ^
	    (uint64_t)XXH_swap32((uint32_t)seed) << 32);
	fl.f1 = (XXH_readLE64(k + 24) ^ XXH_readLE64(k + 32)) + seed;
	fl.f2 = (XXH_readLE64(k + 40) ^ XXH_readLE64(k + 48)) - seed;
	/* All as words of up to 8 bytes, the last vector into out. */
	for (i = 0; i < n; i += 8) {
		r = lin(hash_short(load(w->first + i), load(w->last + i),
		    lengths(w->len + i), &fl));
		memcpy(n - i >= 8 ? h + i : out, &r, sizeof(r));
	}
	if (n % 8 != 0)
		memcpy(h + n - n % 8, out, n % 8 * sizeof(*h));
	hash_longs(w, n, &fl, h);
	for (i = 0; i < w->nhuge; i++)
		h[w->hugei[i]] = xxh_le64_lin(w->hugeh[i]);
	w->nhuge = 0;
}
#else
typedef int wordhash_unused;	/* ISO C wants something here */
#endif
