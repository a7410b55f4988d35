/*
 * The n-gram window of item hashes, kept as the XOR of rotated hashes
 * rotl(t_1, n-1) ^ ... ^ t_n so that it rolls in O(1) per item: rotate the
 * whole by one, XOR out the item that leaves (now rotated by n), XOR in the
 * new one.  Shared by the shingler and the block scanner, which keeps the
 * state in registers.
 */
#ifndef WINDOW_H
#define WINDOW_H

#include <stdint.h>

static inline uint64_t
window_rotl(uint64_t x, unsigned r)
{
	return (x << (r & 63)) | (x >> (-r & 63));
}

static inline uint64_t
window_rotr(uint64_t x, unsigned r)
{
	return (x >> (r & 63)) | (x << (-r & 63));
}

/*
 * Slide the window (win[n], the slot *pos to fill next, *seen items so far)
 * by item hash t.  Each slot holds its item already rotated by n, the way
 * it leaves the window n items later, and 0 until then (a new document's
 * window is all zeros), so that sliding has no branch.  Returns 1 when
 * *roll is a full n-gram.
 */
static inline int
window_slide(uint64_t *roll, uint64_t *seen, unsigned *pos, uint64_t *win,
    unsigned n, uint64_t t)
{
	*roll = window_rotl(*roll, 1) ^ t ^ win[*pos];
	win[*pos] = window_rotl(t, n);
	if (++*pos == n)
		*pos = 0;
	return ++*seen >= n;
}

/*
 * Batches: a scanner that hashes many items before it rolls them keeps the
 * window as its n newest item hashes, oldest first, 0 for those not yet
 * seen (the rotations undone), and makes the n-grams of a batch with
 * window_gram, in a loop without a carried dependency.
 */
static inline void
window_get(const uint64_t *win, unsigned pos, unsigned n, uint64_t *h)
{
	unsigned i;

	/* Slot pos is the oldest: no division, as a scanner is often begun. */
	for (i = pos; i < n; i++)
		*h++ = window_rotr(win[i], n);
	for (i = 0; i < pos; i++)
		*h++ = window_rotr(win[i], n);
}

/* Set the window (and its roll) to the n newest item hashes h[0 .. n). */
static inline void
window_put(uint64_t *roll, unsigned *pos, uint64_t *win, unsigned n,
    const uint64_t *h)
{
	uint64_t r = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		win[i] = window_rotl(h[i], n);
		r ^= window_rotl(h[i], n - 1 - i);
	}
	*roll = r;
	*pos = 0;
}

/*
 * The roll window_slide gives for item h[0], whose n - 1 predecessors are
 * h[-n + 1 .. 0): the XOR of rotl(h[-i], i) for i < n.  Rolls computed
 * this way depend on no other, so a batch of them is a loop that
 * compilers vectorize (wordscan.c).
 */
static inline __attribute__((always_inline)) uint64_t
window_gram(const uint64_t *h, unsigned n)
{
	uint64_t x = h[0];
	unsigned i;

#pragma GCC unroll 8
	for (i = 1; i < n; i++)
		x ^= window_rotl(h[-(long)i], i);
	return x;
}

#endif
