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

#endif
