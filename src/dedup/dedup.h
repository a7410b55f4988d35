/*
 * An online index of near-duplicate records (uniq).  Records arrive in
 * order, and each is either kept, being the first of its kind, or found to
 * be a near-duplicate of a record kept before it: one whose shingle set
 * has an exact Jaccard resemblance of at least t with its own.  Of several
 * such kept records the earliest wins.
 *
 * Candidates come from LSH banding (lsh.h) over a k-hash minhash of b * r
 * values, (b, r) chosen for t with at most DEDUP_MAXB bands.  Each
 * candidate is confirmed by its exact resemblance, recomputed from the
 * kept record's text (recsim.h), so a reported duplicate always is one.
 * Most candidates are ruled out before that, and exactly, by their marks
 * (16 bytes a kept record, recsim.h), which show they cannot reach t.  A
 * duplicate is missed only when no band matches (at resemblance t + 0.1,
 * with probability below 1 - LSH_RECALL), or when each band it shares is
 * held by DEDUP_CHAINMAX earlier records already.  Byte-identical records
 * are found first, by a hash of the whole text.  A record without any
 * shingle (empty, or only punctuation under the default normalization)
 * has no resemblance to speak of: it is a duplicate only of the same
 * bytes.
 *
 * The work comes in three parts.  The index looks up the text of each
 * record of a batch first (dedup_look): a text met before needs no
 * sketch.  A sketcher (dedup_sketch) turns the other records into band
 * keys, a pure function of each record that may run in another thread.
 * Then the index adds the records in order (dedup_batch), alone.
 *
 * Memory per kept record, besides its text: 8 bytes of offset into the
 * text, 16 of its mark, and 10 to 15 bytes (tagmap.h: 8 to 12 once a
 * table passes 128 MiB) for each of its b band keys and for its text
 * hash.  That is at most 24 + 15 (b + 1)
 * bytes: 249 with the 14 bands chosen for t = 0.7, and no more at any t
 * since b <= DEDUP_MAXB; and, while a table grows, one of
 * its 64 parts twice.
 * The offsets and the text grow by doubling with realloc(3), whose unused
 * tail is not resident, but for the stretch of text about to be written,
 * at most a sixteenth of it, faulted in ahead (add_text() in dedup.c).
 * The text of each near-duplicate takes another 10 to 15 bytes in the
 * text table.  Besides: recent text hashes, up to 4 MiB, and the
 * cache of recsim.h, up to 34 MiB, as the records compared again need.
 */
#ifndef DEDUP_H
#define DEDUP_H

#include <stddef.h>
#include <stdint.h>

#include "bgjob.h"
#include "buf.h"
#include "lsh.h"
#include "minhash.h"
#include "prefault.h"
#include "recsim.h"
#include "record.h"
#include "scheme.h"
#include "shingle.h"
#include "tagmap.h"

#define DEDUP_K		128	/* most minhash values: b * r <= DEDUP_K */
#define DEDUP_MAXB	14	/* most bands: keeps memory within budget */
#define DEDUP_CHAINMAX	8	/* records held under one band key */
#define DEDUP_AHEAD	8	/* records whose table slots are asked for */
#define DEDUP_MET	256	/* over twice the candidates of a record */
#define DEDUP_RECENT_MIN (1 << 14)	/* text hashes dedup_look remembers */
#define DEDUP_RECENT	(1 << 20)	/* as records come, up to this many */

/* What dedup_add found. */
#define DEDUP_KEPT	1	/* a new record, kept as *id */
#define DEDUP_DUP	0	/* a near-duplicate of kept record *id */

/* A record, its sketch, and what the index found for it. */
struct dedup_item {
	const char *rec;
	size_t	 len;
	uint64_t xkey;		/* look: the hash of its text */
	uint32_t seen;		/* look: a kept record with its text, or */
	int	 same;		/*   (same 0) one its text duplicated */
	int	 repeat;	/* look: its text came before, not yet added */
	int	 sketched;	/* sketch: empty and the band keys are set */
	int	 shingled;	/* sketch: shoff and nsh are set */
	int	 empty;		/* no shingles, no band keys */
	int	 kept;		/* index: kept (1) or a near-duplicate (0) */
	uint32_t id;		/* index: its number, or that of the record */
	size_t	 shoff, nsh;	/* sketch: its distinct shingles in the store */
	struct recsim_mark mark;	/* sketch: their mark */
};

/* Turns records into sketches; one per thread. */
struct dedup_sketcher {
	struct scheme sc;
	struct lsh lsh;
	struct reckey key;
	struct shingler sh;
	struct minhash mh;	/* b * r values, rounded up to 8 */
	uint64_t *sig;
	struct recsim_hashes *store;	/* where the record's distinct
					   shingles go */
	struct recsim_set set;	/* for the distinct shingles */
};

/* Counts for tests and tuning. */
struct dedup_stats {
	uint64_t records;	/* records added */
	uint64_t exact;		/* byte-identical duplicates */
	uint64_t near;		/* duplicates confirmed by resemblance */
	uint64_t candidates;	/* distinct candidates met */
};

struct dedup {
	struct scheme sc;	/* minhash of b * r values */
	struct lsh lsh;
	double	 t;
	struct reckey key;	/* what of a record is compared (record.h) */

	int	 full[DEDUP_MAXB];	/* band key holds DEDUP_CHAINMAX */
	uint32_t cand[DEDUP_MAXB * DEDUP_CHAINMAX];	/* candidates */
	size_t	 ncand;
	/* The candidates met for this record: gen << 32 | id, by id. */
	uint64_t met[DEDUP_MET];
	uint64_t metgen;
	struct recsim rs;	/* exact resemblance */
	struct recsim_hashes hs;	/* the current record's shingles */
	uint32_t *recent;	/* text hashes looked up, by their low bits:
				   their high halves */
	size_t	 nrecent;	/* a power of two */
	uint64_t looked;	/* records looked up */
	struct dedup_sketcher one;	/* for dedup_add and stragglers */
	uint64_t *onekeys;
	struct recsim_hashes onesh;	/* their distinct shingles */

	/* Kept records, numbered from 0 in order. */
	size_t	 n, cap;
	struct buf text;	/* their bytes, back to back */
	size_t	 textask;	/* text length at which to ask for more */
	uint64_t *off;		/* record i is text[off[i], off[i + 1]) */
	struct recsim_mark *mark;	/* its mark (recsim.h) */
	struct tagmap exact;	/* hash of the text -> record */
	struct tagmap bands;	/* band key -> record */
	struct bgjob *bg;	/* grows the tables (tagmap.h) */
	struct prefault *pf;	/* faults in the text ahead, or NULL */

	struct dedup_stats st;
};

/*
 * Set up for threshold t (0 < t <= 1) and the shingling of sc (kind,
 * length, normalization, --multiset, seed; the algorithm and size are
 * ignored).  Of each record, what key says is compared (record_key()):
 * with REC_TSV, what follows its first tab, less what -f and -s skip.
 */
void	dedup_init(struct dedup *, const struct scheme *sc, double t,
	    const struct reckey *key);

/*
 * The bands and rows used for threshold t: lsh_choose() with DEDUP_K
 * values and at most DEDUP_MAXB bands.
 */
void	dedup_bands(struct lsh *, double t);

/*
 * Look up the texts of n records (the hash, and a kept record met with the
 * same text) before they are sketched, in the thread that owns d.
 */
void	dedup_look(struct dedup *, struct dedup_item *items, size_t n);

/* A sketcher for the records of d. */
void	dedup_sketcher_init(struct dedup_sketcher *, const struct dedup *d);

/*
 * Sketch the records whose text was not met before: their empty field and
 * lsh.b band keys each in keys (n * lsh.b of them, record by record).  The
 * distinct shingles of those, and of the records whose text was met as a
 * near-duplicate's, go in store (emptied first): the index uses them
 * rather than shingle the records again.
 */
void	dedup_sketch(struct dedup_sketcher *, struct dedup_item *items,
	    size_t n, uint64_t *keys, struct recsim_hashes *store);

void	dedup_sketcher_free(struct dedup_sketcher *);

/*
 * Add n looked-up records in order, setting their kept and id fields (and
 * sketching those that need it after all); keys and store are those the
 * sketcher filled.  Returns n, or the number added before one could not
 * be kept: the index keeps at most 2^32 - 2 records.
 */
size_t	dedup_batch(struct dedup *, struct dedup_item *items, size_t n,
	    uint64_t *keys, const struct recsim_hashes *store);

/*
 * Add one record: DEDUP_KEPT with *id its number if it is kept (its bytes
 * are copied), DEDUP_DUP with *id the earliest kept record it is a
 * near-duplicate of, or -1 if no more records can be kept.
 */
int	dedup_add(struct dedup *, const char *rec, size_t len, uint32_t *id);

/* The bytes of kept record id, and their number in *len. */
const char *dedup_record(const struct dedup *, uint32_t id, size_t *len);

/* Number of kept records. */
size_t	dedup_kept(const struct dedup *);

/*
 * Bytes the index holds for its kept records, their text excluded: the
 * offsets and shingle counts as far as they are used (their unused tail
 * is never touched), the tables whole.
 */
size_t	dedup_memory(const struct dedup *);

void	dedup_free(struct dedup *);

#endif
