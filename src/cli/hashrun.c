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
#include "walk.h"
#include "xmalloc.h"

struct hashrun {
	const struct hashcfg *cfg;
	struct pool *pool;
	struct walk *walk;
	struct hashworker *workers;
	void	**wctx;
	unsigned njobs;
	hashrun_emit *emit;
	void	*ctx;
	int	 rval;
};

/* Hand a finished job's lines on and report its problems, in input order. */
static void
emit(struct hashrun *r, struct hashjob *j)
{
	size_t i;

	r->emit(r->ctx, j);
	for (i = 0; i < j->nnotes; i++) {
		warnx("%s:%llu: %s", cli_vis(j->name),
		    (unsigned long long)j->notes[i].rec, j->notes[i].why);
		r->rval = EXIT_TROUBLE;
	}
	if (j->errnum != 0) {
		warnc(j->errnum, "%s", cli_vis(j->name));
		r->rval = EXIT_TROUBLE;
	}
	hashjob_free(j);
}

static void
submit(struct hashrun *r, struct hashjob *j)
{
	while (pool_full(r->pool))
		emit(r, pool_get(r->pool));
	pool_put(r->pool, j);
}

static struct hashjob *
newjob(const char *name)
{
	struct hashjob *j = xcalloc(1, sizeof(*j));

	j->name = xstrdup(name);
	return j;
}

/* A problem found by the main thread, reported in its place in order. */
static void
submit_error(struct hashrun *r, const char *name, int errnum)
{
	struct hashjob *j = newjob(name);

	j->errnum = errnum;
	j->data = xstrdup("");	/* an empty batch: nothing to hash */
	submit(r, j);
}

/* Record modes: cut the input into batches of records. */
static void
submit_records(struct hashrun *r, const char *name, int isstdin)
{
	struct recreader rr;
	struct hashjob *j;
	uint64_t first;
	char *data;
	size_t len;
	int fd, n;

	if (isstdin)
		fd = STDIN_FILENO;
	else if ((fd = open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1) {
		submit_error(r, name, errno);
		return;
	}
	recreader_init(&rr, fd, r->cfg->zero ? '\0' : '\n');
	while ((n = recreader_next(&rr, &data, &len, &first)) == 1) {
		j = newjob(name);
		j->data = data;
		j->len = len;
		j->first = first;
		submit(r, j);
	}
	if (n < 0)
		submit_error(r, name, -n);
	recreader_free(&rr);
	if (!isstdin)
		close(fd);
}

void
hashrun_operand(struct hashrun *r, const char *op)
{
	struct walk_entry e;
	struct hashjob *j;

	walk_start(r->walk, op);
	while (walk_next(r->walk, &e)) {
		if (e.errnum != 0)
			submit_error(r, e.path, e.errnum);
		else if (r->cfg->mode != REC_NONE)
			submit_records(r, e.path, e.isstdin);
		else {
			j = newjob(e.path);
			j->isstdin = e.isstdin;
			submit(r, j);
		}
	}
}

void
hashrun_files0(struct hashrun *r, const char *list)
{
	char *name = NULL;
	size_t cap = 0, n = 0;
	FILE *fp;
	int rv;

	if (strcmp(list, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(list, "r")) == NULL)
		err(EXIT_TROUBLE, "%s", cli_vis(list));
	while ((rv = walk_files0(fp, &name, &cap)) == 1) {
		n++;
		if (name[0] == '\0') {
			warnx("%s:%zu: invalid zero-length file name",
			    cli_vis(list), n);
			r->rval = EXIT_TROUBLE;
		} else if (fp == stdin && strcmp(name, "-") == 0) {
			warnx("%s:%zu: file name '-' not allowed when "
			    "reading names from standard input",
			    cli_vis(list), n);
			r->rval = EXIT_TROUBLE;
		} else
			hashrun_operand(r, name);
	}
	if (rv == -1) {
		warn("%s", cli_vis(list));
		r->rval = EXIT_TROUBLE;
	}
	free(name);
	if (fp != stdin)
		fclose(fp);
}

unsigned
hashrun_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > HASHRUN_JOBS_MAX ? HASHRUN_JOBS_MAX :
	    (unsigned)n;
}

struct hashrun *
hashrun_new(const struct hashcfg *cfg, unsigned jobs, int recursive,
    int follow, hashrun_emit *fn, void *ctx)
{
	struct hashrun *r = xcalloc(1, sizeof(*r));
	unsigned i;

	r->cfg = cfg;
	r->emit = fn;
	r->ctx = ctx;
	r->njobs = jobs;
	r->workers = xreallocarray(NULL, jobs, sizeof(*r->workers));
	r->wctx = xreallocarray(NULL, jobs, sizeof(*r->wctx));
	for (i = 0; i < jobs; i++) {
		hashworker_init(&r->workers[i], cfg);
		r->wctx[i] = &r->workers[i];
	}
	r->pool = pool_new(jobs, hashjob_run, r->wctx);
	r->walk = walk_new(recursive, follow);
	return r;
}

int
hashrun_finish(struct hashrun *r)
{
	struct hashjob *j;
	unsigned i;
	int rval;

	while ((j = pool_get(r->pool)) != NULL)
		emit(r, j);
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
