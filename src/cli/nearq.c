/*
 * neardup near's queries: fingerprint lines, documents hashed as the
 * index was (--docs), JSON Lines records (--docs --jsonl), and the names
 * of a --files0-from list.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "hashjob.h"
#include "hashrun.h"
#include "members.h"
#include "nearq.h"
#include "progress.h"
#include "record.h"

void
nearq_lines(struct near *r, const char *path)
{
	struct fpset q = { 0 };
	char sch[SCHEME_MAX], want[SCHEME_MAX];
	size_t i;

	q.hint_text = "queries that are documents need --docs";
	q.hint_dir = "queries in it need --docs -r";
	/* After a read error, the lines read before it are still asked. */
	if (fpset_load(&q, path, r->rep.zero, r->mode == NEAR_DISTANCE) == -1)
		r->rval = EXIT_TROUBLE;
	if (q.n > 0 && r->ix.have_sc && !scheme_equal(&q.sc, &r->ix.sc)) {
		scheme_format(&q.sc, sch);
		scheme_format(&r->ix.sc, want);
		errx(EXIT_TROUBLE, "%s: scheme %s differs from the index's %s",
		    cli_vis(path), sch, want);
	}
	/* An empty index: the queries say how they are searched. */
	if (q.n > 0)
		nearix_scheme(r, path, &q.sc);
	for (i = 0; i < q.n; i++)
		nearix_query(r, fpset_name(&q, i), q.v + i *
		    scheme_nvalues(&q.sc));
	fpset_free(&q);
}

/* Query with a member's values (a hashdoc_fn). */
static void
query_member(void *ctx, const char *name, size_t len, const uint64_t *v)
{
	(void)len;
	nearix_query(ctx, name, v);
}

void
nearq_docs(struct near *r, struct walk *w, struct digest *dg,
    const char *path, const struct inopts *io)
{
	struct walk_entry e;
	struct hashdoc d;
	struct buf name = { 0 };
	const uint64_t *v;
	int whole;

	walk_start(w, path);
	while (walk_next(w, &e)) {
		memset(&d, 0, sizeof(d));
		d.name = (char *)e.path;
		d.isstdin = e.isstdin;
		d.errnum = e.errnum;
		whole = d.errnum == 0 && (!io->archives || hashdoc_members(dg,
		    &name, &d, io->binary, query_member, r) == MEMBERS_PLAIN);
		if (whole && hashdoc_digest(dg, &d, io->binary, &v) == 0 &&
		    !d.binary)
			nearix_query(r, e.path, v);
		progress_count(1, progress_on() && d.errnum == 0 ? d.size : 0);
		if (hashrun_note(&d))
			r->rval = EXIT_TROUBLE;
		free(d.why);
		buf_free(&d.skipped);
	}
	buf_free(&name);
}

void
nearq_record(void *ctx, const struct record *rec, const char *name,
    size_t namelen)
{
	struct near *r = ctx;

	(void)namelen;
	digest_feed(r->dg, rec->text, rec->tlen);
	progress_count(1, rec->len + 1);
	nearix_query(r, name, digest_end(r->dg));
}

/* A query of a --files0-from list: a document, or a file of lines. */
struct near_query {
	struct near *r;
	struct walk *w;		/* NULL: fingerprint lines */
	struct digest *dg;
	const struct inopts *io;
};

static void
query_one(void *ctx, const char *path)
{
	struct near_query *q = ctx;

	if (q->w != NULL)
		nearq_docs(q->r, q->w, q->dg, path, q->io);
	else
		nearq_lines(q->r, path);
}

void
nearq_list(struct near *r, struct walk *w, struct digest *dg,
    const char *list, const struct inopts *io)
{
	struct near_query q = { r, w, dg, io };

	r->rval |= cli_files0(list, query_one, &q);
}
