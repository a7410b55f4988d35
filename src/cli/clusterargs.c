/*
 * What neardup cluster's options allow together (see clusterargs.h).
 */
#include <err.h>
#include <stdlib.h>
#include <unistd.h>

#include "clusterargs.h"

/* Each --originals DIR to its realpath(3), to compare members' with. */
static void
originals_resolve(struct out *o)
{
	size_t i;
	char *p;

	for (i = 0; i < o->norig; i++) {
		if ((p = realpath(o->orig[i], NULL)) == NULL)
			err(EXIT_TROUBLE, "--originals: %s",
			    cli_vis(o->orig[i]));
		o->orig[i] = p;
	}
}

/* What the output options allow together. */
static void
cluster_check_out(const struct cmd *c, const struct cluster_args *a)
{
	const struct out *o = &a->o;

	if (a->io.filter && !a->docs) {
		warnx("--archives, --binary, --exclude, --exclude-dir and "
		    "--hidden apply to documents (--docs, -r)");
		cli_usage(c);
	}
	if (o->pairs && (o->show != SHOW_GROUPS || o->all || a->have_keep)) {
		warnx("--pairs prints pairs, not groups: not with --dups, "
		    "--uniques, --all or --keep");
		cli_usage(c);
	}
	if (o->all && o->show != SHOW_GROUPS) {
		warnx("--all adds the groups of one, which --dups and "
		    "--uniques already settle: not with them");
		cli_usage(c);
	}
	if (o->header && !(o->fmt == OUT_TSV || (o->pairs &&
	    o->fmt != OUT_JSON))) {
		warnx("--header applies to tables: --format=tsv, --pairs");
		cli_usage(c);
	}
}

/*
 * What the options of directory dedup allow: --format=sh, --originals and
 * --summary are about groups; the summary is on by default on a terminal.
 */
static void
cluster_check_dedup(const struct cmd *c, struct cluster_args *a)
{
	const struct out *o = &a->o;

	if (o->fmt == OUT_SH && (o->pairs || o->all ||
	    o->show == SHOW_UNIQUES)) {
		warnx("--format=sh removes the duplicates of each group: not "
		    "with --pairs, --all or --uniques");
		cli_usage(c);
	}
	if (o->norig > 0 && (o->pairs || a->bands || a->sorted)) {
		warnx("--originals applies to groups of documents or of "
		    "fingerprint lines: not with --pairs, --bands or "
		    "--sorted");
		cli_usage(c);
	}
	if (a->summary == 1 && o->pairs) {
		warnx("--summary counts groups: not with --pairs");
		cli_usage(c);
	}
	if (a->summary == -1)
		a->summary = !o->pairs && isatty(STDERR_FILENO);
	if (a->summary || o->fmt == OUT_SH)
		a->o.tally = &a->tally;
}

/*
 * What records allow: a record is no file, to keep by its time or path,
 * to remove, or to find under an --originals directory.
 */
static void
cluster_check_records(const struct cmd *c, struct cluster_args *a)
{
	const struct out *o = &a->o;

	recopts_check(c, &a->rec);
	if (a->rec.mode == REC_NONE)
		return;
	if (o->keep == KEEP_NEWEST || o->keep == KEEP_OLDEST ||
	    o->keep == KEEP_PATH) {
		warnx("--keep=%s: records have no file of their own: use "
		    "first, longest or shortest", o->keep == KEEP_PATH ?
		    "path" : o->keep == KEEP_NEWEST ? "newest" : "oldest");
		cli_usage(c);
	}
	if (o->norig > 0 || o->fmt == OUT_SH || a->io.archives ||
	    a->io.binary) {
		warnx("%s applies to files, not to --jsonl records",
		    o->norig > 0 ? "--originals" : o->fmt == OUT_SH ?
		    "--format=sh" : a->io.archives ? "--archives" :
		    "--binary");
		cli_usage(c);
	}
}

void
cluster_check(const struct cmd *c, int argc, struct cluster_args *a)
{
	inopts_check(c, &a->io, argc);
	cluster_check_records(c, a);
	cluster_check_dedup(c, a);
	cluster_check_out(c, a);
	if ((a->so.given || a->so.algo_given) && !a->docs) {
		warnx("shingling options apply to documents (--docs, -r): the "
		    "scheme of fingerprint lines is in the lines");
		cli_usage(c);
	}
	if ((a->bands || a->sorted) && (a->docs || a->o.pairs ||
	    a->have_lsh || a->have_d || a->have_t || a->verify ||
	    a->co.transitive)) {
		warnx("--bands and --sorted group equal keys: no documents, "
		    "--pairs, --lsh, -d, -t, --verify or --transitive (the "
		    "bands were chosen by hash --bands)");
		cli_usage(c);
	}
	if ((a->bands || a->sorted) && a->io.list != NULL) {
		warnx("--bands and --sorted read their operands in order: "
		    "not with --files0-from");
		cli_usage(c);
	}
	if (a->exact && (a->verify || a->have_lsh || a->have_d || a->bands ||
	    a->sorted)) {
		warnx("--exact finds every pair by the exact join: not with "
		    "--verify, --lsh, -d, --bands or --sorted");
		cli_usage(c);
	}
	a->verify |= a->exact && !a->docs;
	if (a->verify && a->docs) {
		warnx("--verify reads the files that fingerprint lines name: "
		    "documents (--docs, -r) are confirmed exactly already");
		cli_usage(c);
	}
	originals_resolve(&a->o);
}

