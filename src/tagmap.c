/*
 * Multimaps of hash keys to ids: TAGMAP_PARTS tables of buckets, with
 * linear probing from bucket to bucket.  A tag's home bucket is
 * tag * buckets / 2^32, so the tables need not be powers of two and can
 * grow by half at a time.  Buckets fill from their first slot and nothing
 * is ever removed, so a lookup ends at the first empty slot: in the home
 * bucket unless it is full, and most lookups read one cache line.
 *
 * The tables are memory mappings of their own: page-aligned, so that no
 * bucket straddles two cache lines; zero-filled, which is empty; mapped
 * twice as large as they are, so that most growths happen in place; and
 * moved with mremap(2), which moves pages without copying them, when that
 * is not enough.  Before a large part grows, the pages it will grow into
 * are faulted in by another thread (prefault.h): on a virtual machine the
 * first write of a page can cost more than the rehash of its elements.
 *
 * No huge pages: a table ending inside one would hold up to 2 MiB more
 * than it uses, for each of its parts, and asking for them over just the
 * used part would split the mapping, which mremap(2) cannot then move.
 * Nor did they make lookups faster: granted over whole mappings, they
 * made uniq's index thread slower (bench/README.md).
 */
#include <sys/mman.h>

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "prefault.h"
#include "tagmap.h"
#include "xmalloc.h"

#define PART_MIN	64	/* buckets of a part at first: a page */
#define PAGE		4096
#define PREFAULT_MIN	(1024 * 1024)	/* parts this large fault in ahead */
#define ASK_AHEAD	0.85	/* at this much of the load that grows */

static size_t
page_up(size_t n)
{
	return (n + PAGE - 1) & ~(size_t)(PAGE - 1);
}

/*
 * Map at least size bytes for part p, keeping its buckets: twice as many,
 * so that the next growth need not move them, and a range faulted in
 * ahead there stays where it is.  Like xmalloc(), the program ends if
 * there is no memory.
 */
static void
part_map(struct tagmap_part *p, size_t size)
{
	size_t want = page_up(2 * size);
	void *q;

	if (size <= p->mapped)
		return;
	for (;;) {
		if (p->bk == NULL)
			q = mmap(NULL, want, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		else {
#ifdef MREMAP_MAYMOVE
			q = mremap(p->bk, p->mapped, want, MREMAP_MAYMOVE);
#else
			q = mmap(NULL, want, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (q != MAP_FAILED) {
				memcpy(q, p->bk, p->nb * sizeof(*p->bk));
				munmap(p->bk, p->mapped);
			}
#endif
		}
		if (q != MAP_FAILED)
			break;
		/* Under a limit of address space, just what is needed. */
		if (want == page_up(size))
			err(2, NULL);
		want = page_up(size);
	}
	p->bk = q;
	p->mapped = want;
}

/*
 * Fault in the buckets of p from old to new (bytes) for writing.  Lookups
 * read new buckets before anything is written there: each page would be
 * faulted in twice, as the zero page and then copied on write.  Pages
 * faulted in ahead cost only a look at the page tables.
 */
static void
part_fault(struct tagmap_part *p, size_t old, size_t new)
{
	char *b = (char *)p->bk;
	size_t page = old & ~(size_t)(PAGE - 1);

#ifdef MADV_POPULATE_WRITE
	if (madvise(b + page, new - page, MADV_POPULATE_WRITE) == 0)
		return;
#endif
	/* Untouched anonymous memory reads as zero: write it so. */
	memset(b + old, 0, new - old);
}

/* The buckets after the next growth of a part of nb. */
static size_t
grown(size_t nb)
{
	return nb + nb / 2;
}

/* Elements at which part p grows, or asks for its next buckets first. */
static void
part_limits(const struct tagmap *m, struct tagmap_part *p)
{
	double slots = (double)(p->nb * TAGMAP_BUCKET);

	p->growat = (size_t)(TAGMAP_LOAD * slots);
	p->askat = p->nb * sizeof(*p->bk) >= m->pfmin ?
	    (size_t)(TAGMAP_LOAD * ASK_AHEAD * slots) : p->growat;
}

/* The prefault slot of part p. */
static size_t
slot_of(const struct tagmap *m, const struct tagmap_part *p)
{
	return m->pfslot + (size_t)(p - m->part);
}

/*
 * Part p nears its growth: have the buckets it will grow into faulted in
 * by the prefault thread meanwhile.
 */
static void
ask(struct tagmap *m, struct tagmap_part *p)
{
	size_t from, to = grown(p->nb) * sizeof(*p->bk);

	p->askat = p->growat;
	if (m->pf == NULL)
		return;
	part_map(p, to);
	from = p->nb * sizeof(*p->bk);
	prefault_ask(m->pf, slot_of(m, p), (char *)p->bk + from, to - from);
}

/* The free slots of a bucket, as bits: filled from the first. */
static unsigned
free_slots(const struct tagmap_bucket *bk)
{
	unsigned e = 0;
#ifdef __SSE2__
	const __m128i *v = (const __m128i *)bk->id;
	__m128i zero = _mm_setzero_si128();

	e = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
	    _mm_load_si128(v), zero))) |
	    (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
	    _mm_load_si128(v + 1), zero))) << 4;
#else
	unsigned j;

	for (j = 0; j < TAGMAP_BUCKET; j++)
		e |= (unsigned)(bk->id[j] == 0) << j;
#endif
	return e;
}

/* Put tag and id in the first free slot from bucket b, round the end. */
static void
place(struct tagmap_part *p, size_t b, uint32_t tag, uint32_t id)
{
	unsigned e, j;

	while ((e = free_slots(&p->bk[b])) == 0)
		if (++b == p->nb)
			b = 0;
	j = (unsigned)__builtin_ctz(e);
	p->bk[b].tag[j] = tag;
	p->bk[b].id[j] = id + 1;
}

/*
 * Make the part half as large again, in place, so that the map never
 * holds any element twice and only the new buckets are new memory.
 *
 * The home of a tag only moves up as the table grows.  The old buckets are
 * emptied from the last to the first, and each element is put again from
 * its new home among the buckets already done, where it is never in the
 * way of the elements still to move.  The few that would have to go below
 * the bucket being emptied, or round the end, wait and go in last.
 *
 * The slots taken in each bucket are counted apart, a byte a bucket: the
 * elements of a bucket mostly go to one or two new ones, and reading back
 * the bucket just written, to find its next free slot, would wait each
 * time for the stores before it to be done.
 */
static void
grow(struct tagmap *m, struct tagmap_part *p)
{
	struct tagmap_bucket tmp;
	size_t oldnb = p->nb, b, h, i;
	unsigned char *fill;
	unsigned j, k;

	if (m->pf != NULL)
		prefault_drop(m->pf, slot_of(m, p));
	part_map(p, grown(oldnb) * sizeof(*p->bk));
	part_fault(p, oldnb * sizeof(*p->bk), grown(oldnb) * sizeof(*p->bk));
	p->nb = grown(oldnb);
	part_limits(m, p);
	fill = xcalloc(p->nb, 1);
	for (b = oldnb; b-- > 0;) {
		tmp = p->bk[b];
		memset(&p->bk[b], 0, sizeof(p->bk[b]));
		for (j = 0; j < TAGMAP_BUCKET && tmp.id[j] != 0; j++) {
			h = tagmap_home(p, tmp.tag[j]);
			if (h >= b) {
				while (h < p->nb && fill[h] == TAGMAP_BUCKET)
					h++;
				if (h < p->nb) {
					k = fill[h]++;
					p->bk[h].tag[k] = tmp.tag[j];
					p->bk[h].id[k] = tmp.id[j];
					continue;
				}
			}
			if (m->nwait == m->waitcap) {
				m->waitcap = m->waitcap ? 2 * m->waitcap : 64;
				m->wait = xreallocarray(m->wait, m->waitcap,
				    sizeof(*m->wait));
			}
			m->wait[m->nwait].tag = tmp.tag[j];
			m->wait[m->nwait++].id = tmp.id[j] - 1;
		}
	}
	free(fill);
	for (i = 0; i < m->nwait; i++)
		place(p, tagmap_home(p, m->wait[i].tag), m->wait[i].tag,
		    m->wait[i].id);
	m->nwait = 0;
}

void
tagmap_init(struct tagmap *m, struct prefault *pf, size_t pfslot)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->pf = pf;
	m->pfslot = pfslot;
	m->pfmin = PREFAULT_MIN;
	for (i = 0; i < TAGMAP_PARTS; i++) {
		part_map(&m->part[i], PART_MIN * sizeof(*m->part[i].bk));
		m->part[i].nb = PART_MIN;
		part_limits(m, &m->part[i]);
	}
}

void
tagmap_add(struct tagmap *m, uint64_t key, uint32_t id)
{
	struct tagmap_part *p = &m->part[key >> (64 - TAGMAP_PARTBITS)];

	if (p->n + 1 > p->askat) {
		if (p->n + 1 > p->growat)
			grow(m, p);
		else
			ask(m, p);
	}
	place(p, tagmap_home(p, (uint32_t)key), (uint32_t)key, id);
	p->n++;
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
	size_t i, sum = 0;

	for (i = 0; i < TAGMAP_PARTS; i++)
		sum += m->part[i].nb * sizeof(*m->part[i].bk);
	return sum;
}

void
tagmap_free(struct tagmap *m)
{
	size_t i;

	for (i = 0; i < TAGMAP_PARTS; i++) {
		if (m->pf != NULL)
			prefault_drop(m->pf, slot_of(m, &m->part[i]));
		if (m->part[i].bk != NULL)
			munmap(m->part[i].bk, m->part[i].mapped);
	}
	free(m->wait);
	memset(m, 0, sizeof(*m));
}
