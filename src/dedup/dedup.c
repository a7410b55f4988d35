/*
 * The near-duplicate index: a table of whole-text hashes, a table of band
 * keys for candidates, and the exact resemblance that confirms them.
 *
 * The text table holds the text of each kept record, and of each record
 * found a near-duplicate (mapped to its kept record): a text met again,
 * as most repeated lines are, needs neither a sketch nor candidates.
 *
 * A band key shared by many kept records says little (a common stretch
 * of text gives every record that holds it the same minima), and would
 * cost a resemblance for each of them with every new record that shares
 * it.  So a band key holds at most DEDUP_CHAINMAX records, the earliest:
 * the records after them are found by their other bands.
 */
#include <stdlib.h>
#include <string.h>

#include "dedup.h"
#include "record.h"
#include "xmalloc.h"
#include "xxh.h"

#define RECORDS_MIN	1024
#define TEXT_AHEAD_MIN	(1024 * 1024)	/* text faulted in ahead from here */
#define SLOT_TEXT	0	/* the prefault slot of the text */
#define TAG_TEXT	0x7465787468617368ULL	/* the whole-text hash */

void
dedup_bands(struct lsh *l, double t)
{
	lsh_choose(l, t, DEDUP_K, DEDUP_MAXB, LSH_FPW, LSH_FNW);
}

void
dedup_init(struct dedup *d, const struct scheme *sc, double t,
    const struct reckey *key)
{
	memset(d, 0, sizeof(*d));
	d->sc = *sc;
	dedup_bands(&d->lsh, t);
	d->sc.algo = ALGO_MINHASH;
	d->sc.size = d->lsh.b * d->lsh.r;
	d->sc.weighted = 0;
	d->sc.wdigest = 0;
	d->t = t;
	d->key = *key;
	recsim_init(&d->rs, &d->sc);
	d->cap = RECORDS_MIN;
	d->off = xreallocarray(NULL, d->cap + 1, sizeof(*d->off));
	d->off[0] = 0;
	d->mark = xreallocarray(NULL, d->cap, sizeof(*d->mark));
	(void)buf_reserve(&d->text, 1);	/* never a null text pointer */
	/* One thread grows both tables, one faults the text in ahead. */
	d->textask = TEXT_AHEAD_MIN;
	d->pf = prefault_new(SLOT_TEXT + 1);
	d->bg = bgjob_new();
	tagmap_init(&d->exact, d->bg);
	tagmap_init(&d->bands, d->bg);
	d->nrecent = DEDUP_RECENT_MIN;
	d->recent = xcalloc(d->nrecent, sizeof(*d->recent));
	dedup_sketcher_init(&d->one, d);
	d->onekeys = xreallocarray(NULL, d->lsh.b, sizeof(*d->onekeys));
}

/* The shingler's sink: the distinct shingles of the record to its store. */
static void
distinct_sink(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct dedup_sketcher *k = ctx;

	(void)w;
	recsim_distinct_add(&k->set, h, n, k->store);
}

void
dedup_sketcher_init(struct dedup_sketcher *k, const struct dedup *d)
{
	unsigned n;

	memset(k, 0, sizeof(*k));
	k->sc = d->sc;
	k->lsh = d->lsh;
	k->key = d->key;
	shingle_init(&k->sh, &k->sc, NULL, distinct_sink, k);
	/* Whole groups of eight for the AVX2 loop; the rest go unused. */
	n = (k->sc.size + 7) & ~7u;
	minhash_init(&k->mh, n, 0, k->sc.seed);
	k->sig = xreallocarray(NULL, n, sizeof(*k->sig));
}

/* The distinct shingles of a record, into store. */
static void
shingles(struct dedup_sketcher *k, struct dedup_item *it,
    struct recsim_hashes *store)
{
	const char *text;
	size_t tlen;

	text = record_key(&k->key, it->rec, it->len, &tlen);
	it->shoff = store->n;
	k->store = store;
	recsim_distinct_start(&k->set);
	shingle_feed(&k->sh, text, tlen);
	shingle_end(&k->sh);
	it->shingled = 1;
	it->nsh = store->n - it->shoff;
	recsim_mark(&it->mark, store->h + it->shoff, it->nsh);
}

/*
 * The key of a band of r values.  These keys are never printed, unlike
 * those of lsh_band_key(), so they need not be portable: a multiply and a
 * shift a value, not an XXH3 call a band, which took the sketching
 * threads 0.5 s of 5M lines (bench/README.md).  Keys that collide only
 * cost a candidate, which its resemblance then rules out.
 */
static uint64_t
band_key(const uint64_t *v, unsigned r, unsigned band, uint64_t seed)
{
	uint64_t x = seed ^ ((uint64_t)(band + 1) * 0x9E3779B97F4A7C15ULL);
	unsigned j;

	for (j = 0; j < r; j++) {
		x = (x ^ (uint32_t)v[j]) * 0xff51afd7ed558ccdULL;
		x ^= x >> 29;
	}
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 32);
}

/* Sketch one record: shingles (the distinct ones to store), band keys. */
static void
sketch(struct dedup_sketcher *k, struct dedup_item *it, uint64_t *keys,
    struct recsim_hashes *store)
{
	unsigned band;

	shingles(k, it, store);
	it->sketched = 1;
	if ((it->empty = it->nsh == 0))
		return;
	/* The distinct shingles give the minima that all of them give. */
	minhash_reset(&k->mh);
	minhash_add_distinct(&k->mh, store->h + it->shoff, it->nsh);
	minhash_final(&k->mh, k->sig);
	for (band = 0; band < k->lsh.b; band++)
		keys[band] = band_key(k->sig + band * k->lsh.r, k->lsh.r,
		    band, k->sc.seed);
}

void
dedup_sketch(struct dedup_sketcher *k, struct dedup_item *items, size_t n,
    uint64_t *keys, struct recsim_hashes *store)
{
	size_t i;

	store->n = 0;
	for (i = 0; i < n; i++) {
		items[i].sketched = items[i].shingled = 0;
		if (items[i].seen == TAGMAP_NONE && !items[i].repeat)
			sketch(k, &items[i], keys + i * k->lsh.b, store);
		else if (!items[i].same)
			shingles(k, &items[i], store);
	}
}

void
dedup_sketcher_free(struct dedup_sketcher *k)
{
	shingle_free(&k->sh);
	minhash_free(&k->mh);
	free(k->sig);
	recsim_set_free(&k->set);
	memset(k, 0, sizeof(*k));
}

/*
 * The kept record with text p[0..len) and hash key, or TAGMAP_NONE.  The
 * table also maps the text of each near-duplicate to the record it
 * duplicates: the first such record under the key is put in *seen.
 */
static uint32_t
exact_find(const struct dedup *d, uint64_t key, const char *p, size_t len,
    uint32_t *seen)
{
	struct tagmap_cursor c;
	const char *rec, *text;
	size_t rlen, tlen;
	uint32_t id;

	*seen = TAGMAP_NONE;
	tagmap_seek(&d->exact, key, &c);
	while ((id = tagmap_next(&c)) != TAGMAP_NONE) {
		rec = dedup_record(d, id, &rlen);
		text = record_key(&d->key, rec, rlen, &tlen);
		if (tlen == len && memcmp(text, p, len) == 0)
			break;
		if (*seen == TAGMAP_NONE)
			*seen = id;
	}
	return id;
}

/*
 * Has candidate id been met for this record already?  If not, it is now.
 * A small table of the ids met, emptied in O(1) by a new generation.
 */
static int
met(struct dedup *d, uint32_t id)
{
	uint64_t want = d->metgen | id, *m;
	size_t i;

	for (i = (id * 2654435761U) >> 24; (*(m = &d->met[i]) & ~(uint64_t)
	    UINT32_MAX) == d->metgen; i = (i + 1) % DEDUP_MET)
		if (*m == want)
			return 1;
	*m = want;
	return 0;
}

/*
 * The kept records sharing a band with the current one, each once, in
 * the order the bands give them.  The mark of each is asked for, to be
 * screened next.
 */
static void
candidates(struct dedup *d, const uint64_t *keys)
{
	struct tagmap_cursor c;
	size_t n = 0, held;
	unsigned band;
	uint32_t id;

	_Static_assert(DEDUP_MET >= 2 * DEDUP_MAXB * DEDUP_CHAINMAX &&
	    DEDUP_MET == 256, "met() takes 8 bits of a hash");
	/* A generation in the high half; after 2^32 - 1, all anew. */
	if ((d->metgen += (uint64_t)1 << 32) == 0) {
		memset(d->met, 0, sizeof(d->met));
		d->metgen = (uint64_t)1 << 32;
	}
	for (band = 0; band < d->lsh.b; band++) {
		tagmap_seek(&d->bands, keys[band], &c);
		for (held = 0; held < DEDUP_CHAINMAX &&
		    (id = tagmap_next(&c)) != TAGMAP_NONE; held++) {
			if (met(d, id))
				continue;
			__builtin_prefetch(&d->mark[id]);
			d->cand[n++] = id;
		}
		d->full[band] = held == DEDUP_CHAINMAX;
	}
	d->ncand = n;
	d->st.candidates += n;
}

/* Sort the n candidates left, few as a rule, into the order they came. */
static void
sort_ids(uint32_t *ids, size_t n)
{
	size_t i, j;
	uint32_t id;

	for (i = 1; i < n; i++) {
		id = ids[i];
		for (j = i; j > 0 && ids[j - 1] > id; j--)
			ids[j] = ids[j - 1];
		ids[j] = id;
	}
}

/*
 * Append len bytes of kept text.  The pages after them, a sixteenth of the
 * text's length, are faulted in ahead by the prefault thread: the text
 * grows by some 85 MB for 5M lines, and on a virtual machine the first
 * write of each page is dear.  Each time half of that is written, the
 * next stretch is asked for.  The buffer never moves while a stretch is
 * asked for: it grows only after the slot is dropped.
 */
static void
add_text(struct dedup *d, const char *p, size_t len)
{
	struct buf *t = &d->text;
	size_t ahead;

	if (d->pf != NULL && t->len + len > d->textask) {
		ahead = t->len / 16 > TEXT_AHEAD_MIN ? t->len / 16 :
		    TEXT_AHEAD_MIN;
		if (t->cap - t->len < len + ahead) {
			prefault_drop(d->pf, SLOT_TEXT);
			(void)buf_reserve(t, len + ahead);
		}
		/* From the page after the one being written now. */
		prefault_ask(d->pf, SLOT_TEXT, t->data + t->len + len, ahead);
		d->textask = t->len + len + ahead / 2;
	}
	buf_add(t, p, len);
}

/*
 * Keep record it, under its band keys unless it has no shingles; its
 * distinct shingles sh[0..nsh) are remembered for the comparisons to come.
 */
static int
keep(struct dedup *d, struct dedup_item *it, const uint64_t *keys,
    const uint64_t *sh)
{
	unsigned band;

	if (d->n >= TAGMAP_NONE - 1)
		return -1;
	if (d->n == d->cap) {
		d->cap *= 2;
		d->off = xreallocarray(d->off, d->cap + 1, sizeof(*d->off));
		d->mark = xreallocarray(d->mark, d->cap, sizeof(*d->mark));
	}
	add_text(d, it->rec, it->len);
	d->off[d->n + 1] = d->text.len;
	d->mark[d->n] = it->mark;
	it->kept = 1;
	it->id = (uint32_t)d->n++;
	tagmap_add(&d->exact, it->xkey, it->id);
	if (!it->empty) {
		for (band = 0; band < d->lsh.b; band++)
			if (!d->full[band])
				tagmap_add(&d->bands, keys[band], it->id);
		recsim_remember(&d->rs, it->id, sh, it->nsh);
	}
	return 0;
}

/*
 * Is kept record id, which its mark did not rule out, similar enough to
 * the held record?  The text is read only if the cache does not have its
 * shingles.
 */
static int
similar(struct dedup *d, uint32_t id)
{
	const char *krec, *ktext;
	size_t klen;
	int r;

	if ((r = recsim_similar_cached(&d->rs, id, d->t)) >= 0)
		return r;
	krec = dedup_record(d, id, &klen);
	ktext = record_key(&d->key, krec, klen, &klen);
	return recsim_similar(&d->rs, id, ktext, klen, d->t);
}

/*
 * Add one record.  Byte-identical to a kept record, it is its duplicate.
 * The same text as an earlier near-duplicate is (almost surely: the table
 * keeps 37 bits of the text's hash) a near-duplicate of the same kept
 * record: that is checked first.  Otherwise its candidates are checked in
 * order, and if none is similar enough it is kept.
 */
static int
add(struct dedup *d, struct dedup_item *it, uint64_t *keys,
    const struct recsim_hashes *store)
{
	const uint64_t *sh, *h;
	const char *text;
	size_t tlen, i, hn;
	uint32_t id, seen;
	int held = 0;

	d->st.records++;
	text = record_key(&d->key, it->rec, it->len, &tlen);
	it->kept = 0;
	if (!it->same) {
		/* Records added since the look may have this text. */
		if ((id = exact_find(d, it->xkey, text, tlen, &seen)) !=
		    TAGMAP_NONE) {
			it->seen = id;
			it->same = 1;
		} else
			it->seen = seen;
	}
	if (it->same) {
		d->st.exact++;
		it->id = it->seen;
		return 0;
	}
	if (it->seen != TAGMAP_NONE) {
		/* Shingled by the sketcher, as a rule. */
		if (it->shingled) {
			hn = it->nsh;
			h = hn > 0 ? store->h + it->shoff : NULL;
		} else {
			recsim_shingle(&d->rs, text, tlen, &d->hs);
			hn = d->hs.n;
			h = d->hs.h;
		}
		if (hn > 0) {
			if (it->shingled)
				recsim_hold_marked(&d->rs, h, hn, &it->mark);
			else
				recsim_hold(&d->rs, h, hn);
			held = 1;
			id = it->seen;
			if (recsim_screen(&d->rs, d->mark, &id, 1, d->t) &&
			    similar(d, id)) {
				d->st.near++;
				it->id = it->seen;
				return 0;
			}
		}
	}
	if (!it->sketched) {
		/* The held shingles may have been in onesh: held anew. */
		d->onesh.n = 0;
		sketch(&d->one, it, keys, &d->onesh);
		store = &d->onesh;
		held = 0;
	}
	sh = store->h != NULL ? store->h + it->shoff : NULL;
	if (it->empty)
		return keep(d, it, keys, sh);
	candidates(d, keys);
	if (d->ncand > 0 && !held)
		recsim_hold_marked(&d->rs, sh, it->nsh, &it->mark);
	d->ncand = recsim_screen(&d->rs, d->mark, d->cand, d->ncand, d->t);
	/* The earliest similar record is the one: in their order. */
	sort_ids(d->cand, d->ncand);
	for (i = 0; i < d->ncand; i++) {
		if (similar(d, d->cand[i])) {
			d->st.near++;
			it->id = d->cand[i];
			/* Its text will lead straight there next time. */
			tagmap_add(&d->exact, it->xkey, it->id);
			return 0;
		}
	}
	return keep(d, it, keys, sh);
}

/*
 * Look up the texts of a batch in the table.  Records of the batch, or of
 * the one before (not yet added), may have the same text as an earlier
 * record: that is found by remembering the hashes of recent texts, and
 * such a record will be found in the table once the earlier one is added.
 * (If it is not, because two hashes met in recent, or two that share
 * the half of their bits kept there, it is sketched then.)
 */
void
dedup_look(struct dedup *d, struct dedup_item *items, size_t n)
{
	struct dedup_item *it;
	const char *text;
	size_t i, tlen;
	uint32_t *r;
	uint32_t id, seen;

	for (i = 0; i < n; i++) {
		text = record_key(&d->key, items[i].rec, items[i].len, &tlen);
		items[i].xkey = xxh_bytes(text, tlen, d->sc.seed ^ TAG_TEXT);
	}
	for (i = 0; i < n + DEDUP_AHEAD; i++) {
		if (i < n)
			tagmap_prefetch(&d->exact, items[i].xkey);
		if (i < DEDUP_AHEAD)
			continue;
		it = &items[i - DEDUP_AHEAD];
		text = record_key(&d->key, it->rec, it->len, &tlen);
		id = exact_find(d, it->xkey, text, tlen, &seen);
		it->same = id != TAGMAP_NONE;
		it->seen = it->same ? id : seen;
		/* By the low bits of the hash, its high half kept. */
		r = &d->recent[it->xkey & (d->nrecent - 1)];
		it->repeat = it->seen == TAGMAP_NONE &&
		    *r == (uint32_t)(it->xkey >> 32);
		*r = (uint32_t)(it->xkey >> 32);
	}
	/* Room for a few records' worth, lost now and then, is plenty. */
	if ((d->looked += n) > 2 * d->nrecent && d->nrecent < DEDUP_RECENT) {
		free(d->recent);
		d->nrecent *= 4;
		d->recent = xcalloc(d->nrecent, sizeof(*d->recent));
	}
}

/* Will the index look record it up by its band keys? */
static int
banded(const struct dedup_item *it)
{
	return !it->same && it->sketched && !it->empty;
}

/*
 * The table slots of a record are asked for DEDUP_AHEAD records before it
 * is added: a lookup in a large table otherwise waits for memory.  Half
 * way there, those slots are in, and the bucket after a full one is asked
 * for as well.
 */
size_t
dedup_batch(struct dedup *d, struct dedup_item *items, size_t n,
    uint64_t *keys, const struct recsim_hashes *store)
{
	size_t i, j;
	unsigned band, b = d->lsh.b;

	for (i = 0; i < n + DEDUP_AHEAD; i++) {
		if (i < n && !items[i].same)
			tagmap_prefetch(&d->exact, items[i].xkey);
		if (i < n && banded(&items[i]))
			for (band = 0; band < b; band++)
				tagmap_prefetch(&d->bands,
				    keys[i * b + band]);
		if (i >= DEDUP_AHEAD / 2 && (j = i - DEDUP_AHEAD / 2) < n &&
		    banded(&items[j]))
			for (band = 0; band < b; band++)
				tagmap_prefetch_next(&d->bands,
				    keys[j * b + band]);
		if (i >= DEDUP_AHEAD && (j = i - DEDUP_AHEAD) < n &&
		    add(d, &items[j], keys + j * b, store) == -1)
			return j;
	}
	return n;
}

int
dedup_add(struct dedup *d, const char *rec, size_t len, uint32_t *id)
{
	struct dedup_item it;

	it.rec = rec;
	it.len = len;
	dedup_look(d, &it, 1);
	dedup_sketch(&d->one, &it, 1, d->onekeys, &d->onesh);
	if (dedup_batch(d, &it, 1, d->onekeys, &d->onesh) != 1)
		return -1;
	*id = it.id;
	return it.kept ? DEDUP_KEPT : DEDUP_DUP;
}

const char *
dedup_record(const struct dedup *d, uint32_t id, size_t *len)
{
	*len = (size_t)(d->off[id + 1] - d->off[id]);
	return d->text.data + d->off[id];
}

size_t
dedup_kept(const struct dedup *d)
{
	return d->n;
}

size_t
dedup_memory(const struct dedup *d)
{
	return (d->n + 1) * sizeof(*d->off) + d->n * sizeof(*d->mark) +
	    tagmap_memory(&d->exact) + tagmap_memory(&d->bands);
}

void
dedup_free(struct dedup *d)
{
	recsim_free(&d->rs);
	recsim_hashes_free(&d->hs);
	dedup_sketcher_free(&d->one);
	recsim_hashes_free(&d->onesh);
	free(d->recent);
	free(d->onekeys);
	if (d->pf != NULL)
		prefault_drop(d->pf, SLOT_TEXT);
	buf_free(&d->text);
	free(d->off);
	free(d->mark);
	tagmap_free(&d->exact);
	tagmap_free(&d->bands);
	bgjob_free(d->bg);
	prefault_free(d->pf);
	memset(d, 0, sizeof(*d));
}
