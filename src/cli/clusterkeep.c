/*
 * Which member of each group neardup cluster keeps: the order of the
 * --keep policy, in which the leader rule takes the documents, and the
 * --originals, kept before any other.
 */
#include <sys/stat.h>

#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clusterkeep.h"
#include "spool.h"
#include "xmalloc.h"

/*
 * What policy keep compares of document i: its size for longest and
 * shortest, its modification time (in nanoseconds) for newest and oldest.
 * Only a regular file has a size that says how long a document is, and a
 * time that says when its text was written: the others (a directory, a
 * device) would be kept or listed for removal by it.  A record's length
 * is that of its text (no time: cluster_check refuses newest and oldest).
 */
static long long
doc_key(const struct fpset *s, const struct out *o, uint32_t i, int keep)
{
	struct stat st;

	if (o->texts != NULL)
		return (long long)spool_len(o->texts, i);

	if (stat(fpset_name(s, i), &st) == -1)
		err(EXIT_TROUBLE, "--keep: %s", cli_vis(fpset_name(s, i)));
	if (!S_ISREG(st.st_mode))
		errx(EXIT_TROUBLE, "--keep: %s: not a regular file",
		    cli_vis(fpset_name(s, i)));
	if (keep == KEEP_NEWEST || keep == KEEP_OLDEST)
		return (long long)st.st_mtim.tv_sec * 1000000000 +
		    st.st_mtim.tv_nsec;
	return (long long)st.st_size;
}

/* Does policy keep compare doc_key()s, and is the larger one kept? */
static int
keyed(int keep)
{
	return keep != KEEP_FIRST && keep != KEEP_PATH;
}

static int
larger_kept(int keep)
{
	return keep == KEEP_LONGEST || keep == KEEP_NEWEST;
}

/*
 * Is name under one of the --originals directories, each a realpath(3)?
 * Compared by whole components: /a/b holds /a/b/c, not /a/bc.
 */
static int
under_originals(const struct out *o, const char *name)
{
	size_t i, n;
	char *p;
	int in = 0;

	if (o->norig == 0 || (p = realpath(name, NULL)) == NULL)
		return 0;
	for (i = 0; i < o->norig && !in; i++) {
		n = strlen(o->orig[i]);
		in = strncmp(p, o->orig[i], n) == 0 && (p[n] == '\0' ||
		    p[n] == '/' || (n > 0 && o->orig[i][n - 1] == '/'));
	}
	free(p);
	return in;
}

unsigned char *
ckeep_originals(const struct fpset *s, const struct out *o)
{
	unsigned char *f;
	size_t i;

	if (o->norig == 0)
		return NULL;
	f = xcalloc(s->n ? s->n : 1, 1);
	for (i = 0; i < s->n; i++)
		f[i] = (unsigned char)under_originals(o, fpset_name(s, i));
	return f;
}

int
ckeep_original(const struct out *o, uint32_t i)
{
	return o->isorig != NULL && o->isorig[i];
}

/* Keys, originals and names of s, for sorting ids into keep order. */
static const struct fpset *order_set;
static const struct out *order_out;
static long long *order_key;

static int
by_keep(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c, keep = order_out->keep;

	if (ckeep_original(order_out, x) != ckeep_original(order_out, y))
		return ckeep_original(order_out, x) ? -1 : 1;
	if (keyed(keep) && order_key[x] != order_key[y])
		return (order_key[x] > order_key[y]) == larger_kept(keep) ?
		    -1 : 1;
	if (keep == KEEP_PATH && (c = strcmp(fpset_name(order_set, x),
	    fpset_name(order_set, y))) != 0)
		return c;
	return (x > y) - (x < y);
}

uint32_t *
ckeep_order(const struct fpset *s, const struct out *o)
{
	uint32_t *order;
	size_t i;

	if (o->keep == KEEP_FIRST && o->isorig == NULL)
		return NULL;
	order = xreallocarray(NULL, s->n ? s->n : 1, sizeof(*order));
	order_key = NULL;
	if (keyed(o->keep)) {
		order_key = xreallocarray(NULL, s->n ? s->n : 1,
		    sizeof(*order_key));
		for (i = 0; i < s->n; i++)
			order_key[i] = doc_key(s, o, (uint32_t)i, o->keep);
	}
	for (i = 0; i < s->n; i++)
		order[i] = (uint32_t)i;
	order_set = s;
	order_out = o;
	qsort(order, s->n, sizeof(*order), by_keep);
	free(order_key);
	order_key = NULL;
	return order;
}

uint32_t
ckeep_kept(const struct fpset *s, const struct group *g, const struct out *o,
    int byname)
{
	uint32_t best = g->id[0], id;
	long long bk = 0, k;
	size_t i;
	int keep = o->keep, c;

	if (byname && keep == KEEP_FIRST)
		keep = KEEP_PATH;
	if (keyed(keep))
		bk = doc_key(s, o, best, keep);
	for (i = 1; i < g->n; i++) {
		id = g->id[i];
		if (ckeep_original(o, id) != ckeep_original(o, best)) {
			if (ckeep_original(o, id)) {
				best = id;
				bk = keyed(keep) ? doc_key(s, o, id, keep) : 0;
			}
			continue;
		}
		c = strcmp(fpset_name(s, id), fpset_name(s, best));
		k = keyed(keep) ? doc_key(s, o, id, keep) : 0;
		if (keyed(keep) && k != bk) {
			if ((k > bk) == larger_kept(keep)) {
				best = id;
				bk = k;
			}
		} else if (c < 0 && (keep == KEEP_PATH || (byname &&
		    keyed(keep))))
			best = id;
	}
	return best;
}
