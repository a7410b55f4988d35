/*
 * Exact resemblance of short records, with a cache of shingle sets.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "recsim.h"
#include "similarity.h"
#include "xmalloc.h"

#define SET_MIN		64
#define RING_SHARE	16	/* a record cached takes at most 1/16 of
				   the ring, which grows to make it so */
/*
 * The ring grows when, since it last grew, more than 1/RING_STALE of the
 * lookups, and at least RING_SAMPLE, found their record's entry
 * overwritten by the ring coming round: a larger ring would have kept
 * those.
 */
#define RING_SAMPLE	64
#define RING_STALE	16

void
recsim_sink(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct recsim_hashes *v = ctx;

	(void)w;
	if (v->cap - v->n < n) {
		while (v->cap - v->n < n)
			v->cap = v->cap ? 2 * v->cap : 256;
		v->h = xreallocarray(v->h, v->cap, sizeof(*v->h));
	}
	memcpy(v->h + v->n, h, n * sizeof(*h));
	v->n += n;
}

/*
 * The shingler's sink: append to the array being filled, or only the
 * hashes not met before in the record, when r->dset says so.
 */
static void
sink(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct recsim *r = ctx;

	if (r->dset != NULL)
		recsim_distinct_add(r->dset, h, n, r->into);
	else
		recsim_sink(r->into, h, w, n);
}

static void
shingle(struct recsim *r, struct recsim_hashes *v, const char *p, size_t len)
{
	v->n = 0;
	r->into = v;
	shingle_feed(&r->sh, p, len);
	shingle_end(&r->sh);
}

/* Empty s, with room for n elements (the table at most half full). */
static void
set_clear(struct recsim_set *s, size_t n)
{
	size_t cap = s->cap ? s->cap : SET_MIN;

	while (cap < 2 * n)
		cap *= 2;
	if (cap != s->cap) {
		free(s->key);
		free(s->stamp);
		s->key = xreallocarray(NULL, cap, sizeof(*s->key));
		s->stamp = xcalloc(cap, sizeof(*s->stamp));
		s->cap = cap;
		s->gen = 0;
	}
	if (++s->gen == 0) {
		memset(s->stamp, 0, s->cap * sizeof(*s->stamp));
		s->gen = 1;
	}
	s->n = 0;
}

/* Twice the room in s, its elements kept. */
static void
set_grow(struct recsim_set *s)
{
	uint64_t *key = s->key;
	uint32_t *stamp = s->stamp, gen = s->gen;
	size_t cap = s->cap, i, j, mask;

	s->cap = cap * 2;
	mask = s->cap - 1;
	s->key = xreallocarray(NULL, s->cap, sizeof(*s->key));
	s->stamp = xcalloc(s->cap, sizeof(*s->stamp));
	s->gen = 1;
	for (i = 0; i < cap; i++) {
		if (stamp[i] != gen)
			continue;
		for (j = (size_t)key[i] & mask; s->stamp[j] == 1;
		    j = (j + 1) & mask)
			continue;
		s->stamp[j] = 1;
		s->key[j] = key[i];
	}
	free(key);
	free(stamp);
}

/* Add h to s: 1 if it was not there yet. */
static int
set_add(struct recsim_set *s, uint64_t h)
{
	size_t mask = s->cap - 1, i;

	for (i = (size_t)h & mask; s->stamp[i] == s->gen; i = (i + 1) & mask)
		if (s->key[i] == h)
			return 0;
	s->stamp[i] = s->gen;
	s->key[i] = h;
	s->n++;
	return 1;
}

static int
set_has(const struct recsim_set *s, uint64_t h)
{
	size_t mask = s->cap - 1, i;

	for (i = (size_t)h & mask; s->stamp[i] == s->gen; i = (i + 1) & mask)
		if (s->key[i] == h)
			return 1;
	return 0;
}

void
recsim_init(struct recsim *r, const struct scheme *sc)
{
	memset(r, 0, sizeof(*r));
	r->leastt = -1;		/* none yet */
	shingle_init(&r->sh, sc, NULL, sink, r);
	r->cache = xreallocarray(NULL, RECSIM_CACHE, sizeof(*r->cache));
	memset(r->cache, 0xFF, RECSIM_CACHE * sizeof(*r->cache));
	r->ringcap = RECSIM_RING_MIN;
	r->ring = xreallocarray(NULL, r->ringcap, sizeof(*r->ring));
}

void
recsim_shingle(struct recsim *r, const char *text, size_t len,
    struct recsim_hashes *v)
{
	recsim_distinct_start(&r->b);
	r->dset = &r->b;
	shingle(r, v, text, len);
	r->dset = NULL;
}

void
recsim_mark(struct recsim_mark *m, const uint64_t *h, size_t n)
{
	uint64_t lo = 0, hi = 0, bit;
	size_t i;
	unsigned c;

	if (n >= RECSIM_MANY) {
		m->w[0] = n;
		m->w[1] = (uint64_t)RECSIM_MANY << 56;
		return;
	}
	for (i = 0; i < n; i++) {
		/* The high half of the hash, scaled to the classes. */
		c = (unsigned)(((h[i] >> 32) * RECSIM_CLASSES) >> 32);
		bit = (uint64_t)1 << (c & 63);
		lo |= c < 64 ? bit : 0;
		hi |= c < 64 ? 0 : bit;
	}
	m->w[0] = lo;
	m->w[1] = hi | (uint64_t)n << 56;
}

void
recsim_hold(struct recsim *r, const uint64_t *h, size_t n)
{
	struct recsim_mark m;

	recsim_mark(&m, h, n);
	recsim_hold_marked(r, h, n, &m);
}

void
recsim_hold_marked(struct recsim *r, const uint64_t *h, size_t n,
    const struct recsim_mark *m)
{
	r->held = h;
	r->nheld = n;
	r->inset = 0;
	r->heldmark = *m;
}

/* The set of the held shingles, for a scan. */
static void
held_set(struct recsim *r)
{
	size_t i;

	if (r->inset)
		return;
	set_clear(&r->a, r->nheld);
	for (i = 0; i < r->nheld; i++)
		set_add(&r->a, r->held[i]);
	r->inset = 1;
}

#define CLASS_BITS	(((uint64_t)1 << (RECSIM_CLASSES - 64)) - 1)

/*
 * The body of recsim_screen(), compiled for each level, popcnt being an
 * instruction from x86-64-v2 on.  Two records share at most the smaller
 * of na and nb shingles; and when both are classed, a class of the held
 * set that record b lacks holds a shingle b lacks, and the other way
 * round, so at most the smaller of na and nb each less the classes only
 * the other has.  Its resemblance is at most shared / (na + nb - shared),
 * which grows with shared: below t there, below t for sure.  When both
 * are classed, that test is least[na + nb] > shared, which least[]
 * makes with the same arithmetic.
 */
static inline void
screen_body(const struct recsim_mark *held, size_t na,
    const struct recsim_mark *marks, uint32_t *ids, size_t *n, double t,
    const uint16_t *least)
{
	const struct recsim_mark *b;
	uint64_t h0 = held->w[0], h1 = held->w[1] & CLASS_BITS;
	size_t i, j, nb, onlya, onlyb, shared;

	for (i = j = 0; i < *n; i++) {
		b = &marks[ids[i]];
		nb = (size_t)(b->w[1] >> 56);
		if (nb != RECSIM_MANY && na < RECSIM_MANY) {
			onlya = (size_t)__builtin_popcountll(h0 & ~b->w[0]) +
			    (size_t)__builtin_popcountll(h1 & ~b->w[1]);
			onlyb = (size_t)__builtin_popcountll(b->w[0] & ~h0) +
			    (size_t)__builtin_popcountll(b->w[1] &
			    CLASS_BITS & ~h1);
			if (onlya >= na || onlyb >= nb)
				continue;
			shared = na - onlya < nb - onlyb ? na - onlya :
			    nb - onlyb;
			if (shared < least[na + nb])
				continue;
		} else {
			if (nb == RECSIM_MANY)
				nb = (size_t)b->w[0];
			else if (nb == 0)
				continue;
			shared = na < nb ? na : nb;
			if ((double)shared / (double)(na + nb - shared) < t)
				continue;
		}
		ids[j++] = ids[i];
	}
	*n = j;
}

CPU_LEVELS(screen, (const struct recsim_mark *held, size_t na,
    const struct recsim_mark *marks, uint32_t *ids, size_t *n, double t,
    const uint16_t *least), (held, na, marks, ids, n, t, least))

/*
 * least[] (recsim.h) for threshold t.  The count depends on the sum u
 * alone, and is at most half of it (t <= 1), within the cap of the two
 * halves of u.
 */
static void
least_for(struct recsim *r, double t)
{
	size_t u;

	for (u = 0; u < 2 * RECSIM_MANY; u++)
		r->least[u] = (uint16_t)similarity_least_shared(u - u / 2,
		    u / 2, t, 1);
	r->leastt = t;
}

size_t
recsim_screen(struct recsim *r, const struct recsim_mark *marks,
    uint32_t *ids, size_t n, double t)
{
	if (r->nheld == 0)
		return 0;
	if (r->leastt != t)
		least_for(r, t);
	screen(&r->heldmark, r->nheld, marks, ids, &n, t, r->least);
	return n;
}

static struct recsim_cached *
cache_entry(struct recsim *r, uint32_t id)
{
	return &r->cache[(id * 2654435761U) % RECSIM_CACHE];
}

/*
 * Room in the ring for n hashes, which the caller writes and then enters
 * with cache_enter; NULL if n is too many to cache.
 */
static uint64_t *
ring_room(struct recsim *r, size_t n)
{
	if (n > RECSIM_RING / RING_SHARE)
		return NULL;
	/*
	 * A ring that forgets the records compared too soon is too small
	 * for them, and one record is at most its share: it grows (and
	 * forgets them all).
	 */
	while (((r->stale >= RING_SAMPLE && r->stale > r->looks / RING_STALE) ||
	    n > r->ringcap / RING_SHARE) && r->ringcap < RECSIM_RING) {
		r->ringcap *= 2;
		r->ring = xreallocarray(r->ring, r->ringcap, sizeof(*r->ring));
		r->written = 0;
		r->looks = r->stale = 0;
		memset(r->cache, 0xFF, RECSIM_CACHE * sizeof(*r->cache));
	}
	/* Never split across the end of the ring. */
	if (r->ringcap - r->written % r->ringcap < n)
		r->written += r->ringcap - r->written % r->ringcap;
	return r->ring + r->written % r->ringcap;
}

/* The n hashes just written at ring_room are those of record id. */
static void
cache_enter(struct recsim *r, uint32_t id, size_t n)
{
	struct recsim_cached *c = cache_entry(r, id);

	c->id = id;
	c->n = (uint32_t)n;
	c->pos = r->written;
	r->written += n;
}

void
recsim_remember(struct recsim *r, uint32_t id, const uint64_t *h, size_t n)
{
	uint64_t *out;

	if ((out = ring_room(r, n)) == NULL)
		return;
	memcpy(out, h, n * sizeof(*h));
	cache_enter(r, id, n);
}

void
recsim_distinct_start(struct recsim_set *s)
{
	set_clear(s, 0);
}

void
recsim_distinct_add(struct recsim_set *s, const uint64_t *h, size_t n,
    struct recsim_hashes *v)
{
	size_t i;

	/*
	 * At most half full, should all n be new: the shingler hands on
	 * batches of a few thousand, so the room follows the distinct ones.
	 */
	while (2 * (s->n + n) > s->cap)
		set_grow(s);
	if (v->cap - v->n < n) {
		while (v->cap - v->n < n)
			v->cap = v->cap ? 2 * v->cap : 256;
		v->h = xreallocarray(v->h, v->cap, sizeof(*v->h));
	}
	for (i = 0; i < n; i++)
		if (set_add(s, h[i]))
			v->h[v->n++] = h[i];
}

void
recsim_set_free(struct recsim_set *s)
{
	free(s->key);
	free(s->stamp);
	memset(s, 0, sizeof(*s));
}

/* The distinct shingles of record id in the cache, or NULL. */
static const uint64_t *
cached(struct recsim *r, uint32_t id, size_t *n)
{
	const struct recsim_cached *c = cache_entry(r, id);

	r->looks++;
	if (c->id != id)
		return NULL;
	if (r->written - c->pos > r->ringcap - c->n) {
		r->stale++;
		return NULL;
	}
	r->cached++;
	*n = c->n;
	return r->ring + c->pos % r->ringcap;
}

/*
 * The distinct shingles of record id from its text, then cached unless
 * there are too many.  Returns their number.
 */
static const uint64_t *
distinct(struct recsim *r, uint32_t id, const char *text, size_t len,
    size_t *n)
{
	uint64_t *out;

	/* Only the distinct ones are kept: memory goes by those. */
	recsim_distinct_start(&r->b);
	r->dset = &r->b;
	shingle(r, &r->tmp, text, len);
	r->dset = NULL;
	*n = r->tmp.n;
	if ((out = ring_room(r, r->tmp.n)) == NULL)
		return r->tmp.h;
	memcpy(out, r->tmp.h, r->tmp.n * sizeof(*out));
	cache_enter(r, id, r->tmp.n);
	return out;
}

/*
 * Do the distinct shingles h[0..nb) resemble the held set at t or more?
 * The answer is known as soon as too many are missing from the set: on
 * uniq's 5M lines of source, 69% of the scans fail, and a scan reads 18
 * of its 28 shingles on average.
 */
static int
resemble(struct recsim *r, const uint64_t *h, size_t nb, double t)
{
	size_t i, missing, allowed, need, na = r->nheld;

	r->compared++;
	if (na == 0 || (need = similarity_least_shared(na, nb, t, 1)) >
	    (na < nb ? na : nb))
		return 0;
	held_set(r);
	allowed = nb - need;
	for (i = missing = 0; i < nb; i++)
		if (!set_has(&r->a, h[i]) && ++missing > allowed)
			return 0;
	return 1;
}

int
recsim_similar(struct recsim *r, uint32_t id, const char *text, size_t len,
    double t)
{
	const uint64_t *h;
	size_t nb;

	h = distinct(r, id, text, len, &nb);
	return resemble(r, h, nb, t);
}

int
recsim_similar_cached(struct recsim *r, uint32_t id, double t)
{
	const uint64_t *h;
	size_t nb;

	if ((h = cached(r, id, &nb)) == NULL)
		return -1;
	return resemble(r, h, nb, t);
}

void
recsim_free(struct recsim *r)
{
	shingle_free(&r->sh);
	free(r->tmp.h);
	recsim_set_free(&r->a);
	recsim_set_free(&r->b);
	free(r->cache);
	free(r->ring);
	memset(r, 0, sizeof(*r));
}

void
recsim_hashes_free(struct recsim_hashes *v)
{
	free(v->h);
	memset(v, 0, sizeof(*v));
}
