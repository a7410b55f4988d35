/*
 * The index of neardup near (nearix.c): the fingerprint lines of its
 * first operand, searched by distance (simhash: Manku's permuted tables,
 * index.h) or by estimated resemblance (minhash, oph, bottomk: LSH
 * tables, lshindex.h), and the rows of the matches found.
 */
#ifndef NEARIX_H
#define NEARIX_H

#include <stddef.h>
#include <stdint.h>

#include "algo.h"
#include "cli.h"
#include "digest.h"
#include "fpset.h"
#include "index.h"
#include "lshindex.h"
#include "report.h"

/* How near searches a scheme's fingerprints (nearix_kind). */
#define NEAR_NONE	(-1)	/* not at all (key) */
#define NEAR_DISTANCE	0	/* within -d bits: simhash */
#define NEAR_RESEM	1	/* of estimated resemblance at least -t */

/* Room for nearix_schemes(). */
#define NEARIX_SCHEMES_MAX	(2 * ALGO_LIST_MAX + 64)

/* A run of near: the index, how it is searched, and the report. */
struct near {
	const struct cmd *cmd;
	struct report rep;
	int	 self;
	size_t	 limit;		/* -n, 0: all */
	unsigned d;
	int	 have_d;
	int	 mode;		/* NEAR_DISTANCE, NEAR_RESEM, or NEAR_NONE
				   until a scheme is met (no -d, no -t) */
	double	 t;
	int	 exact;		/* -n without -t: the n most similar of all */
	struct fpset ix;
	struct index index;	/* NEAR_DISTANCE */
	struct index_match *m;
	size_t	 mcap;
	struct lshindex lx;	/* NEAR_RESEM, unless --self */
	struct lshindex_match *lm;
	size_t	 lmcap;
	size_t	 printed;
	struct digest *dg;	/* --docs --jsonl: hashes the queries */
	int	 rval;
};

/* How near searches fingerprints of algorithm algo: NEAR_*. */
int	nearix_kind(int algo);

/*
 * What near searches, for a message: "simhash fingerprints by -d and
 * minhash, oph and bottomk ones by -t", into buf of size bytes
 * (NEARIX_SCHEMES_MAX is enough); returns buf.
 */
char	*nearix_schemes(char *buf, size_t size);

/*
 * Fingerprints of scheme sc from path ("--docs": the queries' documents)
 * are to be searched: their kind settles the mode if neither -d nor -t
 * did, and must agree with it; -d must fit their bits.  Exits 2 if not,
 * with path named.
 */
void	nearix_scheme(struct near *, const char *path,
	    const struct scheme *sc);

/*
 * Load the index from path and build its tables: 0, or -1 after a
 * warning if path cannot be read (r->ix is then freed).
 */
int	nearix_load(struct near *, const char *path);

/* The rows of the matches of query name, of values v. */
void	nearix_query(struct near *, const char *name, const uint64_t *v);

/*
 * One row: a, b and their distance (by -d) or estimated resemblance sim
 * (by -t).
 */
void	nearix_put(struct near *, const char *a, const char *b,
	    unsigned dist, double sim);

/* --header: the columns of the rows. */
void	nearix_header(struct near *);

void	nearix_free(struct near *);

#endif
