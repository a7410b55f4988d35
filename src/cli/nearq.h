/*
 * The queries of neardup near (nearq.c): fingerprint lines, documents
 * hashed as the index was, JSON Lines records, and the names of a
 * --files0-from list, each searched in the index (nearix.h).
 */
#ifndef NEARQ_H
#define NEARQ_H

#include <stddef.h>

#include "cli.h"
#include "digest.h"
#include "nearix.h"
#include "walk.h"

/* Query with every fingerprint line of path ("-": standard input). */
void	nearq_lines(struct near *, const char *path);

/*
 * --docs: hash the documents under path with dg and query with them;
 * binary ones are skipped with a note unless io says --binary, and with
 * --archives each member of an archive is a query.
 */
void	nearq_docs(struct near *, struct walk *w, struct digest *dg,
	    const char *path, const struct inopts *io);

/* --docs --jsonl: query with one record, hashed by r->dg (a recopts_fn). */
void	nearq_record(void *r, const struct record *rec, const char *name,
	    size_t namelen);

/*
 * The queries named in the --files0-from list: documents walked by w and
 * hashed by dg, or, if w is NULL, files of fingerprint lines.
 */
void	nearq_list(struct near *, struct walk *w, struct digest *dg,
	    const char *list, const struct inopts *io);

#endif
