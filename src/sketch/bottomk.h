/*
 * Bottom-k sketches (Broder's MIN_s): the k smallest distinct 64-bit
 * shingle hashes under one hash function.  They estimate resemblance from
 * the k smallest of the union, and containment as well.  The "key" scheme
 * of "Simple Simhashing" is the XOR of the n smallest: two documents get
 * the same key with probability about J^n.
 */
#ifndef BOTTOMK_H
#define BOTTOMK_H

#include <stddef.h>
#include <stdint.h>

#define BOTTOMK_EMPTY UINT64_MAX	/* an unused slot */

struct bottomk {
	unsigned k;
	unsigned n;		/* values held, at most k */
	uint64_t *v;		/* ascending */
};

void	bottomk_init(struct bottomk *, unsigned k);
void	bottomk_reset(struct bottomk *);
void	bottomk_add(struct bottomk *, const uint64_t *h, size_t n);

/* The k values ascending, unused slots BOTTOMK_EMPTY. */
void	bottomk_final(const struct bottomk *, uint64_t *out);

/* XOR of the values held: the "key" fingerprint. */
uint64_t bottomk_key(const struct bottomk *);
void	bottomk_free(struct bottomk *);

/*
 * Estimates from two sketches of k slots (as printed): resemblance from the
 * k smallest of the union, and containment of a in b from the values of a
 * that are below b's largest.
 */
double	bottomk_jaccard(const uint64_t *a, const uint64_t *b, size_t k);
double	bottomk_containment(const uint64_t *a, const uint64_t *b, size_t k);

#endif
