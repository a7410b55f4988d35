/*
 * Multimaps of hash keys to ids: TAGMAP_PARTS tables of buckets, with
 * linear probing from bucket to bucket.  A tag's home bucket is
 * tag * buckets / 2^32, so the tables need not be powers of two and can
 * grow by half at a time.  Buckets fill from their first slot and nothing
 * is ever removed, so a lookup ends at the first empty slot: in the home
 * bucket unless it is full (uniq's lookups read 2.1 buckets on average on
 * lines5m.txt at 0.5, where band keys held by several records fill
 * buckets; a count in each bucket of the elements that went past it did
 * not make them faster, bench/README.md).  The
 * elements under a tag lie along its probe sequence in the order they
 * were added, and a growth keeps that order.
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

/* The buckets after the next growth of a part of nb. */
static size_t
grown(size_t nb)
{
	return nb + nb / 2;
}

/* Elements at which a part of nb buckets grows. */
static size_t
load_limit(size_t nb)
{
	return (size_t)(TAGMAP_LOAD * (double)(nb * TAGMAP_BUCKET));
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
part_new(struct tagmap_part *p, size_t nb, struct tagmap *m)
{
	size_t len = page_up(nb * sizeof(*p->bk)), keep = 0, sparelen;
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
	p->growat = load_limit(nb);
}

/* Keep the memory of p's table as the map's spare, its length in it. */
static void
part_spare(struct tagmap *m, struct tagmap_part *p)
{
	void *old;

	memcpy(p->bk, &p->mapped, sizeof(p->mapped));
	m->sparelen = p->mapped;
	old = atomic_exchange(&m->spare, (void *)p->bk);
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
	if (p->bk != NULL)
		munmap(p->bk, p->mapped);
	p->bk = NULL;
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
		if (tagmap_free_slots(&p->bk[b]) != 0)
			return b + 1 < p->nb ? b + 1 : 0;
	return 0;
}

/* Put the elements of from into to, each tag's in the order added. */
static void
refill(struct tagmap_part *to, const struct tagmap_part *from)
{
	size_t i, b, start = first_bucket(from);
	unsigned j;

	for (i = 0, b = start; i < from->nb; i++) {
		for (j = 0; j < TAGMAP_BUCKET && from->bk[b].id[j] != 0; j++)
			tagmap_place(to, from->bk[b].tag[j], from->bk[b].id[j]);
		if (++b == from->nb)
			b = 0;
	}
}

/*
 * The same into an empty table, faster: the slots taken in each bucket
 * are counted apart, a byte a bucket.  The elements of a bucket mostly go
 * to one or two new ones, and reading back the bucket just written, to
 * find its next free slot, would wait each time for the stores before it.
 */
static void
refill_empty(struct tagmap_part *to, const struct tagmap_part *from)
{
	const struct tagmap_bucket *fb;
	struct tagmap_bucket *tb = to->bk;
	unsigned char *fill = xcalloc(to->nb, 1);
	size_t i, b, h, nb = to->nb, start = first_bucket(from);
	unsigned j, k;

	for (i = 0, b = start; i < from->nb; i++) {
		fb = &from->bk[b];
		for (j = 0; j < TAGMAP_BUCKET && fb->id[j] != 0; j++) {
			h = tagmap_home(to, fb->tag[j]);
			while (fill[h] == TAGMAP_BUCKET)
				if (++h == nb)
					h = 0;
			k = fill[h]++;
			tb[h].tag[k] = fb->tag[j];
			tb[h].id[k] = fb->id[j];
		}
		if (++b == from->nb)
			b = 0;
	}
	to->n = from->n;
	free(fill);
}

/* The job: build the new table of a part being rebuilt. */
static void
rebuild(void *arg)
{
	struct tagmap_rebuild *rb = arg;

	part_new(&rb->to, grown(rb->p->nb), rb->m);
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

/* Grow part p here. */
static void
regrow(struct tagmap_part *p)
{
	struct tagmap_part to;

	part_new(&to, grown(p->nb), NULL);
	refill_empty(&to, p);
	part_free(p);
	to.side = p->side;
	*p = to;
}

/*
 * Part p is full: grow it here if it is small, else have it rebuilt in
 * the job thread, its new elements put beside it meanwhile.
 */
static void
grow(struct tagmap *m, struct tagmap_part *p)
{
	size_t i = (size_t)(p - m->part);

	if (m->bg == NULL || p->nb * sizeof(*p->bk) < m->bgmin) {
		regrow(p);
		return;
	}
	p->side = xmalloc(sizeof(*p->side));
	part_new(p->side, PART_MIN, NULL);
	m->queue[(m->qhead + m->qlen++) % TAGMAP_PARTS] = (unsigned)i;
	bgjob_start(m->bg, &m->rb[i].task);
}

void
tagmap_init(struct tagmap *m, struct bgjob *bg)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->bg = bg;
	m->bgmin = BG_MIN;
	atomic_init(&m->spare, NULL);
	for (i = 0; i < TAGMAP_PARTS; i++) {
		part_new(&m->part[i], PART_MIN, NULL);
		m->rb[i].task.fn = rebuild;
		m->rb[i].task.arg = &m->rb[i];
		m->rb[i].m = m;
		m->rb[i].p = &m->part[i];
	}
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
		if (p->n + p->side->n + 1 > load_limit(grown(p->nb)))
			finish_part(m, p);
		else if (p->side->n + 1 > p->side->growat) {
			if (p->side->nb * 8 < p->nb)
				regrow(p->side);
			else
				finish_part(m, p);
		}
		if (p->side != NULL)
			p = p->side;
	}
	tagmap_place(p, (uint32_t)key, id + 1);
}

void
tagmap_prefetch(const struct tagmap *m, uint64_t key)
{
	const struct tagmap_part *p = tagmap_part_of(m, key);

	__builtin_prefetch(&p->bk[tagmap_home(p, (uint32_t)key)]);
}

void
tagmap_prefetch_next(const struct tagmap *m, uint64_t key)
{
	const struct tagmap_part *p = tagmap_part_of(m, key);
	size_t b = tagmap_home(p, (uint32_t)key);

	/* Buckets fill from their first slot: full if the last is taken. */
	if (p->bk[b].id[TAGMAP_BUCKET - 1] != 0)
		__builtin_prefetch(&p->bk[b + 1 < p->nb ? b + 1 : 0]);
}

size_t
tagmap_memory(const struct tagmap *m)
{
	const struct tagmap_part *p;
	size_t i, sum = m->sparelen;

	/* The spare counts until the next growth uses it, and then too. */
	for (i = 0; i < TAGMAP_PARTS; i++) {
		p = &m->part[i];
		sum += p->mapped;
		if (p->side != NULL)
			sum += p->side->mapped +
			    page_up(grown(p->nb) * sizeof(*p->bk));
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
