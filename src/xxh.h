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

#endif
