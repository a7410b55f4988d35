/*
 * A multimap from 64-bit hash keys to 32-bit ids, for the tables of
 * dedup.c: no pointers, growing smoothly, 6.4 to 8 bytes a slot.
 *
 * A key is kept as TAGMAP_PARTBITS + TAGMAP_HBITS of its bits: the top
 * ones choose one of TAGMAP_PARTS tables, the low TAGMAP_HBITS are its
 * tag.  So two keys that agree in those bits are one key; users check
 * what they find.  A table is an array of buckets, one cache line each,
 * with linear probing from bucket to bucket; a tag's home bucket is
 * tag * buckets / 2^TAGMAP_HBITS.  A small table's buckets are wide: 8
 * slots of the tag and the id.  Once a table has 2^(TAGMAP_HBITS - 16)
 * buckets or more, they are narrow: 10 slots of 16 bits of the tag and
 * the id, and 3 bits of how far past its home the element lies.  Those
 * 16 bits are the fraction that the home bucket's division leaves, and
 * with the home they give the whole tag back, exactly, when the table
 * grows (tagmap.c).  A narrow element lies at most TAGMAP_REACH - 1
 * buckets past its home; one that would go further goes to a wide table
 * beside, read after it, which holds almost none.
 *
 * Each table grows on its own, by half, when it is TAGMAP_LOAD full: the
 * slots are 53 to 80 percent full, 8 to 15 bytes per element when wide,
 * 8 to 12 when narrow.  The ids under a key come back in the order they
 * were added.
 *
 * A table larger than bgmin grows in the thread of a bgjob.h given to the
 * map: its elements are put into new memory there while the old table is
 * still read, and what is added to it meanwhile goes in a small side
 * table, which lookups read after it.  Tables due to grow queue up, each
 * with its side table, and are rebuilt one at a time; the map takes each
 * new table at its next addition once the job is done, side elements
 * added after, and waits for a job only when a side table would grow
 * past an eighth of its table or past what the new table can hold.  So
 * the thread that adds seldom waits on a growth or on the page faults of
 * new memory.  A table is held twice from the start of its rebuild until
 * the map takes the new one, and the last old table's memory is kept to
 * be used again by the next rebuild.
 */
#ifndef TAGMAP_H
#define TAGMAP_H

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bgjob.h"

#define TAGMAP_PARTBITS	6
#define TAGMAP_PARTS	(1 << TAGMAP_PARTBITS)
#define TAGMAP_HBITS	31	/* bits of a key's tag */
#define TAGMAP_BUCKET	8	/* slots of a wide bucket: a cache line */
#define TAGMAP_NBUCKET	10	/* of a narrow one */
#define TAGMAP_REACH	8	/* a narrow slot lies < this past home */
#define TAGMAP_LOAD	0.8
#define TAGMAP_NONE	UINT32_MAX	/* no id: not a valid one */

struct tagmap_bucket {
	uint32_t tag[TAGMAP_BUCKET];
	uint32_t id[TAGMAP_BUCKET];	/* id + 1, 0 if empty; from the first */
};

struct tagmap_nbucket {
	uint16_t tag[TAGMAP_NBUCKET];	/* the fraction of the home's */
	uint32_t past;		/* 3 bits a slot: buckets past its home */
	uint32_t id[TAGMAP_NBUCKET];	/* as in a wide one */
};

struct tagmap_part {
	void	*bk;		/* nb of tagmap_bucket or _nbucket */
	size_t	 nb;		/* buckets */
	size_t	 n;		/* elements in bk */
	size_t	 growat;	/* elements at which it grows */
	size_t	 mapped;	/* bytes mapped at bk */
	unsigned hbits;		/* of the tag */
	uint32_t mask;		/* of a key: its tag */
	uint64_t mul;		/* nb << (32 - hbits): a tag's home is the
				   high half of tag * mul */
	int	 narrow;	/* bk is of struct tagmap_nbucket */
	struct tagmap_part *over;	/* narrow: elements past the reach */
	struct tagmap_part *side;	/* while it grows: elements added */
};

/* A part being rebuilt larger in the job thread. */
struct tagmap_rebuild {
	struct bgjob_task task;
	struct tagmap *m;
	struct tagmap_part *p;	/* the part */
	struct tagmap_part to;	/* its new table, once the job is done */
};

struct tagmap {
	struct tagmap_part part[TAGMAP_PARTS];
	struct bgjob *bg;	/* rebuilds parts, or NULL: none */
	size_t	 bgmin;		/* bytes of a part rebuilt there */
	unsigned hbits;		/* bits of a key's tag */
	struct tagmap_rebuild rb[TAGMAP_PARTS];	/* by part */
	unsigned queue[TAGMAP_PARTS];	/* parts rebuilt, in the order given */
	size_t	 qhead, qlen;
	void *_Atomic spare;	/* an old table's memory, for the next */
	size_t	 sparelen;	/* the bytes last left there */
};

/* Where a lookup stands. */
struct tagmap_cursor {
	const struct tagmap_part *p;
	const struct tagmap_part *over;	/* read after the reach */
	const struct tagmap_part *side;	/* read after p, or NULL */
	size_t	 b;		/* bucket */
	unsigned past;		/* buckets from the home to b */
	unsigned match;		/* its slots yet to be returned */
	const uint32_t *id;	/* its ids + 1 */
	int	 last;		/* p ends here: 1 at an empty slot,
				   2 at the reach of a narrow p */
	uint32_t tag;		/* the key's tag */
	uint32_t ntag;		/* in a narrow p: the part kept */
};

/*
 * An empty map, whose large parts grow in the thread of bg (NULL: in the
 * caller's).  bg may be shared; the map adds and looks up from one thread
 * at a time.
 */
void	tagmap_init(struct tagmap *, struct bgjob *bg);

/*
 * The same with tags of hbits bits (16 < hbits <= 32), for tests: with
 * fewer, tables are narrow while small.
 */
void	tagmap_init_bits(struct tagmap *, struct bgjob *bg, unsigned hbits);

/*
 * Add id under key (ids under one key are kept in any number):
 * tagmap_add() below, which takes this call when a part is due to grow
 * or being rebuilt.
 */
void	tagmap_add_slow(struct tagmap *, uint64_t key, uint32_t id);

/* Put tag and id + 1 past the reach of narrow part p: in p->over. */
void	tagmap_place_over(struct tagmap_part *, uint32_t tag, uint32_t id1);

/* Ask for the memory a lookup of key will read first. */
void	tagmap_prefetch(const struct tagmap *, uint64_t key);

/*
 * After tagmap_prefetch(), once that memory is in: ask for the bucket
 * after the key's first if the lookup will go on there, the first being
 * full.
 */
void	tagmap_prefetch_next(const struct tagmap *, uint64_t key);

/* Bytes held, at most. */
size_t	tagmap_memory(const struct tagmap *);

/* Free the map, once its part being rebuilt is done; bg is not freed. */
void	tagmap_free(struct tagmap *);

/* The part and tag of a key. */
static inline const struct tagmap_part *
tagmap_part_of(const struct tagmap *m, uint64_t key)
{
	return &m->part[key >> (64 - TAGMAP_PARTBITS)];
}

static inline uint32_t
tagmap_tag(const struct tagmap_part *p, uint64_t key)
{
	return (uint32_t)key & p->mask;
}

/* The home bucket of a tag: the same for both kinds of bucket. */
static inline size_t
tagmap_home(const struct tagmap_part *p, uint32_t tag)
{
	return (size_t)((tag * p->mul) >> 32);
}

/* What a narrow bucket keeps of a tag: 16 bits of its home's fraction. */
static inline uint32_t
tagmap_ntag(const struct tagmap_part *p, uint32_t tag)
{
	return (uint32_t)((tag * p->mul) >> 16) & 0xffff;
}

static inline const struct tagmap_bucket *
tagmap_wide(const struct tagmap_part *p, size_t b)
{
	return (const struct tagmap_bucket *)p->bk + b;
}

static inline const struct tagmap_nbucket *
tagmap_narrow(const struct tagmap_part *p, size_t b)
{
	return (const struct tagmap_nbucket *)p->bk + b;
}

/* The slots of v, a wide bucket's tags or ids, that hold x, as bits. */
static inline unsigned
tagmap_slots_equal(const uint32_t *v, uint32_t x)
{
	unsigned m = 0;
#ifdef __SSE2__
	const __m128i *q = (const __m128i *)v;
	__m128i t = _mm_set1_epi32((int)x);

	m = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
	    _mm_loadu_si128(q), t))) |
	    (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
	    _mm_loadu_si128(q + 1), t))) << 4;
#else
	unsigned j;

	for (j = 0; j < TAGMAP_BUCKET; j++)
		m |= (unsigned)(v[j] == x) << j;
#endif
	return m;
}

/* The slots of a narrow bucket whose tag is x, as bits. */
static inline unsigned
tagmap_ntags_equal(const struct tagmap_nbucket *bk, uint32_t x)
{
	unsigned m = 0;
#ifdef __SSE2__
	__m128i t = _mm_set1_epi16((short)x),
	    a = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)bk->tag), t),
	    b = _mm_cmpeq_epi16(_mm_loadl_epi64((const __m128i *)
	    (bk->tag + 8)), t);

	m = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(a, b)) &
	    ((1u << TAGMAP_NBUCKET) - 1);
#else
	unsigned j;

	for (j = 0; j < TAGMAP_NBUCKET; j++)
		m |= (unsigned)(bk->tag[j] == x) << j;
#endif
	return m;
}

/* The free slots of a wide bucket, as bits: filled from the first. */
static inline unsigned
tagmap_free_slots(const struct tagmap_bucket *bk)
{
	return tagmap_slots_equal(bk->id, 0);
}

/* The same of a narrow bucket. */
static inline unsigned
tagmap_nfree_slots(const struct tagmap_nbucket *bk)
{
	unsigned m = 0;
#ifdef __SSE2__
	const __m128i *q = (const __m128i *)bk->id;
	__m128i z = _mm_setzero_si128(),
	    a = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadu_si128(q), z),
	    _mm_cmpeq_epi32(_mm_loadu_si128(q + 1), z)),
	    b = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadl_epi64(q + 2), z),
	    z);

	m = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(a, b)) &
	    ((1u << TAGMAP_NBUCKET) - 1);
#else
	unsigned j;

	for (j = 0; j < TAGMAP_NBUCKET; j++)
		m |= (unsigned)(bk->id[j] == 0) << j;
#endif
	return m;
}

/* How many buckets past its home slot j of a narrow bucket lies. */
static inline unsigned
tagmap_past(const struct tagmap_nbucket *bk, unsigned j)
{
	return (bk->past >> (3 * j)) & 7;
}

/*
 * The slots of bucket b of the cursor's table that hold its tag, as bits,
 * and whether the bucket ends the lookup: vector compares, no branch but
 * on a narrow bucket's matches, which are few.
 */
static inline __attribute__((always_inline)) void
tagmap_scan(struct tagmap_cursor *c)
{
	unsigned m, e, k, j;

	if (!c->p->narrow) {
		const struct tagmap_bucket *bk = tagmap_wide(c->p, c->b);

		m = tagmap_slots_equal(bk->tag, c->tag);
		e = tagmap_free_slots(bk);
		c->last = e != 0;
		c->id = bk->id;
	} else {
		const struct tagmap_nbucket *bk = tagmap_narrow(c->p, c->b);

		m = tagmap_ntags_equal(bk, c->ntag);
		e = tagmap_nfree_slots(bk);
		/* Those of another home, with the same fraction, are not. */
		for (k = m; k != 0; k &= k - 1) {
			j = (unsigned)__builtin_ctz(k);
			if (tagmap_past(bk, j) != c->past)
				m &= ~(1u << j);
		}
		c->last = e != 0 ? 1 : c->past == TAGMAP_REACH - 1 ? 2 : 0;
		c->id = bk->id;
	}
	c->match = e != 0 ? m & ((e & -e) - 1) : m;
}

/* Put tag and id (as stored: id + 1) in the first free slot of p. */
static inline __attribute__((always_inline)) void
tagmap_place(struct tagmap_part *p, uint32_t tag, uint32_t id1)
{
	size_t b = tagmap_home(p, tag);
	unsigned e, j, past;

	if (!p->narrow) {
		struct tagmap_bucket *bk = p->bk;

		while ((e = tagmap_free_slots(&bk[b])) == 0)
			if (++b == p->nb)
				b = 0;
		j = (unsigned)__builtin_ctz(e);
		bk[b].tag[j] = tag;
		bk[b].id[j] = id1;
	} else {
		struct tagmap_nbucket *bk = p->bk;

		for (past = 0; (e = tagmap_nfree_slots(&bk[b])) == 0; past++) {
			if (past == TAGMAP_REACH - 1) {
				tagmap_place_over(p, tag, id1);
				return;
			}
			if (++b == p->nb)
				b = 0;
		}
		j = (unsigned)__builtin_ctz(e);
		bk[b].tag[j] = (uint16_t)tagmap_ntag(p, tag);
		bk[b].past |= past << (3 * j);
		bk[b].id[j] = id1;
	}
	p->n++;
}

/*
 * Add id under key.  Inline, for the common case of a part that is not
 * due to grow and not being rebuilt, which is all a slot's placing.
 */
static inline __attribute__((always_inline)) void
tagmap_add(struct tagmap *m, uint64_t key, uint32_t id)
{
	struct tagmap_part *p = &m->part[key >> (64 - TAGMAP_PARTBITS)];

	if (m->qlen == 0 && p->side == NULL && p->n < p->growat)
		tagmap_place(p, tagmap_tag(p, key), id + 1);
	else
		tagmap_add_slow(m, key, id);
}

/* Start reading table p at the home of the cursor's tag. */
static inline __attribute__((always_inline)) void
tagmap_seek_part(struct tagmap_cursor *c, const struct tagmap_part *p)
{
	c->p = p;
	c->b = tagmap_home(p, c->tag);
	c->past = 0;
	c->ntag = p->narrow ? tagmap_ntag(p, c->tag) : 0;
	tagmap_scan(c);
}

/*
 * Start a lookup of key; tagmap_next() then gives its ids, until the next
 * tagmap_add(), which may free a side table the cursor reads.
 */
static inline __attribute__((always_inline)) void
tagmap_seek(const struct tagmap *m, uint64_t key, struct tagmap_cursor *c)
{
	const struct tagmap_part *p = tagmap_part_of(m, key);

	c->over = p->over;
	c->side = p->side;
	c->tag = tagmap_tag(p, key);
	tagmap_seek_part(c, p);
}

/*
 * Move the cursor on to the next bucket of its lookup, or the over or side
 * table it reads next, and scan it.
 */
void	tagmap_step(struct tagmap_cursor *);

/* The next id under the key of the cursor, or TAGMAP_NONE at the end. */
static inline __attribute__((always_inline)) uint32_t
tagmap_next(struct tagmap_cursor *c)
{
	unsigned j;

	while (c->match == 0) {
		/* Most lookups end in their first bucket. */
		if (c->last && c->side == NULL &&
		    (c->last == 1 || c->over == NULL))
			return TAGMAP_NONE;
		tagmap_step(c);
	}
	j = (unsigned)__builtin_ctz(c->match);
	c->match &= c->match - 1;
	return c->id[j] - 1;
}

#endif
