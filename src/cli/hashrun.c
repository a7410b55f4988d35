/*
 * Hashing documents through the ordered pool (see hashrun.h).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hashrun.h"
#include "pool.h"
#include "progress.h"
#include "source.h"
#include "walk.h"
#include "xmalloc.h"

/*
 * Whole files go to the workers in batches of up to BATCH_DOCS files or
 * about BATCH_BYTES bytes, so that a tree of small files costs one hand-off
 * per batch, not per file.
 */
#define BATCH_DOCS	64
#define BATCH_BYTES	(1 << 20)

struct hashrun {
	struct hashcfg cfg;	/* the caller's, and hashrun_texts() */
	hashrun_texts_fn *texts;
	struct pool *pool;
	struct walk *walk;
	struct hashworker *workers;
	void	**wctx;
	unsigned njobs;
	hashrun_emit *emit;
	void	*ctx;
	struct recopts *rec;	/* reports bad records, or NULL */
	int	 rval;

	struct hashjob *batch;	/* files not yet handed to the pool */
	size_t	 batchcap;
	long long batchbytes;
};

int
hashrun_note(const struct hashdoc *d)
{
	const char *p;
	size_t i;

	/* Not an error: a note that the file was passed over. */
	if (d->binary)
		warnx("%s: binary file skipped", cli_vis(d->name));
	for (i = 0; i < d->skipped.len; i += strlen(p) + 1) {
		p = d->skipped.data + i;
		warnx("%s: binary file skipped", cli_vis(p));
	}
	if (d->errnum == 0)
		return 0;
	cli_warn_input(d->name, d->errnum, d->errnum == SOURCE_BROKEN &&
	    d->why != NULL ? xstrdup(d->why) : NULL);
	return d->errnum != WALK_NOTREG;
}

/* Hand a finished job's lines on and report its problems, in input order. */
static void
emit(struct hashrun *r, struct hashjob *j)
{
	const struct hashdoc *d;
	size_t i, start = 0;

	progress_job(j);
	for (i = 0; i < j->ndocs; i++) {
		d = &j->docs[i];
		/* A batch of unreadable files has no lines, nor out.data. */
		if (d->end > start)
			r->emit(r->ctx, j->out.data + start, d->end - start);
		start = d->end;
		if (hashrun_note(d) != 0)
			r->rval = EXIT_TROUBLE;
	}
	if (j->docs != NULL) {
		hashjob_free(j);
		return;
	}
	if (j->out.len > 0)
		r->emit(r->ctx, j->out.data, j->out.len);
	if (r->texts != NULL && j->ntexts > 0)
		r->texts(r->ctx, j->texts.data, j->tlen, j->ntexts);
	for (i = 0; i < j->nnotes; i++) {
		if (r->rec != NULL)
			r->rval |= recopts_bad(r->rec, j->name,
			    j->notes[i].rec, j->notes[i].why);
		else {
			warnx("%s:%llu: %s", cli_vis(j->name),
			    (unsigned long long)j->notes[i].rec,
			    j->notes[i].why);
			r->rval = EXIT_TROUBLE;
		}
	}
	if (j->errnum == SOURCE_BROKEN) {
		warnx("%s: %s", cli_vis(j->name), j->why);
		r->rval = EXIT_TROUBLE;
	} else if (j->errnum != 0) {
		warnc(j->errnum, "%s", cli_vis(j->name));
		r->rval = EXIT_TROUBLE;
	}
	hashjob_free(j);
}

/* Emit every job in flight, in order. */
static void
drain(struct hashrun *r)
{
	struct hashjob *j;

	while ((j = pool_get(r->pool)) != NULL)
		emit(r, j);
}

static void
submit(struct hashrun *r, struct hashjob *j)
{
	while (pool_full(r->pool))
		emit(r, pool_get(r->pool));
	pool_put(r->pool, j);
}

/* Hand the pending batch of files to the pool. */
static void
flush_batch(struct hashrun *r)
{
	if (r->batch == NULL)
		return;
	submit(r, r->batch);
	r->batch = NULL;
	r->batchbytes = 0;
}

/*
 * Add a file (or a problem found by the main thread, errnum != 0) to the
 * pending batch; size is its length in bytes, or -1 if unknown.
 */
static void
add_doc(struct hashrun *r, const char *name, int isstdin, int errnum,
    long long size)
{
	struct hashjob *j;
	struct hashdoc *d;

	if ((j = r->batch) == NULL) {
		j = r->batch = xcalloc(1, sizeof(*j));
		if (r->batchcap == 0)
			r->batchcap = r->njobs > 1 ? BATCH_DOCS : 1;
		j->docs = xreallocarray(NULL, r->batchcap, sizeof(*j->docs));
	}
	d = &j->docs[j->ndocs++];
	d->name = xstrdup(name);
	d->isstdin = isstdin;
	d->errnum = errnum;
	d->why = NULL;
	memset(&d->skipped, 0, sizeof(d->skipped));
	d->binary = 0;
	d->end = 0;
	r->batchbytes += size > 0 ? size : 0;
	/* Of unknown length (a FIFO, a device): it may take long. */
	if (j->ndocs == r->batchcap || isstdin || size < 0 ||
	    r->batchbytes >= BATCH_BYTES)
		flush_batch(r);
}

static struct hashjob *
newjob(const char *name)
{
	struct hashjob *j = xcalloc(1, sizeof(*j));

	j->name = xstrdup(name);
	return j;
}

/* Record modes: cut the input into batches of records. */
static void
submit_records(struct hashrun *r, const char *name, int isstdin)
{
	struct recreader rr;
	struct source src;
	struct hashjob *j;
	uint64_t first;
	char *data;
	size_t len;
	int delim = r->cfg.zero ? '\0' : '\n', n, e;

	flush_batch(r);
	if ((e = source_open(&src, name, isstdin, delim, 0)) != 0) {
		add_doc(r, name, 0, e, 0);
		return;
	}
	recreader_init(&rr, src.fd, delim);
	if (r->cfg.mode == REC_JSONL)
		recreader_limit(&rr, RECORD_JSONL_MAX, RECORD_JSONL_WHY);
	while ((n = recreader_next(&rr, &data, &len, &first)) > 0) {
		j = newjob(name);
		j->first = first;
		if (n == RECORD_LONG) {
			/* An empty batch that reports it, in its place. */
			j->notes = xmalloc(sizeof(*j->notes));
			j->notes[0].rec = first;
			j->notes[0].why = rr.longwhy;
			j->nnotes = 1;
		} else {
			j->data = data;
			j->len = len;
		}
		submit(r, j);
		/* Nothing more to read for now: out with what is held. */
		if (rr.idle) {
			drain(r);
			out_flush();
		}
	}
	recreader_free(&rr);
	if ((e = source_close(&src)) != 0 || n < 0) {
		j = newjob(name);
		j->errnum = n < 0 ? -n : e;
		if (j->errnum == SOURCE_BROKEN)
			j->why = xstrdup(src.why);
		submit(r, j);
	}
	source_free(&src);
}

void
hashrun_texts(struct hashrun *r, hashrun_texts_fn *fn)
{
	r->texts = fn;
	r->cfg.texts = 1;
}

void
hashrun_records(struct hashrun *r, struct recopts *rec)
{
	r->rec = rec;
}

void
hashrun_operand(struct hashrun *r, const char *op)
{
	struct walk_entry e;

	walk_start(r->walk, op);
	while (walk_next(r->walk, &e)) {
		if (e.errnum != 0)
			add_doc(r, e.path, 0, e.errnum, 0);
		else if (r->cfg.mode != REC_NONE)
			submit_records(r, e.path, e.isstdin);
		else
			add_doc(r, e.path, e.isstdin, 0, e.size);
	}
}

/* A name of a --files0-from list, hashed as an operand. */
static void
files0_name(void *ctx, const char *name)
{
	hashrun_operand(ctx, name);
}

void
hashrun_files0(struct hashrun *r, const char *list)
{
	r->rval |= cli_files0(list, files0_name, r);
}

unsigned
hashrun_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > HASHRUN_JOBS_MAX ? HASHRUN_JOBS_MAX :
	    (unsigned)n;
}

struct hashrun *
hashrun_new(const struct hashcfg *cfg, unsigned jobs,
    const struct walkopts *wo, hashrun_emit *fn, void *ctx)
{
	struct hashrun *r = xcalloc(1, sizeof(*r));
	unsigned i;

	r->cfg = *cfg;
	r->emit = fn;
	r->ctx = ctx;
	r->njobs = jobs;
	r->workers = xreallocarray(NULL, jobs, sizeof(*r->workers));
	r->wctx = xreallocarray(NULL, jobs, sizeof(*r->wctx));
	for (i = 0; i < jobs; i++) {
		hashworker_init(&r->workers[i], &r->cfg);
		r->wctx[i] = &r->workers[i];
	}
	r->pool = pool_new(jobs, hashjob_run, r->wctx);
	r->walk = cli_walk(wo);
	return r;
}

int
hashrun_finish(struct hashrun *r)
{
	unsigned i;
	int rval;

	flush_batch(r);
	drain(r);
	pool_free(r->pool);
	walk_free(r->walk);
	for (i = 0; i < r->njobs; i++)
		hashworker_free(&r->workers[i]);
	free(r->workers);
	free(r->wctx);
	rval = r->rval;
	free(r);
	return rval;
}
