/*
 * A multimap from 64-bit hash keys to 32-bit ids, for the tables of
 * dedup.c: 8 bytes a slot, no pointers, growing smoothly.
 *
 * A key is kept as 38 of its bits: the top TAGMAP_PARTBITS choose one of
 * TAGMAP_PARTS tables, the low 32 are stored as the slot's tag.  So two
 * keys that agree in those bits are one key; users check what they find.
 * A table is an array of buckets of TAGMAP_BUCKET slots, one cache line
 * each, with linear probing from bucket to bucket.  Each table grows on
 * its own, by half, when it is TAGMAP_LOAD full: the slots are 53 to 80
 * percent full, 10 to 15 bytes per element.  The ids under a key come
 * back in the order they were added.
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
#define TAGMAP_BUCKET	8	/* slots of a bucket: a cache line */
#define TAGMAP_LOAD	0.8
#define TAGMAP_NONE	UINT32_MAX	/* no id: not a valid one */

struct tagmap_bucket {
	uint32_t tag[TAGMAP_BUCKET];
	uint32_t id[TAGMAP_BUCKET];	/* id + 1, 0 if empty; from the first */
};

struct tagmap_part {
	struct tagmap_bucket *bk;
	size_t	 nb;		/* buckets */
	size_t	 n;		/* elements */
	size_t	 growat;	/* elements at which it grows */
	size_t	 mapped;	/* bytes mapped at bk */
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
	struct tagmap_rebuild rb[TAGMAP_PARTS];	/* by part */
	unsigned queue[TAGMAP_PARTS];	/* parts rebuilt, in the order given */
	size_t	 qhead, qlen;
	void *_Atomic spare;	/* an old table's memory, for the next */
	size_t	 sparelen;	/* the bytes last left there */
};

/* Where a lookup stands. */
struct tagmap_cursor {
	const struct tagmap_part *p;
	const struct tagmap_part *side;	/* read after p, or NULL */
	size_t	 b;		/* bucket */
	unsigned match;		/* its slots yet to be returned */
	int	 last;		/* it has an empty slot: p ends here */
	uint32_t tag;
};

/*
 * An empty map, whose large parts grow in the thread of bg (NULL: in the
 * caller's).  bg may be shared; the map adds and looks up from one thread
 * at a time.
 */
void	tagmap_init(struct tagmap *, struct bgjob *bg);

/*
 * Add id under key (ids under one key are kept in any number):
 * tagmap_add() below, which takes this call when a part is due to grow
 * or being rebuilt.
 */
void	tagmap_add_slow(struct tagmap *, uint64_t key, uint32_t id);

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

/* The part and home bucket of a key. */
static inline const struct tagmap_part *
tagmap_part_of(const struct tagmap *m, uint64_t key)
{
	return &m->part[key >> (64 - TAGMAP_PARTBITS)];
}

static inline size_t
tagmap_home(const struct tagmap_part *p, uint32_t tag)
{
	return (size_t)(((uint64_t)tag * p->nb) >> 32);
}

/* The slots of v, a bucket's tags or ids, that hold x, as bits. */
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

/* The free slots of a bucket, as bits: filled from the first. */
static inline unsigned
tagmap_free_slots(const struct tagmap_bucket *bk)
{
	return tagmap_slots_equal(bk->id, 0);
}

/*
 * The slots of bucket b of the cursor's table that hold its tag, as bits,
 * and whether the bucket ends the lookup: four vector compares, no
 * branch.
 */
static inline void
tagmap_scan(struct tagmap_cursor *c)
{
	const struct tagmap_bucket *bk = &c->p->bk[c->b];
	unsigned m = tagmap_slots_equal(bk->tag, c->tag),
	    e = tagmap_free_slots(bk);

	c->last = e != 0;
	c->match = e != 0 ? m & ((e & -e) - 1) : m;
}

/* Put tag and id (as stored: id + 1) in the first free slot of p. */
static inline void
tagmap_place(struct tagmap_part *p, uint32_t tag, uint32_t id1)
{
	size_t b = tagmap_home(p, tag);
	unsigned e, j;

	while ((e = tagmap_free_slots(&p->bk[b])) == 0)
		if (++b == p->nb)
			b = 0;
	j = (unsigned)__builtin_ctz(e);
	p->bk[b].tag[j] = tag;
	p->bk[b].id[j] = id1;
	p->n++;
}

/*
 * Add id under key.  Inline, for the common case of a part that is not
 * due to grow and not being rebuilt, which is all a slot's placing.
 */
static inline void
tagmap_add(struct tagmap *m, uint64_t key, uint32_t id)
{
	struct tagmap_part *p = &m->part[key >> (64 - TAGMAP_PARTBITS)];

	if (m->qlen == 0 && p->side == NULL && p->n < p->growat)
		tagmap_place(p, (uint32_t)key, id + 1);
	else
		tagmap_add_slow(m, key, id);
}

/*
 * Start a lookup of key; tagmap_next() then gives its ids, until the next
 * tagmap_add(), which may free a side table the cursor reads.
 */
static inline void
tagmap_seek(const struct tagmap *m, uint64_t key, struct tagmap_cursor *c)
{
	c->p = tagmap_part_of(m, key);
	c->side = c->p->side;
	c->tag = (uint32_t)key;
	c->b = tagmap_home(c->p, c->tag);
	tagmap_scan(c);
}

/* The next id under the key of the cursor, or TAGMAP_NONE at the end. */
static inline uint32_t
tagmap_next(struct tagmap_cursor *c)
{
	unsigned j;

	while (c->match == 0) {
		if (c->last) {
			if (c->side == NULL)
				return TAGMAP_NONE;
			/* The elements added while the part grows. */
			c->p = c->side;
			c->side = NULL;
			c->b = tagmap_home(c->p, c->tag);
		} else if (++c->b == c->p->nb)
			c->b = 0;
		tagmap_scan(c);
	}
	j = (unsigned)__builtin_ctz(c->match);
	c->match &= c->match - 1;
	return c->p->bk[c->b].id[j] - 1;
}

#endif
