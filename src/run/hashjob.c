/*
 * Hashing jobs: whole files and record batches into fingerprint lines.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bandline.h"
#include "fpline.h"
#include "hashjob.h"
#include "members.h"
#include "source.h"
#include "xmalloc.h"

void
hashworker_init(struct hashworker *w, const struct hashcfg *cfg)
{
	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
	fpline_head_init(&w->head, &cfg->sc);
	digest_init(&w->dg, &cfg->sc, cfg->wt, NULL);
}

void
hashworker_free(struct hashworker *w)
{
	digest_free(&w->dg);
	buf_free(&w->name);
}

/* The output for one document: its fingerprint line, or its band lines. */
static void
output(const struct hashworker *w, struct buf *out, const uint64_t *v,
    const char *name, size_t len)
{
	const struct hashcfg *cfg = w->cfg;

	if (cfg->bands != NULL)
		bandline_format(out, &cfg->sc, cfg->bands, v, name, len,
		    cfg->zero);
	else
		fpline_put(out, &w->head, v, name, len, cfg->zero);
}

static void
note(struct hashjob *j, uint64_t rec, const char *why)
{
	j->notes = xreallocarray(j->notes, j->nnotes + 1, sizeof(*j->notes));
	j->notes[j->nnotes].rec = rec;
	j->notes[j->nnotes].why = why;
	j->nnotes++;
}

int
hashdoc_digest(struct digest *dg, struct hashdoc *d, int binary,
    const uint64_t **v)
{
	struct source src;
	struct stat st;
	int e;

	d->binary = 0;
	if ((d->errnum = source_open(&src, d->name, d->isstdin, SOURCE_WHOLE,
	    0)) != 0)
		return d->errnum;
	if (src.have_st)
		st = src.st;
	else if (fstat(src.compressed ? src.infd : src.fd, &st) == -1)
		st.st_mode = 0;		/* the read will say what is wrong */
	d->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (S_ISDIR(st.st_mode))
		d->errnum = EISDIR;
	else
		d->errnum = digest_fd(dg, src.fd, !binary, v);
	if (d->errnum == DIGEST_BINARY) {
		d->errnum = 0;
		d->binary = 1;
	}
	/* A broken stream gives no line: its end is not the document's. */
	if ((e = source_close(&src)) != 0 && d->errnum == 0) {
		d->errnum = e;
		d->binary = 0;
		d->why = src.why;
		src.why = NULL;
	}
	source_free(&src);
	return d->errnum;
}

/*
 * Digest the member m is at into dg: 1 with its values in *v, 0 if it is
 * binary (a NUL in its first DIGEST_PROBE bytes) and skipped, or
 * SOURCE_BROKEN.
 */
static int
digest_member(struct digest *dg, struct members *m, int binary,
    const uint64_t **v)
{
	size_t len, probed = 0;
	const void *p;
	int r, skip = 0;

	while ((r = members_data(m, &p, &len)) == 1) {
		if (!binary && probed < DIGEST_PROBE && !skip) {
			skip = memchr(p, '\0', len < DIGEST_PROBE - probed ?
			    len : DIGEST_PROBE - probed) != NULL;
			probed += len;
		}
		if (!skip)
			digest_feed(dg, p, len);
	}
	*v = digest_end(dg);
	return r != 0 ? r : !skip;
}

int
hashdoc_members(struct digest *dg, struct buf *name, struct hashdoc *d,
    int binary, hashdoc_fn *fn, void *ctx)
{
	struct members m;
	const uint64_t *v;
	const char *path;
	struct stat st;
	int r;

	if ((r = members_open(&m, d->name, d->isstdin)) == MEMBERS_PLAIN)
		return r;
	if (r == 0 && fstat(m.fd, &st) == 0 && S_ISREG(st.st_mode))
		d->size = (uint64_t)st.st_size;
	while (r == 0 && (r = members_next(&m, &path)) == 1) {
		buf_clear(name);
		buf_add(name, d->name, strlen(d->name));
		if (path != NULL) {
			buf_add(name, MEMBERS_SEP, strlen(MEMBERS_SEP));
			buf_add(name, path, strlen(path));
		}
		buf_addc(name, '\0');
		if ((r = digest_member(dg, &m, binary, &v)) == 1)
			fn(ctx, name->data, name->len - 1, v);
		else if (r == 0)
			buf_add(&d->skipped, name->data, name->len);
		r = r == SOURCE_BROKEN ? r : 0;
	}
	if (r == SOURCE_BROKEN) {
		d->errnum = r;
		d->why = m.why;
		m.why = NULL;
	} else
		d->errnum = r;
	members_close(&m);
	return d->errnum;
}

/* Output a member's values (a hashdoc_fn). */
static void
out_member(void *ctx, const char *name, size_t len, const uint64_t *v)
{
	struct hashworker *w = ctx;

	output(w, w->out, v, name, len);
}

static void
run_file(struct hashworker *w, struct hashdoc *d, struct buf *out)
{
	const uint64_t *v;

	if (d->errnum != 0)
		return;
	w->out = out;
	if (w->cfg->archives && hashdoc_members(&w->dg, &w->name, d,
	    w->cfg->binary, out_member, w) != MEMBERS_PLAIN)
		return;
	if (hashdoc_digest(&w->dg, d, w->cfg->binary, &v) != 0)
		return;
	if (!d->binary)
		output(w, out, v, d->name, strlen(d->name));
}

/* Keep the text of record r, whose line was just made. */
static void
keep_text(struct hashjob *j, const struct record *r)
{
	/* Room for 1, 3, 7, ... texts: doubled when full. */
	if ((j->ntexts & (j->ntexts + 1)) == 0)
		j->tlen = xreallocarray(j->tlen, 2 * j->ntexts + 1,
		    sizeof(*j->tlen));
	j->tlen[j->ntexts++] = r->tlen;
	buf_add(&j->texts, r->text, r->tlen);
}

static void
run_records(struct hashworker *w, struct hashjob *j)
{
	const struct hashcfg *cfg = w->cfg;
	struct recbatch rb;
	struct record r;
	const uint64_t *v;
	const char *why;
	size_t namelen = strlen(j->name);
	int n;

	/* A job that only reports a problem has no records, nor data. */
	recbatch_init(&rb, cfg->mode, cfg->zero ? '\0' : '\n', j->data,
	    j->len, j->first);
	recbatch_jsonl(&rb, cfg->json);
	while ((n = recbatch_next(&rb, &r, &why)) != 0) {
		if (n < 0 || (r.id != NULL &&
		    (why = record_name_why(&r)) != NULL)) {
			note(j, r.num, why);
			continue;
		}
		buf_clear(&w->name);
		if (r.id != NULL)
			buf_add(&w->name, r.id, r.idlen);
		else {
			buf_add(&w->name, j->name, namelen);
			buf_addc(&w->name, ':');
			buf_add_u64(&w->name, r.num);
		}
		digest_feed(&w->dg, r.text, r.tlen);
		v = digest_end(&w->dg);
		output(w, &j->out, v, w->name.data, w->name.len);
		if (cfg->texts)
			keep_text(j, &r);
	}
	recbatch_free(&rb);
}

void
hashjob_run(void *worker, void *job)
{
	struct hashworker *w = worker;
	struct hashjob *j = job;

	size_t i;

	if (j->docs == NULL) {
		run_records(w, j);
		return;
	}
	for (i = 0; i < j->ndocs; i++) {
		run_file(w, &j->docs[i], &j->out);
		j->docs[i].end = j->out.len;
	}
}

void
hashjob_free(struct hashjob *j)
{
	size_t i;

	for (i = 0; i < j->ndocs; i++) {
		free(j->docs[i].name);
		free(j->docs[i].why);
		buf_free(&j->docs[i].skipped);
	}
	free(j->docs);
	free(j->name);
	free(j->why);
	free(j->data);
	free(j->notes);
	buf_free(&j->out);
	buf_free(&j->texts);
	free(j->tlen);
	free(j);
}
