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
 * xxh_le64 in two parts, for loops that compilers vectorize: the part
 * that depends on the seed only, made once, and the rest, XXH3's 4-to-8
 * byte path written out for 8 bytes.
 */
static inline uint64_t
xxh_le64_flip(uint64_t seed)
{
	seed ^= (uint64_t)XXH_swap32((uint32_t)seed) << 32;
	return (XXH_readLE64(XXH3_kSecret + 8) ^
	    XXH_readLE64(XXH3_kSecret + 16)) - seed;
}

static inline uint64_t
xxh_le64_flipped(uint64_t x, uint64_t flip)
{
	const uint64_t m = 0x9FB21C651E98DF25ULL;
	uint64_t h;

	/* The first 4 bytes of the 8 are the low half of x. */
	h = ((x << 32) | (x >> 32)) ^ flip;
	h ^= ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40));
	h *= m;
	h ^= (h >> 35) + 8;
	h *= m;
	return h ^ (h >> 28);
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
