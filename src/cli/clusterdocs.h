/*
 * neardup cluster's documents hashed on the fly (clusterdocs.c).
 */
#ifndef CLUSTERDOCS_H
#define CLUSTERDOCS_H

#include "cli.h"
#include "fpset.h"
#include "hashjob.h"

struct spool;

/*
 * Hash the documents that io and the n operands name (standard input if
 * none, and no --files0-from list) into s with cfg, through jobs threads:
 * whole files, or, cfg's mode being a record mode, the records of each,
 * reported through rec when bad.  Records' texts are set aside in *texts
 * (NULL for files), by the order of s, to be read again to confirm pairs.
 * Returns EXIT_OK or EXIT_TROUBLE.
 */
int	cluster_docs(const struct hashcfg *cfg, unsigned jobs,
	    struct inopts *io, struct recopts *rec, int n, char **operands,
	    struct fpset *s, struct spool **texts);

#endif
