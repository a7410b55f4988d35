/*
 * Multimaps of hash keys to ids: TAGMAP_PARTS tables of buckets, with
 * linear probing from bucket to bucket.  A tag's home bucket is
 * tag * buckets / 2^hbits, so the tables need not be powers of two and can
 * grow by half at a time.  Buckets fill from their first slot and nothing
 * is ever removed, so a lookup ends at the first empty slot: in the home
 * bucket unless it is full (uniq's lookups read 2.1 buckets on average on
 * lines5m.txt at 0.5, where band keys held by several records fill
 * buckets; a count in each bucket of the elements that went past it did
 * not make them faster, bench/README.md).  The
 * elements under a tag lie along its probe sequence in the order they
 * were added, and a growth keeps that order.
 *
 * A narrow bucket keeps of a tag t the 16 bits below the home's in
 * t * nb / 2^hbits: t * nb lies in [L, L + 2^(hbits - 16)), L being the
 * home and those bits, and with nb at least 2^(hbits - 16) that stretch
 * holds one multiple of nb, so t is L / nb rounded up.  The home is the
 * bucket less the 3 bits of how far past it the element lies.  That is
 * 6.4 bytes a slot against 8: uniq's band table of 5M lines took 174 MB
 * in wide buckets, 138 MB in narrow ones.  An element that would lie
 * TAGMAP_REACH buckets or more past its home, which at 80 percent full
 * is rare, goes to the part's over table, a wide one read after the
 * reach; those that follow it under its home go there too, since the
 * buckets it passed stay full, and so the order added is kept.
 *
 * The tables are memory mappings of their own: page-aligned, so that no
 * bucket straddles two cache lines, and zero-filled, which is empty.  A
 * part grows into a new mapping, faulted in at once.  A part larger than
 * bgmin grows in the job thread: the thread that adds puts its new
 * elements in a small side table meanwhile, and takes the new table,
 * side elements added after, once the job is done.  On a virtual machine
 * the first write of a page can cost more than the rehash of its
 * elements, and both are then off its path.  The old table's memory is
 * kept, to be cleared and used by the next growth in the job thread, so
 * that only a growth's new half is pages new to the process (the kernel
 * clears those at more cost); a small part's is unmapped.
 *
 * No huge pages: a table ending inside one would hold up to 2 MiB more
 * than it uses, for each of its parts; nor did they make lookups faster
 * (bench/README.md).
 */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>

#include "bgjob.h"
#include "tagmap.h"
#include "xmalloc.h"

#define PART_MIN	64	/* buckets of a part at first: a page */
#define PAGE		4096
#define BG_MIN		(256 * 1024)	/* parts this large grow in bg */

static size_t
page_up(size_t n)
{
	return (n + PAGE - 1) & ~(size_t)(PAGE - 1);
}

/* Elements at which a part of nb buckets grows. */
static size_t
load_limit(size_t nb, int narrow)
{
	return (size_t)(TAGMAP_LOAD * (double)(nb *
	    (narrow ? TAGMAP_NBUCKET : TAGMAP_BUCKET)));
}

/*
 * The buckets of part p after its next growth, and whether they are
 * narrow.  A side or over table stays wide.  A wide part turns narrow
 * with the slots a growth by half would give it, once they are enough
 * buckets to keep its tags.
 */
static size_t
grown(const struct tagmap_part *p, int mainpart, int *narrow)
{
	size_t nb = p->nb + p->nb / 5;

	*narrow = p->narrow || (mainpart && nb >= (size_t)1 << (p->hbits - 16));
	return *narrow && !p->narrow ? nb : p->nb + p->nb / 2;
}

/* Elements the next growth of main part p holds before it grows. */
static size_t
grown_limit(const struct tagmap_part *p)
{
	int narrow;
	size_t nb = grown(p, 1, &narrow);

	return load_limit(nb, narrow);
}

/* The bytes of nb buckets, wide or narrow: a cache line each. */
static size_t
table_bytes(size_t nb)
{
	_Static_assert(sizeof(struct tagmap_bucket) == 64 &&
	    sizeof(struct tagmap_nbucket) == 64, "a bucket is a cache line");
	return page_up(nb * 64);
}

/*
 * Make p an empty part of nb buckets, in a mapping of its own faulted in
 * for writing (each page would otherwise fault as it is first written).
 * With m, the map's spare memory is used if there is some: the part that
 * grew last leaves its old table behind, of about the size the next part
 * to grow needs, and clearing it costs less than pages new to the
 * process.  Like xmalloc(), the program ends if there is no memory.
 */
static void
part_new(struct tagmap_part *p, size_t nb, int narrow, unsigned hbits,
    struct tagmap *m)
{
	size_t len = table_bytes(nb), keep = 0, sparelen;
	void *q = MAP_FAILED, *spare;

	if (m != NULL && (spare = atomic_exchange(&m->spare, NULL)) != NULL) {
		memcpy(&sparelen, spare, sizeof(sparelen));
#ifdef MREMAP_MAYMOVE
		q = mremap(spare, sparelen, len, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			munmap(spare, sparelen);
		else
			keep = sparelen < len ? sparelen : len;
#else
		munmap(spare, sparelen);
#endif
	}
	if (q == MAP_FAILED)
		q = xmap(len);
	else {
		memset(q, 0, keep);
		xpopulate((char *)q + keep, len - keep);
	}
	memset(p, 0, sizeof(*p));
	p->bk = q;
	p->nb = nb;
	p->mapped = len;
	p->hbits = hbits;
	p->mask = (uint32_t)(((uint64_t)1 << hbits) - 1);
	p->mul = (uint64_t)nb << (32 - hbits);
	p->narrow = narrow;
	p->growat = load_limit(nb, narrow);
}

/* Free the over table of p. */
static void
over_free(struct tagmap_part *p)
{
	if (p->over != NULL) {
		munmap(p->over->bk, p->over->mapped);
		free(p->over);
		p->over = NULL;
	}
}

/* Keep the memory of p's table as the map's spare, its length in it. */
static void
part_spare(struct tagmap *m, struct tagmap_part *p)
{
	void *old;

	over_free(p);
	memcpy(p->bk, &p->mapped, sizeof(p->mapped));
	m->sparelen = p->mapped;
	old = atomic_exchange(&m->spare, p->bk);
	if (old != NULL) {
		size_t len;

		memcpy(&len, old, sizeof(len));
		munmap(old, len);
	}
	p->bk = NULL;
}

static void
part_free(struct tagmap_part *p)
{
	over_free(p);
	if (p->bk != NULL)
		munmap(p->bk, p->mapped);
	p->bk = NULL;
}

/* The tag of slot j of bucket b of narrow part p, which holds one. */
static uint32_t
narrow_tag(const struct tagmap_part *p, size_t b, unsigned j)
{
	const struct tagmap_nbucket *bk = tagmap_narrow(p, b);
	size_t home = (b + p->nb - tagmap_past(bk, j)) % p->nb;
	uint64_t l, t;

	/* The least multiple of nb from L (tagmap.h): a double's quotient,
	   set right. */
	l = ((uint64_t)home << p->hbits) +
	    ((uint64_t)bk->tag[j] << (p->hbits - 16));
	t = (uint64_t)((double)l / (double)p->nb);
	while (t * p->nb < l)
		t++;
	while (t > 0 && (t - 1) * p->nb >= l)
		t--;
	return (uint32_t)t;
}

static int
has_free(const struct tagmap_part *p, size_t b)
{
	return p->narrow ? tagmap_nfree_slots(tagmap_narrow(p, b)) != 0 :
	    tagmap_free_slots(tagmap_wide(p, b)) != 0;
}

/*
 * The bucket at which to start reading a table for its elements in the
 * order they were added, tag by tag: one after a bucket with a free slot,
 * which no probe sequence goes past.  A table under its load has one.
 */
static size_t
first_bucket(const struct tagmap_part *p)
{
	size_t b;

	for (b = 0; b < p->nb; b++)
		if (has_free(p, b))
			return b + 1 < p->nb ? b + 1 : 0;
	return 0;
}

/*
 * fn(to, tag, id + 1, arg) for each element of from, each tag's in the
 * order added.  Inlined into each caller, with its fn.
 */
static inline __attribute__((always_inline)) void
each(struct tagmap_part *to, const struct tagmap_part *from,
    void (*fn)(struct tagmap_part *, uint32_t, uint32_t, void *),
    void *arg)
{
	size_t i, b, start = first_bucket(from);
	unsigned j;
	uint32_t id1;

	for (i = 0, b = start; i < from->nb; i++) {
		if (!from->narrow) {
			const struct tagmap_bucket *fb = tagmap_wide(from, b);

			for (j = 0; j < TAGMAP_BUCKET &&
			    (id1 = fb->id[j]) != 0; j++)
				fn(to, fb->tag[j], id1, arg);
		} else {
			const struct tagmap_nbucket *fb = tagmap_narrow(from,
			    b);

			for (j = 0; j < TAGMAP_NBUCKET &&
			    (id1 = fb->id[j]) != 0; j++)
				fn(to, narrow_tag(from, b, j), id1, arg);
		}
		if (++b == from->nb)
			b = 0;
	}
}

static inline void
place(struct tagmap_part *to, uint32_t tag, uint32_t id1, void *arg)
{
	(void)arg;
	tagmap_place(to, tag, id1);
}

/*
 * Put the elements of from, its over table's after, into to, each tag's
 * in the order added.
 */
static void
refill(struct tagmap_part *to, const struct tagmap_part *from)
{
	each(to, from, place, NULL);
	if (from->over != NULL)
		each(to, from->over, place, NULL);
}

/*
 * Place an element in a table being filled, with fill[b] the slots taken
 * in bucket b: the elements of a bucket mostly go to one or two new ones,
 * and reading back the bucket just written, to find its next free slot,
 * would wait each time for the stores before it.
 */
static inline void
place_filled(struct tagmap_part *to, uint32_t tag, uint32_t id1, void *arg)
{
	unsigned char *fill = arg;
	size_t h = tagmap_home(to, tag), nb = to->nb;
	unsigned k, past;

	if (!to->narrow) {
		struct tagmap_bucket *tb = to->bk;

		while (fill[h] == TAGMAP_BUCKET)
			if (++h == nb)
				h = 0;
		k = fill[h]++;
		tb[h].tag[k] = tag;
		tb[h].id[k] = id1;
	} else {
		struct tagmap_nbucket *tb = to->bk;

		for (past = 0; fill[h] == TAGMAP_NBUCKET; past++) {
			if (past == TAGMAP_REACH - 1) {
				tagmap_place_over(to, tag, id1);
				return;
			}
			if (++h == nb)
				h = 0;
		}
		k = fill[h]++;
		tb[h].tag[k] = (uint16_t)tagmap_ntag(to, tag);
		tb[h].past |= past << (3 * k);
		tb[h].id[k] = id1;
	}
	to->n++;
}

/* The same as refill(), into an empty table, faster. */
static void
refill_empty(struct tagmap_part *to, const struct tagmap_part *from)
{
	unsigned char *fill = xcalloc(to->nb, 1);

	each(to, from, place_filled, fill);
	if (from->over != NULL)
		each(to, from->over, place_filled, fill);
	free(fill);
}

/* The job: build the new table of a part being rebuilt. */
static void
rebuild(void *arg)
{
	struct tagmap_rebuild *rb = arg;
	int narrow;
	size_t nb = grown(rb->p, 1, &narrow);

	part_new(&rb->to, nb, narrow, rb->p->hbits, rb->m);
	refill_empty(&rb->to, rb->p);
}

/*
 * Take the new table of the first part rebuilt, its job done, and add
 * the elements that waited beside it.
 */
static void
finish(struct tagmap *m)
{
	struct tagmap_part *p = &m->part[m->queue[m->qhead]],
	    *side = p->side;

	m->qhead = (m->qhead + 1) % TAGMAP_PARTS;
	m->qlen--;
	part_spare(m, p);
	*p = m->rb[p - m->part].to;
	refill(p, side);
	part_free(side);
	free(side);
}

/* Take the new tables of the parts whose jobs are done. */
static void
finish_done(struct tagmap *m)
{
	while (m->qlen > 0 && bgjob_done(&m->rb[m->queue[m->qhead]].task))
		finish(m);
}

/* Wait for the job of part p, and take its new table, and those before. */
static void
finish_part(struct tagmap *m, struct tagmap_part *p)
{
	bgjob_wait(m->bg, &m->rb[p - m->part].task);
	while (p->side != NULL)
		finish(m);
}

/* Grow p here: a main part, or a side or over table. */
static void
regrow(struct tagmap_part *p, int mainpart)
{
	struct tagmap_part to;
	int narrow;
	size_t nb = grown(p, mainpart, &narrow);

	part_new(&to, nb, narrow, p->hbits, NULL);
	refill_empty(&to, p);
	part_free(p);
	to.side = p->side;
	*p = to;
}

void
tagmap_place_over(struct tagmap_part *p, uint32_t tag, uint32_t id1)
{
	struct tagmap_part *o = p->over;

	if (o == NULL) {
		o = p->over = xmalloc(sizeof(*o));
		part_new(o, PART_MIN, 0, p->hbits, NULL);
	} else if (o->n + 1 > o->growat)
		regrow(o, 0);
	tagmap_place(o, tag, id1);
}

/*
 * Part p is full: grow it here if it is small, else have it rebuilt in
 * the job thread, its new elements put beside it meanwhile.
 */
static void
grow(struct tagmap *m, struct tagmap_part *p)
{
	size_t i = (size_t)(p - m->part);

	if (m->bg == NULL || p->mapped < m->bgmin) {
		regrow(p, 1);
		return;
	}
	p->side = xmalloc(sizeof(*p->side));
	part_new(p->side, PART_MIN, 0, p->hbits, NULL);
	m->queue[(m->qhead + m->qlen++) % TAGMAP_PARTS] = (unsigned)i;
	bgjob_start(m->bg, &m->rb[i].task);
}

void
tagmap_init_bits(struct tagmap *m, struct bgjob *bg, unsigned hbits)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->bg = bg;
	m->bgmin = BG_MIN;
	m->hbits = hbits;
	atomic_init(&m->spare, NULL);
	for (i = 0; i < TAGMAP_PARTS; i++) {
		part_new(&m->part[i], PART_MIN, 0, hbits, NULL);
		m->rb[i].task.fn = rebuild;
		m->rb[i].task.arg = &m->rb[i];
		m->rb[i].m = m;
		m->rb[i].p = &m->part[i];
	}
}

void
tagmap_init(struct tagmap *m, struct bgjob *bg)
{
	tagmap_init_bits(m, bg, TAGMAP_HBITS);
}

/* Elements of p, its over table's too. */
static size_t
held(const struct tagmap_part *p)
{
	return p->n + (p->over != NULL ? p->over->n : 0);
}

void
tagmap_add_slow(struct tagmap *m, uint64_t key, uint32_t id)
{
	struct tagmap_part *p = &m->part[key >> (64 - TAGMAP_PARTBITS)];

	if (m->qlen > 0)
		finish_done(m);
	if (p->side == NULL && p->n + 1 > p->growat)
		grow(m, p);
	if (p->side != NULL) {
		/*
		 * Being rebuilt: beside it.  The side grows here, up to an
		 * eighth of the part, and takes no more than the new table
		 * can hold under its load; past either, the job is waited
		 * for.
		 */
		if (held(p) + p->side->n + 1 > grown_limit(p))
			finish_part(m, p);
		else if (p->side->n + 1 > p->side->growat) {
			if (p->side->mapped * 8 < p->mapped)
				regrow(p->side, 0);
			else
				finish_part(m, p);
		}
		if (p->side != NULL)
			p = p->side;
	}
	tagmap_place(p, tagmap_tag(p, key), id + 1);
}

void
tagmap_step(struct tagmap_cursor *c)
{
	const struct tagmap_part *p;

	if (c->last) {
		/* Past the reach, then what was added while the part grows. */
		if (c->last == 2 && c->over != NULL) {
			p = c->over;
			c->over = NULL;
		} else {
			p = c->side;
			c->over = c->side = NULL;
		}
		tagmap_seek_part(c, p);
		return;
	}
	if (++c->b == c->p->nb)
		c->b = 0;
	c->past++;
	tagmap_scan(c);
}

void
tagmap_prefetch(const struct tagmap *m, uint64_t key)
{
	const struct tagmap_part *p = tagmap_part_of(m, key);

	__builtin_prefetch((const char *)p->bk +
	    64 * tagmap_home(p, tagmap_tag(p, key)));
}

void
tagmap_prefetch_next(const struct tagmap *m, uint64_t key)
{
	const struct tagmap_part *p = tagmap_part_of(m, key);
	size_t b = tagmap_home(p, tagmap_tag(p, key));

	/* Buckets fill from their first slot: full if the last is taken. */
	if (p->narrow ? tagmap_narrow(p, b)->id[TAGMAP_NBUCKET - 1] != 0 :
	    tagmap_wide(p, b)->id[TAGMAP_BUCKET - 1] != 0)
		__builtin_prefetch((const char *)p->bk +
		    64 * (b + 1 < p->nb ? b + 1 : 0));
}

size_t
tagmap_memory(const struct tagmap *m)
{
	const struct tagmap_part *p;
	size_t i, sum = m->sparelen;
	int narrow;

	/* The spare counts until the next growth uses it, and then too. */
	for (i = 0; i < TAGMAP_PARTS; i++) {
		p = &m->part[i];
		sum += p->mapped;
		if (p->over != NULL)
			sum += p->over->mapped;
		if (p->side != NULL)
			sum += p->side->mapped +
			    table_bytes(grown(p, 1, &narrow));
	}
	return sum;
}

void
tagmap_free(struct tagmap *m)
{
	size_t i, len;
	void *spare;

	while (m->qlen > 0)
		finish_part(m, &m->part[m->queue[m->qhead]]);
	for (i = 0; i < TAGMAP_PARTS; i++)
		part_free(&m->part[i]);
	if ((spare = atomic_load(&m->spare)) != NULL) {
		memcpy(&len, spare, sizeof(len));
		munmap(spare, len);
	}
	memset(m, 0, sizeof(*m));
}
