/*
 * XXH3 inlined for the hot paths, with the length dispatch of the short
 * inputs that are almost all of our calls settled at compile time.  The
 * values are the library's (test_shingle compares them).
 */
#ifndef XXH_H
#define XXH_H

#include <stddef.h>
#include <stdint.h>

#include "byteorder.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* XXH3-64 of len bytes at p. */
static inline uint64_t
xxh_bytes(const void *p, size_t len, uint64_t seed)
{
	if (len <= 16)
		return XXH3_len_0to16_64b(p, len, XXH3_kSecret, seed);
	return XXH3_64bits_withSeed(p, len, seed);
}

/* XXH3-64 of the 8 little-endian bytes of x. */
static inline uint64_t
xxh_le64(uint64_t x, uint64_t seed)
{
	uint64_t le = le64(x);

	return XXH3_len_4to8_64b((const xxh_u8 *)&le, sizeof(le), XXH3_kSecret,
	    seed);
}

/*
 * xxh_le64 in parts, for loops that compilers vectorize.  XXH3's 4-to-8
 * byte path, written out for 8 bytes, first swaps their halves, XORs in a
 * value made from the seed and XORs in two rotations of the result: all
 * linear over GF(2), so that part is xxh_le64_lin(x) ^ xxh_le64_flip(seed)
 * (the seed's part made once).  What is left, xxh_le64_end, is the two
 * multiplies.  Being XORs of rotations, xxh_le64_lin commutes with
 * rotations and distributes over XOR: applied to item hashes before they
 * are rolled into n-grams (window.h), it is done once an item instead of
 * once an n-gram, or never, for items that come from a table.
 */
/* XXH3's rotations XORed in: h ^ rotl(h, 49) ^ rotl(h, 24). */
static inline uint64_t
xxh_le64_mix(uint64_t h)
{
	return h ^ ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40));
}

static inline uint64_t
xxh_le64_lin(uint64_t x)
{
	/* The first 4 bytes of the 8 are the low half of x. */
	return xxh_le64_mix((x << 32) | (x >> 32));
}

/*
 * The inverse of xxh_le64_lin.  Its rotations are the product 1 + e in
 * the ring GF(2)[t] / (t^64 + 1), e = t^24 + t^49 (and a rotation by 32);
 * e^64 = 0 there, so (1 + e)(1 + e^2)(1 + e^4) ... (1 + e^32) = 1, where
 * e^(2^k) = t^(24 * 2^k) + t^(49 * 2^k), exponents modulo 64.
 */
static inline uint64_t
xxh_le64_unlin(uint64_t h)
{
	unsigned k, a, b;

	for (k = 0; k < 6; k++) {
		a = (24u << k) & 63;
		b = (49u << k) & 63;
		h ^= ((h << a) | (h >> (-a & 63))) ^
		    ((h << b) | (h >> (-b & 63)));
	}
	return (h << 32) | (h >> 32);
}

static inline uint64_t
xxh_le64_flip(uint64_t seed)
{
	uint64_t f;

	seed ^= (uint64_t)XXH_swap32((uint32_t)seed) << 32;
	f = (XXH_readLE64(XXH3_kSecret + 8) ^
	    XXH_readLE64(XXH3_kSecret + 16)) - seed;
	return xxh_le64_mix(f);
}

static inline uint64_t
xxh_le64_end(uint64_t h)
{
	const uint64_t m = 0x9FB21C651E98DF25ULL;

	h *= m;
	h ^= (h >> 35) + 8;
	h *= m;
	return h ^ (h >> 28);
}

/* xxh_le64(x, seed), flip being xxh_le64_flip(seed). */
static inline uint64_t
xxh_le64_flipped(uint64_t x, uint64_t flip)
{
	return xxh_le64_end(xxh_le64_lin(x) ^ flip);
}

/* xxh_le64 of each of n values, in place. */
static inline void
xxh_le64_many(uint64_t *x, size_t n, uint64_t seed)
{
	uint64_t flip = xxh_le64_flip(seed);
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = xxh_le64_flipped(x[i], flip);
}

#endif
