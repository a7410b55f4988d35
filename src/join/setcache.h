/*
 * The exact shingle sets of documents named by fingerprint lines, read
 * from their files when first asked for and kept in a cache of bounded
 * size: the least recently used sets go first.  The bound holds but for
 * the two sets of the pair being compared, which stay whatever their
 * size.
 */
#ifndef SETCACHE_H
#define SETCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "docset.h"
#include "scheme.h"

/* What setcache_get can say besides an errno value. */
#define SETCACHE_NOTREG		(-1)	/* not a regular file, or a member of an
					   archive: not read again */

#define SETCACHE_MAX	((size_t)256 << 20)	/* bytes of sets, by default */

struct setcache;

/*
 * A cache for n documents shingled as scheme sc, of at most max bytes of
 * sets.  A set is of the file as it is when read: what is compared is
 * what would be removed.
 */
struct setcache *setcache_new(const struct scheme *sc, size_t n,
	    size_t max);

/*
 * Documents are the texts of sp, by number, not files (names are then
 * only said in messages): records of a file, set aside as they were read.
 */
struct spool;
void	setcache_texts(struct setcache *, const struct spool *sp);

/*
 * The set of document i, whose file is name: read if it is not in the
 * cache.  The set stays valid until the second call after this one.
 * NULL with *err set (an errno value or SETCACHE_NOTREG) if it cannot be
 * had; the same again for i later, without a new try.
 */
const struct docset *setcache_get(struct setcache *, uint32_t i,
	    const char *name, int *err);

/*
 * Read the sets of the n documents ids[] (files names[]) ahead, with jobs
 * threads, in that order, while the cache has room for them.  What goes
 * wrong with one is kept for setcache_get to say.
 */
void	setcache_prefetch(struct setcache *, const uint32_t *ids,
	    const char *const *names, size_t n, unsigned jobs);

/*
 * The set of document i if it was read (NULL otherwise, with *err set
 * to what went wrong, or to 0 if it was not tried).
 */
const struct docset *setcache_held(const struct setcache *, uint32_t i,
	    int *err);

/* Bytes of the sets held. */
size_t	setcache_bytes(const struct setcache *);

/* Sets read, and bytes read in all. */
void	setcache_stats(const struct setcache *, size_t *reads,
	    uint64_t *bytes);

void	setcache_free(struct setcache *);

#endif
