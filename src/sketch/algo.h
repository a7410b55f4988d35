/*
 * The table of algorithms.  Everything that differs from one sketch to
 * another is in its descriptor: the name in scheme strings, the sizes it
 * takes, how its values are printed, the sketch itself, its estimator,
 * and how cluster finds candidate pairs of its fingerprints.  Each
 * algorithm's file defines its descriptor; algo.c puts them in one table,
 * indexed by enum algo.  Adding a sketch is its file, its number below
 * and its row in algo.c.
 */
#ifndef ALGO_H
#define ALGO_H

#include <stddef.h>
#include <stdint.h>

#define ALGO_K_MAX	4096	/* most values of a sketch of k values */

struct estimate;
struct scheme;

/* The number of an algorithm, which the scheme holds. */
enum algo {
	ALGO_SIMHASH,
	ALGO_MINHASH,
	ALGO_BOTTOMK,
	ALGO_OPH,
	ALGO_KEY
};

/* How candidate pairs of an algorithm's fingerprints are found. */
enum cand_rule {
	CAND_BANDS,		/* LSH bands of the values (lsh.h), --lsh */
	CAND_SMALLEST,		/* sharing one of the b smallest values */
	CAND_HAMMING,		/* within -d bits, permuted tables (index.h) */
	CAND_EQUAL		/* equal fingerprints only */
};

/* What an algorithm's fingerprints say, and what they take. */
#define ALGO_RESEMBLANCE 0x01	/* its figure estimates resemblance (-t) */
#define ALGO_CONTAINMENT 0x02	/* it estimates containment as well */
#define ALGO_WEIGHTS	0x04	/* it takes shingle weights (--weights) */

struct algo_desc {
	const char *name;		/* in scheme strings and -a */
	unsigned defsize;		/* -k when not given */
	/* NULL if size (-k) is valid for the algorithm, else why not. */
	const char *(*check_size)(unsigned size);
	unsigned per_value;		/* units of size per value, 0: one
					   value whatever the size */
	unsigned digits;		/* hex digits of a value */
	unsigned flags;			/* ALGO_* */
	enum cand_rule cand;

	/*
	 * The sketch of one document after another, in statesize bytes of
	 * state: init for the scheme, reset for the next document, add a
	 * batch of n shingle hashes (with weights w, or NULL), final writes
	 * the values, free releases what init took.  add is called once a
	 * batch, never once a hash.
	 */
	size_t	 statesize;
	void	(*init)(void *, const struct scheme *);
	void	(*reset)(void *);
	void	(*add)(void *, const uint64_t *h, const double *w, size_t n);
	void	(*final)(void *, uint64_t *out);
	void	(*free)(void *);

	/*
	 * From two fingerprints of nv values: the scheme's figure (see
	 * similarity.h), and all its estimates into a zeroed estimate.
	 */
	double	(*similarity)(const struct scheme *, const uint64_t *a,
		    const uint64_t *b, size_t nv);
	void	(*estimate)(const struct scheme *, const uint64_t *a,
		    const uint64_t *b, size_t nv, struct estimate *);

	/* NULL if the nv parsed values can be a fingerprint, else why not. */
	const char *(*check_values)(const uint64_t *v, size_t nv);
};

extern const struct algo_desc simhash_algo, minhash_algo, bottomk_algo,
    oph_algo, key_algo;

/* The table, by enum algo: read it through algo_get(). */
extern const struct algo_desc *const algo_table[];

/*
 * The descriptor of an algorithm.  Inline: cluster asks for it for every
 * pair it compares.
 */
static inline const struct algo_desc *
algo_get(enum algo a)
{
	return algo_table[a];
}

/* The algorithm of a name, or -1 if none. */
int	 algo_lookup(const char *name);

/* How many algorithms there are: they are numbered from 0. */
size_t	 algo_count(void);

/*
 * The names of all algorithms, in their order, ", " between them, into
 * buf of size bytes (cut short if it is too small); returns buf.
 */
char	*algo_names(char *buf, size_t size);

/*
 * The names of the algorithms with all of flags (ALGO_*) and, unless
 * cand is -1, candidate rule cand, for a message: in the order of their
 * candidate rule, then of the table, each after pre ("-a " or ""), the
 * last two joined by conj ("and", "or"): "minhash and oph".  Into buf
 * of size bytes (ALGO_LIST_MAX is enough), cut short if it is too small;
 * returns buf.  So a message that names algorithms needs no edit for a
 * new one.
 */
#define ALGO_LIST_MAX	256
char	*algo_list(char *buf, size_t size, unsigned flags, int cand,
	    const char *pre, const char *conj);

/* check_size for algorithms of k values: 1 to ALGO_K_MAX. */
const char *algo_check_k(unsigned size);

#endif
