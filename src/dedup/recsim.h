/*
 * Exact resemblance of short records, one against many: the current
 * record's distinct shingles are held in a set, and each record compared
 * with it is shingled from its text, or taken from a cache of the records
 * compared recently.  The cache is there because a common line is compared
 * again and again: a ring of shingle hashes and a direct-mapped index of
 * RECSIM_CACHE records into it, an entry being valid until the ring comes
 * round over its hashes.  The ring starts at RECSIM_RING_MIN hashes and
 * doubles, up to RECSIM_RING (32 MiB), when it has made too many lookups
 * miss by coming round over the records they sought, or when a record
 * would take more than a sixteenth of it; the index takes 2 MiB.  So it
 * is as large as the records compared again need, not as the input.
 * Nothing is allocated per record.
 *
 * Most records compared are far from resembling (on uniq's 5M lines at
 * t = 0.5, 94% of the candidates its bands give), and a mark of 16 bytes
 * a record rules them out without its shingles: which of RECSIM_CLASSES
 * classes its shingle hashes fall in, and how many there are.  A class
 * of one record that the other lacks holds at least one shingle that
 * the other lacks, so the classes give an upper bound on the shingles
 * the two share, and the resemblance that bound allows is an upper bound
 * on theirs.  A record of RECSIM_MANY shingles or more is marked by its
 * number alone, which bounds the resemblance by the two sizes.  A record
 * is ruled out only when the bound is below t: the marks never change an
 * answer.
 */
#ifndef RECSIM_H
#define RECSIM_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"
#include "shingle.h"

#define RECSIM_CACHE	131072
#define RECSIM_RING_MIN	(64 * 1024)	/* hashes in the ring at first */
#define RECSIM_RING	(4 * 1024 * 1024)	/* and at most */

/* Shingle hashes of one record. */
struct recsim_hashes {
	uint64_t *h;
	size_t	 n, cap;
};

/* A set of hashes emptied in O(1): a slot is in use if its stamp is gen. */
struct recsim_set {
	uint64_t *key;
	uint32_t *stamp;
	size_t	 cap;		/* a power of two */
	uint32_t gen;
	size_t	 n;		/* elements */
};

#define RECSIM_CLASSES	120	/* classes of shingle hash in a mark */
#define RECSIM_MANY	255	/* shingles of a record too large to class */

/*
 * A record's mark.  With fewer than RECSIM_MANY distinct shingles, the top
 * byte of w[1] is their number, and bit c of the 120 bits w[0] and w[1]
 * (low 56) is set if a shingle hash of the record falls in class c.  With
 * more, whose classes would all be set, the top byte is RECSIM_MANY and
 * w[0] their number: the mark bounds by sizes alone.
 */
struct recsim_mark {
	uint64_t w[2];
};

struct recsim_cached {
	uint32_t id;		/* UINT32_MAX: empty */
	uint32_t n;		/* distinct shingles */
	uint64_t pos;		/* where they start, in hashes written */
};

struct recsim {
	struct shingler sh;
	struct recsim_hashes tmp, *into;
	struct recsim_set *dset;	/* the sink keeps the distinct only */
	const uint64_t *held;	/* the record held: its shingles, */
	size_t	 nheld;
	struct recsim_mark heldmark;	/* its mark, */
	struct recsim_set a;	/* and their set, once a scan needs it */
	int	 inset;		/* a holds them */
	struct recsim_set b;
	struct recsim_cached *cache;
	uint64_t *ring;
	size_t	 ringcap;
	uint64_t written;	/* hashes ever written to the ring */
	/* Since it last grew: lookups, and those its laps made miss. */
	uint64_t looks, stale;
	uint64_t compared, cached;	/* counts for tests and tuning */
	/*
	 * For the threshold leastt, least[u] is the fewest shingles two
	 * classed records of u together must share to resemble at leastt.
	 */
	double	 leastt;
	uint16_t least[2 * RECSIM_MANY];
};

/* Set up for the shingling of sc (kind, length, normalization, seed). */
void	recsim_init(struct recsim *, const struct scheme *sc);

/* The distinct shingles of text[0..len) into v (emptied first). */
void	recsim_shingle(struct recsim *, const char *text, size_t len,
	    struct recsim_hashes *v);

/*
 * The distinct hashes of a record, met in batches: start with s emptied,
 * then append to v each hash of h[0..n) not met before since the start,
 * in order.  s grows with the distinct hashes, not with all of them, so a
 * record of 100 MB of repeated text takes memory for what is distinct.
 */
void	recsim_distinct_start(struct recsim_set *s);
void	recsim_distinct_add(struct recsim_set *s, const uint64_t *h, size_t n,
	    struct recsim_hashes *v);

/*
 * Remember the n distinct shingles h of record id, as recsim_similar
 * would find them from its text.
 */
void	recsim_remember(struct recsim *, uint32_t id, const uint64_t *h,
	    size_t n);

void	recsim_set_free(struct recsim_set *);

/*
 * Hold the n distinct shingle hashes h as the set compared with.  They are
 * read until the next hold, and put in a hash set only if a record is
 * compared with them, not when recsim_screen rules out all.
 */
void	recsim_hold(struct recsim *, const uint64_t *h, size_t n);

/* The same, given their mark m. */
void	recsim_hold_marked(struct recsim *, const uint64_t *h, size_t n,
	    const struct recsim_mark *m);

/* The mark of a record of n distinct shingles h. */
void	recsim_mark(struct recsim_mark *, const uint64_t *h, size_t n);

/*
 * Of the records ids[0..n), whose marks are marks[id], keep in ids, in
 * their order, those that could resemble the held set at t or more, as
 * far as the marks tell; returns how many.  A record ruled out does not
 * resemble it at t.
 */
size_t	recsim_screen(struct recsim *, const struct recsim_mark *marks,
	    uint32_t *ids, size_t n, double t);

/*
 * Is the record numbered id at resemblance t or more with the held set,
 * if its shingles are cached?  1 or 0, or -1 if they are not: then
 * recsim_similar, with its text.  A record compared lately, or
 * remembered, is cached as a rule.  Both must have shingles.  The number
 * names the text in the cache: a number must always go with the same
 * text.
 */
int	recsim_similar_cached(struct recsim *, uint32_t id, double t);

/*
 * The same from text[0..len), the text of record id, which is then cached:
 * for a record recsim_similar_cached does not have.
 */
int	recsim_similar(struct recsim *, uint32_t id, const char *text,
	    size_t len, double t);

void	recsim_free(struct recsim *);

/* A shingle_sink that appends to the struct recsim_hashes ctx. */
void	recsim_sink(void *ctx, const uint64_t *h, const double *w, size_t n);

/* Release the memory of v. */
void	recsim_hashes_free(struct recsim_hashes *v);

#endif
