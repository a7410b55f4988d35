/*
 * Unit tests of src/lib/byteorder.h and the XXH3 wrappers of src/lib/xxh.h: le64
 * and le32 lay integers out little-endian in memory on any host, and
 * xxh_le64 and xxh_le64_many are XXH3 of those 8 bytes.  These are what
 * make fingerprints the same on every machine, so `make check-s390x` runs
 * them on a big-endian host too; there NEARDUP_EXPECT_ORDER=big makes
 * test_host_order fail unless the test really ran big-endian.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "byteorder.h"
#include "unit.h"
#include "xxh.h"

/* The byte order of this host, "big" or "little", found at run time. */
static const char *
host_order(void)
{
	const uint32_t one = 1;
	unsigned char b[sizeof(one)];

	memcpy(b, &one, sizeof(one));
	return b[0] == 1 ? "little" : "big";
}

/* The host's order agrees with the compiler's; and with the one expected. */
static void
test_host_order(void)
{
	const char *want = getenv("NEARDUP_EXPECT_ORDER");
	const char *order = host_order();

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	CHECK(strcmp(order, "big") == 0, "built big-endian, runs %s-endian",
	    order);
#else
	CHECK(strcmp(order, "little") == 0,
	    "built little-endian, runs %s-endian", order);
#endif
	if (want != NULL && *want != '\0')
		CHECK(strcmp(order, want) == 0,
		    "NEARDUP_EXPECT_ORDER=%s, but this host is %s-endian",
		    want, order);
}

/* le64 and le32 store the least significant byte first. */
static void
test_le_bytes(void)
{
	static const unsigned char want64[8] = {
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01
	};
	static const unsigned char want32[4] = { 0x04, 0x03, 0x02, 0x01 };
	uint64_t x = le64(0x0102030405060708ULL);
	uint32_t y = le32(0x01020304U);

	CHECK(memcmp(&x, want64, sizeof(want64)) == 0,
	    "le64 bytes are not little-endian");
	CHECK(memcmp(&y, want32, sizeof(want32)) == 0,
	    "le32 bytes are not little-endian");
	CHECK(le64(le64(0x0102030405060708ULL)) == 0x0102030405060708ULL,
	    "le64 is not its own inverse");
}

/*
 * xxh_le64 and xxh_le64_many equal the library's XXH3 of the 8 bytes
 * written out by hand, least significant first, whatever the host.
 */
static void
test_xxh_le64(void)
{
	uint64_t st = 0x627974656F726465ULL;
	uint64_t v[37], x, seed;
	unsigned char b[8];
	size_t i, j;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		v[i] = splitmix64(&st);
	v[0] = 0;
	v[1] = UINT64_MAX;
	for (seed = 0; seed < 3; seed++) {
		uint64_t many[sizeof(v) / sizeof(v[0])];

		memcpy(many, v, sizeof(v));
		xxh_le64_many(many, sizeof(v) / sizeof(v[0]), seed);
		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			x = v[i];
			for (j = 0; j < 8; j++)
				b[j] = (unsigned char)(x >> (8 * j));
			if (!CHECK(xxh_le64(x, seed) ==
			    XXH3_64bits_withSeed(b, 8, seed),
			    "xxh_le64(%016llx, %llu) is not XXH3 of its LE bytes",
			    (unsigned long long)x, (unsigned long long)seed))
				return;
			if (!CHECK(many[i] == XXH3_64bits_withSeed(b, 8, seed),
			    "xxh_le64_many differs at %zu, seed %llu", i,
			    (unsigned long long)seed))
				return;
		}
	}
}

static uint64_t
rotl64(uint64_t x, unsigned r)
{
	return (x << (r & 63)) | (x >> (-r & 63));
}

/*
 * xxh_le64 in parts (xxh.h): the linear part and the seed's, then the
 * multiplies, make XXH3 of the 8 bytes; xxh_le64_unlin undoes
 * xxh_le64_lin both ways; and xxh_le64_lin commutes with rotations and
 * distributes over XOR, which the character scanner relies on when it
 * rolls n-grams of items already mixed.
 */
static void
test_xxh_le64_lin(void)
{
	uint64_t st = 0x6C696E6561726974ULL, x, y, seed;
	unsigned char b[8];
	unsigned i, j, r;

	for (i = 0; i < 2000; i++) {
		x = i < 64 ? (uint64_t)1 << i : splitmix64(&st);
		y = splitmix64(&st);
		seed = i % 3 == 0 ? 0 : splitmix64(&st);
		for (j = 0; j < 8; j++)
			b[j] = (unsigned char)(x >> (8 * j));
		if (!CHECK(xxh_le64_end(xxh_le64_lin(x) ^
		    xxh_le64_flip(seed)) == XXH3_64bits_withSeed(b, 8, seed),
		    "xxh_le64 in parts of %016llx is not XXH3",
		    (unsigned long long)x))
			return;
		if (!CHECK(xxh_le64_unlin(xxh_le64_lin(x)) == x &&
		    xxh_le64_lin(xxh_le64_unlin(x)) == x,
		    "xxh_le64_unlin does not undo xxh_le64_lin of %016llx",
		    (unsigned long long)x))
			return;
		r = i % 63 + 1;
		if (!CHECK(xxh_le64_lin(x ^ y) == (xxh_le64_lin(x) ^
		    xxh_le64_lin(y)) && xxh_le64_lin(rotl64(x, r)) ==
		    rotl64(xxh_le64_lin(x), r),
		    "xxh_le64_lin is not linear, or not rotation-invariant "
		    "(by %u), at %016llx", r, (unsigned long long)x))
			return;
	}
}

/*
 * Known values, computed with libxxhash on amd64: a change of XXH3 itself,
 * or a library that is wrong on this host, shows here.
 */
static void
test_xxh_known(void)
{
	static const unsigned char b[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	CHECK(xxh_le64(0x0807060504030201ULL, 0) == 0x16f217ea16232297ULL,
	    "xxh_le64(0x0807060504030201, 0) is %016llx",
	    (unsigned long long)xxh_le64(0x0807060504030201ULL, 0));
	CHECK(xxh_bytes(b, sizeof(b), 7) == 0xfce7054959e6d413ULL,
	    "xxh_bytes(1..8, seed 7) is %016llx",
	    (unsigned long long)xxh_bytes(b, sizeof(b), 7));
	CHECK(XXH3_64bits_withSeed(b, sizeof(b), 7) == 0xfce7054959e6d413ULL,
	    "the library's XXH3 of bytes 1..8, seed 7, is %016llx",
	    (unsigned long long)XXH3_64bits_withSeed(b, sizeof(b), 7));
}

int
main(void)
{
	RUN(test_host_order);
	RUN(test_le_bytes);
	RUN(test_xxh_le64);
	RUN(test_xxh_le64_lin);
	RUN(test_xxh_known);
	return unit_status();
}
