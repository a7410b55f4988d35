/*
 * neardup cluster's documents, hashed on the fly (see clusterdocs.h).  A
 * file is read again by its name when a pair of it is confirmed; a record
 * has no file of its own, so its text, once unescaped, is set aside as it
 * is hashed, and the exact resemblance of records is that of files.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "clusterdocs.h"
#include "fpline.h"
#include "hashrun.h"
#include "progress.h"
#include "spool.h"

/* Where the workers' lines and texts go. */
struct docs_in {
	struct fpset *s;
	struct spool *texts;	/* records: one text per line of s */
};

/* Parse the lines the workers produce into the set (a hashrun_emit). */
static void
collect(void *ctx, const char *lines, size_t len)
{
	struct docs_in *in = ctx;
	struct fpset *s = in->s;
	struct fpline fp = { 0 };
	const char *p = lines, *end = lines + len, *eol, *why;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (fpline_parse(p, (size_t)(eol - p), 0, &fp, &why) == -1)
			errx(EXIT_TROUBLE, "internal error: %s", why);
		s->sc = fp.sc;
		s->have_sc = 1;
		fpset_add(s, &fp);
	}
	fpline_free(&fp);
}

/* Set the texts of the records just collected aside (a hashrun_texts_fn). */
static void
keep_texts(void *ctx, const char *texts, const size_t *tlen, size_t n)
{
	struct docs_in *in = ctx;
	size_t i;
	int e;

	for (i = 0; i < n; texts += tlen[i++])
		if ((e = spool_add(in->texts, texts, tlen[i])) != 0)
			errc(EXIT_TROUBLE, e, "setting record texts aside "
			    "in a temporary file");
}

int
cluster_docs(const struct hashcfg *cfg, unsigned jobs, struct inopts *io,
    struct recopts *rec, int n, char **operands, struct fpset *s,
    struct spool **texts)
{
	struct docs_in in = { s, NULL };
	struct hashrun *run;
	int i, rval, e;

	progress_start(cfg->mode == REC_NONE ? "files" : NULL, 0);
	if (io->list == NULL)
		progress_inputs(operands, n, &io->walk);
	run = hashrun_new(cfg, jobs, &io->walk, collect, &in);
	if (cfg->mode != REC_NONE) {
		if ((in.texts = spool_new()) == NULL)
			err(EXIT_TROUBLE, "a temporary file for record texts");
		hashrun_records(run, rec);
		hashrun_texts(run, keep_texts);
	}
	if (io->list != NULL)
		hashrun_files0(run, io->list);
	else if (n == 0)
		hashrun_operand(run, "-");
	for (i = 0; i < n; i++)
		hashrun_operand(run, operands[i]);
	rval = hashrun_finish(run);
	if (in.texts != NULL && (e = spool_seal(in.texts)) != 0)
		errc(EXIT_TROUBLE, e, "setting record texts aside in a "
		    "temporary file");
	*texts = in.texts;
	return rval;
}
