/*
 * neardup cluster on band lines and on sorted input (clusterin.c).
 */
#ifndef CLUSTERIN_H
#define CLUSTERIN_H

#include "clusterout.h"

/*
 * Band lines (hash --bands) from the files (standard input if none):
 * documents that share a band key join, without confirmation, since band
 * lines carry no fingerprints.  Memory grows with the documents and keys.
 * Returns EXIT_OK or EXIT_TROUBLE.
 */
int	cluster_bandlines(int argc, char **argv, const struct out *);

/*
 * Input sorted on the key (LC_ALL=C sort): key fingerprint lines, or band
 * lines if bands.  Each run of equal keys is a group, printed as soon as
 * it ends, so memory is bounded by the largest group.  Unsorted input is
 * an error.  Band lines give one group per band key: a document may be in
 * several.  Returns EXIT_OK or EXIT_TROUBLE.
 */
int	cluster_sorted(int argc, char **argv, const struct out *, int bands);

#endif
