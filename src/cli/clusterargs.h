/*
 * What neardup cluster's command line asks (struct cluster_args, read by
 * cluster.c's option table) and what the options allow together
 * (clusterargs.c).
 */
#ifndef CLUSTERARGS_H
#define CLUSTERARGS_H

#include "cli.h"
#include "cluster.h"
#include "clusterout.h"

struct spool;

/* What the command line asks. */
struct cluster_args {
	struct shopts so;
	struct inopts io;
	struct outopts oo;
	struct recopts rec;	/* --jsonl: records are the documents */
	struct spool *texts;	/* and their texts, once hashed */
	struct cluster_opts co;
	struct out o;
	unsigned jobs;
	int	 docs, verbose, bands, sorted, verify, exact;
	int	 have_lsh, have_d, have_t, have_keep;
	int	 print0;	/* -0: NUL-ended output, newline-ended input */
	int	 summary;	/* --summary 1, --no-summary 0, -1: a terminal */
	struct cout_tally tally;
};

/*
 * Refuse options that do not go together (a usage error), given argc
 * operands; resolve the --originals directories to their realpath(3).
 */
void	cluster_check(const struct cmd *, int argc, struct cluster_args *a);

#endif
