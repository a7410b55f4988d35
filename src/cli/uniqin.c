/*
 * Reading for neardup uniq.  The index takes records one at a time, in
 * order, but the sketch of a record (shingles, minhash, band keys) does
 * not depend on the records before it: a worker thread sketches the next
 * batch while the index adds this one.  Records whose text the index has
 * met before need no sketch, so the index looks the batch up first.  At
 * most JOBS_AHEAD batches are sketched ahead, so memory stays a few
 * batches' worth.
 */
#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "pool.h"
#include "record.h"
#include "source.h"
#include "uniqin.h"
#include "xmalloc.h"

#define JOBS_AHEAD	1	/* batches sketched while one is added */
/*
 * Bytes of records a batch.  A batch's sketches take many times its bytes:
 * on lines of 35 bytes, some 100 for the record's item, 8 a band key and
 * 8 a distinct shingle, about 12 times in all, and two batches are held.
 * A quarter of the readers' RECORD_BATCH took 22 MB off uniq's peak on
 * 5M lines, in the same time.
 */
#define BATCH_BYTES	(256 * 1024)
#define WORKERS		2	/* pool threads; one is busy at a time */

/* A batch of records from one file, and their sketches. */
struct job {
	char	*data;
	char	*name;
	struct dedup_item *items;
	size_t	 n, cap;
	struct uniqin_rec *recs;	/* --jsonl: the lines, beside items */
	struct buf text;	/* --jsonl: their texts and IDs */
	uint64_t *keys;		/* n * b band keys */
	struct recsim_hashes sh;	/* the records' distinct shingles */
	struct job *next;	/* on the free list */
};

struct uniqin {
	struct dedup *d;
	struct recopts *rec;
	uniqin_fn *fn;
	void	*ctx;
	struct pool *pool;
	struct dedup_sketcher sk[WORKERS];
	void	*wctx[WORKERS];
	size_t	 inflight;
	struct job *free;	/* jobs to reuse */
};

static void
sketch(void *wctx, void *item)
{
	struct job *j = item;

	dedup_sketch(wctx, j->items, j->n, j->keys, &j->sh);
}

struct uniqin *
uniqin_new(struct dedup *d, struct recopts *rec, uniqin_fn *fn, void *ctx)
{
	struct uniqin *in = xcalloc(1, sizeof(*in));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned i;

	in->d = d;
	in->rec = rec;
	in->fn = fn;
	in->ctx = ctx;
	for (i = 0; i < WORKERS; i++) {
		dedup_sketcher_init(&in->sk[i], d);
		in->wctx[i] = &in->sk[i];
	}
	/* One thread means none: the sketches are made in turn. */
	in->pool = pool_new(ncpu > 1 ? WORKERS : 1, sketch, in->wctx);
	return in;
}

/* Add a sketched batch to the index, hand it over, keep the job. */
static void
consume(struct uniqin *in, struct job *j)
{
	size_t done;

	done = dedup_batch(in->d, j->items, j->n, j->keys, &j->sh);
	in->fn(in->ctx, j->name, j->items,
	    in->rec->mode == REC_JSONL ? j->recs : NULL, done);
	if (done < j->n)
		errx(EXIT_TROUBLE, "%s: more than %zu distinct records",
		    cli_vis(j->name), dedup_kept(in->d));
	free(j->data);
	free(j->name);
	j->data = j->name = NULL;
	j->next = in->free;
	in->free = j;
	in->inflight--;
}

/* Add every batch in flight, in order. */
static void
drain(struct uniqin *in)
{
	struct job *j;

	while ((j = pool_get(in->pool)) != NULL)
		consume(in, j);
}

/* Room for one more record in job j. */
static void
grow(struct uniqin *in, struct job *j)
{
	if (j->n < j->cap)
		return;
	j->cap = j->cap ? 2 * j->cap : 4096;
	j->items = xreallocarray(j->items, j->cap, sizeof(*j->items));
	j->keys = xreallocarray(j->keys, j->cap,
	    in->d->lsh.b * sizeof(*j->keys));
	if (in->rec->mode == REC_JSONL)
		j->recs = xreallocarray(j->recs, j->cap, sizeof(*j->recs));
}

/*
 * A JSON Lines record: its text (what the index is given) and its ID are
 * copied to the job's buffer, where they are found once it is whole, and
 * its line is kept beside.
 */
static void
add_jsonl(struct job *j, const struct record *r)
{
	struct uniqin_rec *u = &j->recs[j->n];

	j->items[j->n].rec = (const char *)(uintptr_t)j->text.len;
	j->items[j->n].len = r->tlen;
	buf_add(&j->text, r->text, r->tlen);
	u->line = r->rec;
	u->len = r->len;
	u->id = r->id == NULL ? NULL : (const char *)(uintptr_t)j->text.len;
	u->idlen = r->idlen;
	u->num = r->num;
	if (r->id != NULL)
		buf_add(&j->text, r->id, r->idlen);
}

/* The buffer of texts is whole: from offsets to pointers. */
static void
place_jsonl(struct job *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		j->items[i].rec = j->text.data + (uintptr_t)j->items[i].rec;
		if (j->recs[i].id != NULL)
			j->recs[i].id = j->text.data +
			    (uintptr_t)j->recs[i].id;
	}
}

/* Cut a batch into records and queue it.  Returns 0 or EXIT_TROUBLE. */
static int
submit(struct uniqin *in, const char *name, uint64_t num, char *data,
    size_t len)
{
	struct recbatch rb;
	struct record r;
	struct job *j;
	const char *why;
	int n, rval = EXIT_OK, jsonl = in->rec->mode == REC_JSONL;

	if ((j = in->free) != NULL)
		in->free = j->next;
	else
		j = xcalloc(1, sizeof(*j));
	j->data = data;
	j->name = xstrdup(name);
	j->n = 0;
	buf_clear(&j->text);
	recbatch_init(&rb, in->rec->mode, in->rec->delim, data, len, num);
	recbatch_jsonl(&rb, &in->rec->js);
	while ((n = recbatch_next(&rb, &r, &why)) != 0) {
		if (n < 0 || (jsonl && r.id != NULL &&
		    (why = record_name_why(&r)) != NULL)) {
			rval |= recopts_bad(in->rec, name, r.num, why);
			continue;
		}
		grow(in, j);
		if (jsonl)
			add_jsonl(j, &r);
		else {
			j->items[j->n].rec = r.rec;
			j->items[j->n].len = r.len;
		}
		j->n++;
	}
	recbatch_free(&rb);
	if (jsonl)
		place_jsonl(j);
	/* Texts met before need no sketch: look them up first. */
	dedup_look(in->d, j->items, j->n);
	pool_put(in->pool, j);
	in->inflight++;
	while (in->inflight > JOBS_AHEAD)
		consume(in, pool_get(in->pool));
	return rval;
}

int
uniqin_file(struct uniqin *in, const char *name)
{
	struct recreader rr;
	struct source src;
	uint64_t num;
	char *data;
	size_t len;
	int n, rval = EXIT_OK;

	if (recopts_open(in->rec, name, &rr, &src) == -1)
		return EXIT_TROUBLE;
	recreader_batch(&rr, BATCH_BYTES);
	while ((n = recreader_next(&rr, &data, &len, &num)) > 0) {
		if (n == RECORD_LONG)
			rval |= recopts_bad(in->rec, name, num, rr.longwhy);
		else
			rval |= submit(in, name, num, data, len);
		/* Nothing more to read for now: out with what is held. */
		if (rr.idle) {
			drain(in);
			out_flush();
		}
	}
	return rval | recopts_close(&rr, &src, name, n);
}

void
uniqin_end(struct uniqin *in)
{
	struct job *j;
	unsigned i;

	drain(in);
	pool_free(in->pool);
	for (i = 0; i < WORKERS; i++)
		dedup_sketcher_free(&in->sk[i]);
	while ((j = in->free) != NULL) {
		in->free = j->next;
		free(j->items);
		free(j->recs);
		buf_free(&j->text);
		free(j->keys);
		recsim_hashes_free(&j->sh);
		free(j);
	}
	free(in);
}
