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
	r &= 63;
	return r ? (x << r) | (x >> (64 - r)) : x;
}

/*
 * Slide the window (win[n], the slot *pos to fill next, *seen items so far)
 * by item hash t.  Returns 1 when *roll is a full n-gram.
 */
static inline int
window_slide(uint64_t *roll, uint64_t *seen, unsigned *pos, uint64_t *win,
    unsigned n, uint64_t t)
{
	uint64_t r = window_rotl(*roll, 1) ^ t;

	if (*seen >= n)
		r ^= window_rotl(win[*pos], n);
	*roll = r;
	win[*pos] = t;
	if (++*pos == n)
		*pos = 0;
	return ++*seen >= n;
}

#endif
