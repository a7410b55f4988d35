/*
 * The exact set-similarity self-join: every pair of n sets whose
 * resemblance (Jaccard) |A n B| / |A u B| is at least t, found by
 * prefix filtering, never by sampling, so that none is missed.
 *
 * Tokens are ranked by document frequency, rarest first (AllPairs,
 * Bayardo, Ma and Srikant 2007); sets are taken by size, each probing the
 * index of the prefixes of the smaller ones that the length filter lets
 * through, with PPJoin's positional filter (Xiao et al. 2008) on the
 * candidates, and the survivors are verified by a merge that stops as
 * soon as the overlap cannot be reached.  Mann, Augsten and Bouros (2016)
 * found that nothing costlier pays.  Identical sets are joined once, as
 * one set, and their pairs multiplied out.
 */
#ifndef ALLPAIRS_H
#define ALLPAIRS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Every pair a < b of the n sets with exact resemblance sim >= t, t in
 * (0, 1], handed to emit(ctx, a, b, sim) as it is found, in no set order.
 * Set i is the len[i] distinct hashes set[i][0 .. len[i]), in increasing
 * order; len[i] may be 0.  sim is (double)shared / (double)union, exactly
 * as similarity_exact() gives it, compared with t as it stands: a pair at
 * exactly t is found.  Two empty sets have resemblance 1, an empty set
 * and another 0.
 *
 * The memory it takes beyond the input is about *need bytes: 24 a hash
 * of the distinct sets (the sort that ranks the tokens, its peak), 64 a
 * set, 8 a hash of the largest set, and 512 KiB.  The figure is made
 * before the work starts; when it exceeds maxmem, allpairs_join returns
 * -1 with errno ENOMEM, having emitted nothing, and *need holds the
 * figure (or, if the 64 bytes a set alone exceed maxmem, a part of it
 * that does).  Otherwise it returns 0 with *need the figure.  On other
 * errors *need is 0: EINVAL, t is not in (0, 1] or a set is not
 * increasing; EOVERFLOW, the sets hold 2^32 - 1 hashes or more.
 */
int	allpairs_join(const uint64_t *const *set, const size_t *len,
	    uint32_t n, double t, size_t maxmem, size_t *need,
	    void (*emit)(void *ctx, uint32_t a, uint32_t b, double sim),
	    void *ctx);

#endif
