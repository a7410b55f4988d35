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
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pool.h"
#include "record.h"
#include "source.h"
#include "uniqin.h"
#include "walk.h"
#include "xmalloc.h"

#define JOBS_AHEAD	1	/* batches sketched while one is added */
#define WORKERS		2	/* pool threads; one is busy at a time */

/* A batch of records from one file, and their sketches. */
struct job {
	char	*data;
	char	*name;
	struct dedup_item *items;
	size_t	 n, cap;
	uint64_t *keys;		/* n * b band keys */
	struct recsim_hashes sh;	/* the records' distinct shingles */
	struct job *next;	/* on the free list */
};

struct uniqin {
	struct dedup *d;
	int	 delim;
	enum recmode mode;	/* REC_LINES or REC_TSV */
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
uniqin_new(struct dedup *d, int delim, enum recmode mode, uniqin_fn *fn,
    void *ctx)
{
	struct uniqin *in = xcalloc(1, sizeof(*in));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned i;

	in->d = d;
	in->delim = delim;
	in->mode = mode;
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
	in->fn(in->ctx, j->items, done);
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

/* Cut a batch into records and queue it.  Returns 0 or EXIT_TROUBLE. */
static int
submit(struct uniqin *in, const char *name, uint64_t num, char *data,
    size_t len)
{
	struct recbatch rb;
	struct record r;
	struct job *j;
	const char *why;
	int n, rval = EXIT_OK;

	if ((j = in->free) != NULL)
		in->free = j->next;
	else
		j = xcalloc(1, sizeof(*j));
	j->data = data;
	j->name = xstrdup(name);
	j->n = 0;
	recbatch_init(&rb, in->mode, in->delim, data, len,
	    num);
	while ((n = recbatch_next(&rb, &r, &why)) != 0) {
		if (n < 0) {
			warnx("%s:%" PRIu64 ": %s", cli_vis(name), r.num, why);
			rval = EXIT_TROUBLE;
			continue;
		}
		if (j->n == j->cap) {
			j->cap = j->cap ? 2 * j->cap : 4096;
			j->items = xreallocarray(j->items, j->cap,
			    sizeof(*j->items));
			j->keys = xreallocarray(j->keys, j->cap,
			    in->d->lsh.b * sizeof(*j->keys));
		}
		j->items[j->n].rec = r.rec;
		j->items[j->n++].len = r.len;
	}
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
	int fd, n, e, rval = EXIT_OK;

	if (strcmp(name, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1) {
		warn("%s", cli_vis(name));
		return EXIT_TROUBLE;
	}
	if (cli_is_output(fd)) {
		warnx("%s: %s", cli_vis(name), walk_strerror(WALK_ISOUTPUT));
		if (fd != STDIN_FILENO)
			close(fd);
		return EXIT_TROUBLE;
	}
	if ((e = source_fd(&src, fd, fd != STDIN_FILENO, in->delim)) != 0) {
		warnc(e, "%s", cli_vis(name));
		if (fd != STDIN_FILENO)
			close(fd);
		return EXIT_TROUBLE;
	}
	recreader_init(&rr, src.fd, in->delim);
	while ((n = recreader_next(&rr, &data, &len, &num)) > 0) {
		if (n == RECORD_LONG) {
			warnx("%s:%" PRIu64 ": %s", cli_vis(name), num,
			    RECORD_LONG_WHY);
			rval = EXIT_TROUBLE;
		} else
			rval |= submit(in, name, num, data, len);
		/* Nothing more to read for now: out with what is held. */
		if (rr.idle) {
			drain(in);
			out_flush();
		}
	}
	recreader_free(&rr);
	if ((e = source_close(&src)) != 0 || n < 0) {
		cli_warn_input(name, n < 0 ? -n : e, src.why);
		src.why = NULL;
		rval = EXIT_TROUBLE;
	}
	return rval;
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
		free(j->keys);
		recsim_hashes_free(&j->sh);
		free(j);
	}
	free(in);
}
