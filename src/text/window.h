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
 * window_grams, a loop without a carried dependency.
 */
static inline void
window_get(const uint64_t *win, unsigned pos, unsigned n, uint64_t *h)
{
	unsigned i;

	for (i = 0; i < n; i++)
		h[i] = window_rotr(win[(pos + i) % n], n);
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

/* window_grams for a constant n: one pass, the n loads of an n-gram unrolled. */
static inline __attribute__((always_inline)) void
window_grams_n(const uint64_t *h, size_t m, unsigned n, uint64_t *out)
{
	uint64_t x;
	size_t k;
	unsigned i;

	for (k = 0; k < m; k++) {
		x = h[k];
#pragma GCC unroll 8
		for (i = 1; i < n; i++)
			x ^= window_rotl((h - i)[k], i);
		out[k] = x;
	}
}

/*
 * The rolls window_slide gives for the m items h[0 .. m), whose n - 1
 * predecessors are h[-n + 1 .. 0): out[k] is the XOR of rotl(h[k - i], i)
 * for i < n.  No iteration depends on another, so the compiler vectorizes
 * them; the usual n have a loop each, inlined into the caller's clones.
 */
static inline __attribute__((always_inline)) void
window_grams(const uint64_t *h, size_t m, unsigned n, uint64_t *out)
{
	size_t k;
	unsigned i;

	switch (n) {
	case 1: window_grams_n(h, m, 1, out); return;
	case 2: window_grams_n(h, m, 2, out); return;
	case 3: window_grams_n(h, m, 3, out); return;
	case 4: window_grams_n(h, m, 4, out); return;
	case 5: window_grams_n(h, m, 5, out); return;
	case 6: window_grams_n(h, m, 6, out); return;
	case 7: window_grams_n(h, m, 7, out); return;
	case 8: window_grams_n(h, m, 8, out); return;
	}
	for (k = 0; k < m; k++)
		out[k] = h[k];
	for (i = 1; i < n; i++)
		for (k = 0; k < m; k++)
			out[k] ^= window_rotl((h - i)[k], i);
}

#endif
