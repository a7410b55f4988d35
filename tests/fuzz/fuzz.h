/*
 * What the fuzz targets share: libFuzzer's entry points, a check that turns
 * a broken invariant into a crash (so that libFuzzer keeps the input), and
 * a reader of option bytes from the front of an input.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
int	LLVMFuzzerInitialize(int *, char ***);

#define FUZZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,	\
		    __LINE__, #cond);					\
		abort();						\
	}								\
} while (0)

/* The input, read from the front. */
struct fuzz_in {
	const uint8_t *p;
	size_t	 n;
};

/* The next byte of the input, or 0 once it is used up. */
static inline unsigned
fuzz_byte(struct fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

/*
 * Where to cut a document of len bytes into blocks: a small generator
 * (splitmix64) seeded from the input, so that a crash reproduces.  Blocks
 * are mostly short, to cross every kind of boundary, sometimes long.
 */
static inline size_t
fuzz_block(uint64_t *state, size_t left)
{
	uint64_t z;
	size_t n;

	z = (*state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	n = (z & 0x100) ? (size_t)(z >> 32) % 200 : (size_t)(z >> 32) % 8;
	n++;
	return n < left ? n : left;
}

#endif
