/*
 * Hashing jobs: whole files and record batches into fingerprint lines.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bandline.h"
#include "fpline.h"
#include "hashjob.h"
#include "xmalloc.h"

void
hashworker_init(struct hashworker *w, const struct hashcfg *cfg)
{
	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
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
output(const struct hashcfg *cfg, struct buf *out, const uint64_t *v,
    const char *name, size_t len)
{
	if (cfg->bands != NULL)
		bandline_format(out, &cfg->sc, cfg->bands, v, name, len,
		    cfg->zero);
	else
		fpline_format(out, &cfg->sc, v, name, len, cfg->zero);
}

static void
note(struct hashjob *j, uint64_t rec, const char *why)
{
	j->notes = xreallocarray(j->notes, j->nnotes + 1, sizeof(*j->notes));
	j->notes[j->nnotes].rec = rec;
	j->notes[j->nnotes].why = why;
	j->nnotes++;
}

static void
run_file(struct hashworker *w, struct hashdoc *d, struct buf *out)
{
	const uint64_t *v;
	struct stat st;
	int fd;

	if (d->errnum != 0)
		return;
	if (d->isstdin)
		fd = STDIN_FILENO;
	else if ((fd = open(d->name, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1) {
		d->errnum = errno;
		return;
	}
	if (fstat(fd, &st) == -1)
		st.st_mode = 0;		/* the read will say what is wrong */
	d->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (S_ISDIR(st.st_mode))
		d->errnum = EISDIR;
	else
		d->errnum = digest_fd(&w->dg, fd, !w->cfg->binary, &v);
	if (d->errnum == DIGEST_BINARY) {
		d->errnum = 0;
		d->binary = 1;
	}
	if (!d->isstdin)
		close(fd);
	if (d->errnum == 0 && !d->binary)
		output(w->cfg, out, v, d->name, strlen(d->name));
}

static void
run_records(struct hashworker *w, struct hashjob *j)
{
	const struct hashcfg *cfg = w->cfg;
	struct recbatch rb;
	struct record r;
	const uint64_t *v;
	const char *why;
	char num[24];
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
			buf_add(&w->name, j->name, strlen(j->name));
			buf_add(&w->name, num, (size_t)snprintf(num,
			    sizeof(num), ":%" PRIu64, r.num));
		}
		digest_feed(&w->dg, r.text, r.tlen);
		v = digest_end(&w->dg);
		output(cfg, &j->out, v, w->name.data, w->name.len);
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

	for (i = 0; i < j->ndocs; i++)
		free(j->docs[i].name);
	free(j->docs);
	free(j->name);
	free(j->data);
	free(j->notes);
	buf_free(&j->out);
	free(j);
}
