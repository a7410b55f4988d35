/*
 * Resemblance search over minhash, oph and bottomk fingerprints: the
 * indexed fingerprints whose estimated resemblance to a query reaches a
 * threshold t, found as cluster finds candidates (cluster.h), and
 * confirmed by the estimate, as datasketch's MinHashLSH answers.
 *
 * The index holds sorted tables of keys, each key with the fingerprint it
 * came from: one of the hashes of whole fingerprints, so that copies (and
 * empty documents) always meet; then, for minhash and oph, one of each
 * LSH band's keys (lsh.h), or, for bottomk, one of each fingerprint's b
 * smallest hashes.  A query looks its own keys up in every table; the
 * fingerprints found are its candidates, and those whose estimate is at
 * least t are its matches.  The bands are chosen by cluster_bands() for a
 * candidate of resemblance t with probability LSH_RECALL, so a match can
 * be missed (rarely), but nothing below t is ever listed.
 *
 * The n most similar (lshindex_query() with exact set) are found exactly:
 * a minhash or oph fingerprint that shares no band with the query differs
 * from it in a value of every band, so its estimate is at most 1 - b/k;
 * when fewer than n candidates are above that bound, the query compares
 * itself with every fingerprint instead.  Bottom-k fingerprints give no
 * such bound unless all k hashes are indexed: the query then always
 * compares itself with every fingerprint.
 *
 * Memory: 12 bytes a fingerprint for each table, beyond the fingerprints.
 */
#ifndef LSHINDEX_H
#define LSHINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "lsh.h"
#include "scheme.h"

struct lshindex_table {
	uint64_t *key;		/* sorted */
	uint32_t *id;		/* along key */
	size_t	 n;
};

struct lshindex {
	struct scheme sc;
	const uint64_t *v;	/* n fingerprints (not owned) */
	size_t	 n, nv;
	struct lsh lsh;		/* minhash, oph: bands; bottomk: lsh.b */
	unsigned ntables;
	struct lshindex_table *t;
	double	 bound;		/* a fingerprint sharing no key is at most
				   this similar to the query */
	unsigned char *seen;	/* n: met by the query under way */
	uint32_t *cand;		/* the candidates of the query under way */
	size_t	 ncand, candcap;
};

struct lshindex_match {
	uint32_t id;
	double	 sim;		/* the estimated resemblance */
};

/*
 * Build the index of n fingerprints v of scheme sc (minhash, oph or
 * bottomk), which must outlive it, for threshold t.
 */
void	lshindex_build(struct lshindex *, const struct scheme *sc,
	    const uint64_t *v, size_t n, double t);

/*
 * The indexed fingerprints of estimated resemblance at least t to q (of
 * the index's scheme): into *out (grown as needed, *cap its size), most
 * similar first, ties in index order, at most limit of them if limit is
 * not 0.  With exact and a limit, they are the limit most similar of the
 * whole index (see above); otherwise those the bands find.  Returns their
 * number.
 */
size_t	lshindex_query(struct lshindex *, const uint64_t *q, double t,
	    size_t limit, int exact, struct lshindex_match **out, size_t *cap);

void	lshindex_free(struct lshindex *);

#endif
