/*
 * Which member of each group neardup cluster keeps (clusterkeep.c): the
 * --keep policies and the --originals.
 */
#ifndef CLUSTERKEEP_H
#define CLUSTERKEEP_H

#include <stdint.h>

#include "clusterout.h"
#include "fpset.h"

/*
 * Which documents of s are under one of the --originals directories of o:
 * a flag for each (for o->isorig), or NULL if o has none.  A name that
 * realpath(3) cannot resolve is no original.
 */
unsigned char *ckeep_originals(const struct fpset *, const struct out *o);

/*
 * The ids of s in the order in which the leader rule takes them: the
 * originals (o->isorig) first, and among them and among the others in the
 * order of keep policy o->keep (KEEP_*); ties, of size or of modification
 * time, in input order.  NULL for input order (KEEP_FIRST, no originals).
 */
uint32_t *ckeep_order(const struct fpset *, const struct out *o);

/*
 * The member of g to keep: an original (o->isorig) before any other, then
 * by policy o->keep (KEEP_*).  With byname, the choice does not depend on
 * the order of the members: first is the least name, and between files of
 * one size or time the least name is kept.  So a member is kept in every
 * group of --sorted where it is the choice, in whatever order a shuffle
 * brought the lines of each key.
 */
uint32_t ckeep_kept(const struct fpset *, const struct group *g,
	    const struct out *o, int byname);

/* Is document i an original (o->isorig)? */
int	ckeep_original(const struct out *o, uint32_t i);

#endif
