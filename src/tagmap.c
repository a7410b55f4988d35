/*
 * Multimaps of hash keys to ids: TAGMAP_PARTS tables of buckets, with
 * linear probing from bucket to bucket.  A tag's home bucket is
 * tag * buckets / 2^32, so the tables need not be powers of two and can
 * grow by half at a time.  Buckets fill from their first slot and nothing
 * is ever removed, so a lookup ends at the first empty slot: in the home
 * bucket unless it is full, and most lookups read one cache line.
 *
 * The tables are memory mappings of their own: page-aligned, so that no
 * bucket straddles two cache lines; zero-filled, which is empty; and
 * grown with mremap(2), which moves pages without copying them.
 */
#include <sys/mman.h>

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "tagmap.h"
#include "xmalloc.h"

#define PART_MIN	64	/* buckets of a part at first: a page */
#define HUGE_PAGE	(2 * 1024 * 1024)

/*
 * Lookups go all over a large table, and with 4 KiB pages nearly each one
 * would miss the TLB as well as the cache: a large table asks for huge
 * pages, where the system has them.  The whole mapping is asked for, not
 * just its huge-page-aligned middle: that would split it in three, and
 * mremap(2) fails (EFAULT) on a range over more than one mapping.
 */
static void
advise_huge(void *p, size_t size)
{
	(void)madvise(p, size, MADV_HUGEPAGE);
}

/*
 * Buckets old (oldnb of them, or NULL) made nb, the new ones empty.  Like
 * xmalloc(), the program ends if there is no memory.
 */
static struct tagmap_bucket *
buckets_map(struct tagmap_bucket *old, size_t oldnb, size_t nb)
{
	size_t size = nb * sizeof(*old), oldsize = oldnb * sizeof(*old);
	void *p;

	if (old == NULL)
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else {
#ifdef MREMAP_MAYMOVE
		p = mremap(old, oldsize, size, MREMAP_MAYMOVE);
#else
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			memcpy(p, old, oldsize);
			munmap(old, oldsize);
		}
#endif
	}
	if (p == MAP_FAILED)
		err(2, NULL);
	if (size >= 2 * HUGE_PAGE)
		advise_huge(p, size);
	/*
	 * Lookups read new buckets before anything is written there: each
	 * page would be faulted in twice, as the zero page and then copied
	 * on write.  Faulting them in for writing at once is cheaper.
	 */
#ifdef MADV_POPULATE_WRITE
	if (madvise((char *)p + (oldsize & ~(size_t)4095),
	    size - (oldsize & ~(size_t)4095), MADV_POPULATE_WRITE) == 0)
		return p;
#endif
	memset((char *)p + oldsize, 0, size - oldsize);
	return p;
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

/*
 * Put tag and id in the first free slot from bucket b, going round the end
 * if wrap, else stopping there: 0 if all were full.
 */
static int
place(struct tagmap_part *p, size_t b, int wrap, uint32_t tag, uint32_t id)
{
	unsigned e, j;

	while ((e = free_slots(&p->bk[b])) == 0) {
		if (++b == p->nb) {
			if (!wrap)
				return 0;
			b = 0;
		}
	}
	j = (unsigned)__builtin_ctz(e);
	p->bk[b].tag[j] = tag;
	p->bk[b].id[j] = id + 1;
	return 1;
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

	p->nb = oldnb + oldnb / 2;
	p->bk = buckets_map(p->bk, oldnb, p->nb);
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
		place(p, tagmap_home(p, m->wait[i].tag), 1, m->wait[i].tag,
		    m->wait[i].id);
	m->nwait = 0;
}

void
tagmap_init(struct tagmap *m)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < TAGMAP_PARTS; i++) {
		m->part[i].nb = PART_MIN;
		m->part[i].bk = buckets_map(NULL, 0, PART_MIN);
	}
}

void
tagmap_add(struct tagmap *m, uint64_t key, uint32_t id)
{
	struct tagmap_part *p = &m->part[key >> (64 - TAGMAP_PARTBITS)];

	if ((double)(p->n + 1) > TAGMAP_LOAD * (double)(p->nb * TAGMAP_BUCKET))
		grow(m, p);
	place(p, tagmap_home(p, (uint32_t)key), 1, (uint32_t)key, id);
	p->n++;
}

void
tagmap_prefetch(const struct tagmap *m, uint64_t key)
{
	const struct tagmap_part *p = tagmap_part_of(m, key);

	__builtin_prefetch(&p->bk[tagmap_home(p, (uint32_t)key)]);
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

	for (i = 0; i < TAGMAP_PARTS; i++)
		if (m->part[i].bk != NULL)
			munmap(m->part[i].bk, m->part[i].nb *
			    sizeof(*m->part[i].bk));
	free(m->wait);
	memset(m, 0, sizeof(*m));
}
