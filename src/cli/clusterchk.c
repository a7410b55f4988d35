/*
 * Exact confirmation of candidate pairs for neardup cluster (see
 * clusterchk.h).
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clusterchk.h"
#include "xmalloc.h"

void
clusterchk_init(struct clusterchk *k, const struct fpset *s, unsigned jobs)
{
	memset(k, 0, sizeof(*k));
	k->jobs = jobs;
	k->s = s;
	k->cache = setcache_new(&s->sc, s->n, SETCACHE_MAX);
	k->told = xcalloc(s->n ? s->n : 1, 1);
	k->rval = EXIT_OK;
}

/* The set of document i, or NULL (*notreg set for a file not regular). */
static const struct docset *
get(struct clusterchk *k, uint32_t i, int *notreg)
{
	const struct docset *ds;
	const char *name = fpset_name(k->s, i);
	int e;

	ds = setcache_get(k->cache, i, name, &e);
	if (ds != NULL)
		return ds;
	if (e == SETCACHE_NOTREG) {
		*notreg = 1;
		return NULL;
	}
	if (!k->told[i]) {
		k->told[i] = 1;
		k->rval = EXIT_TROUBLE;
		warnc(e, "%s", cli_vis(name));
	}
	return NULL;
}

void
clusterchk_prefetch(void *ctx, const uint32_t *ids, size_t n)
{
	struct clusterchk *k = ctx;
	const char **names = xreallocarray(NULL, n + 1, sizeof(*names));
	size_t i;

	for (i = 0; i < n; i++)
		names[i] = fpset_name(k->s, ids[i]);
	setcache_prefetch(k->cache, ids, names, n, k->jobs);
	free(names);
}

double
clusterchk_exact(void *ctx, uint32_t a, uint32_t b)
{
	struct clusterchk *k = ctx;
	const struct docset *x, *y;
	int notreg = 0;

	if ((x = get(k, a, &notreg)) == NULL)
		return notreg ? -1 : 0;
	if ((y = get(k, b, &notreg)) == NULL)
		return notreg ? -1 : 0;
	return docset_jaccard(x, y);
}

void
clusterchk_free(struct clusterchk *k)
{
	setcache_free(k->cache);
	free(k->told);
	memset(k, 0, sizeof(*k));
}
