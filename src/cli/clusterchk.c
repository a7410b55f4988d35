/*
 * Exact confirmation of candidate pairs for neardup cluster (see
 * clusterchk.h).
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "allpairs.h"
#include "cli.h"
#include "clusterchk.h"
#include "xmalloc.h"

/* A cache of sets for k's documents, of max bytes. */
static struct setcache *
new_cache(const struct clusterchk *k, size_t max)
{
	struct setcache *c = setcache_new(&k->s->sc, k->s->n, max);

	if (k->texts != NULL)
		setcache_texts(c, k->texts);
	return c;
}

void
clusterchk_init(struct clusterchk *k, const struct fpset *s,
    const struct spool *texts, unsigned jobs)
{
	memset(k, 0, sizeof(*k));
	k->jobs = jobs;
	k->s = s;
	k->texts = texts;
	k->cache = new_cache(k, SETCACHE_MAX);
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

/* The pairs of the join, by the documents' ids. */
struct joined {
	const uint32_t *id;
	struct cluster_pair *p;
	size_t	 n, cap;
};

static void
joined(void *ctx, uint32_t a, uint32_t b, double sim)
{
	struct joined *j = ctx;

	if (j->n == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 1024;
		j->p = xreallocarray(j->p, j->cap, sizeof(*j->p));
	}
	j->p[j->n].a = j->id[a] < j->id[b] ? j->id[a] : j->id[b];
	j->p[j->n].b = j->id[a] < j->id[b] ? j->id[b] : j->id[a];
	j->p[j->n].sim = sim;
	j->p[j->n].exact = 1;
	j->n++;
}

/* The memory --exact may take: see clusterchk.h. */
static size_t
exact_max(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	size_t half;

	if (pages <= 0 || size <= 0)
		return CLUSTERCHK_EXACT_MAX;
	half = (size_t)pages / 2 * (size_t)size;
	return half < CLUSTERCHK_EXACT_MAX ? half : CLUSTERCHK_EXACT_MAX;
}

void
clusterchk_all(struct clusterchk *k, double t, struct cluster_pair **pairs,
    size_t *npairs)
{
	size_t n = k->s->n, m = 0, i, need, max = exact_max();
	const struct docset *ds;
	const uint64_t **set;
	struct joined j = { 0 };
	uint32_t *all, *id;
	size_t *len;
	int e;

	all = xreallocarray(NULL, n + 1, sizeof(*all));
	for (i = 0; i < n; i++)
		all[i] = (uint32_t)i;
	setcache_free(k->cache);
	k->cache = new_cache(k, max);
	clusterchk_prefetch(k, all, n);
	set = xreallocarray(NULL, n + 1, sizeof(*set));
	len = xreallocarray(NULL, n + 1, sizeof(*len));
	id = all;
	for (i = 0; i < n; i++) {
		if ((ds = setcache_held(k->cache, (uint32_t)i, &e)) != NULL) {
			set[m] = ds->h;
			len[m] = ds->n;
			id[m++] = (uint32_t)i;
			continue;
		}
		if (e == 0)
			errx(EXIT_TROUBLE, "--exact: the shingle sets of the %zu "
			    "documents take more than the limit of %zu MiB "
			    "(half the memory, at most %zu MiB): use LSH "
			    "(without --exact)", n, max >> 20,
			    CLUSTERCHK_EXACT_MAX >> 20);
		/* Not a file to read again, or unreadable: left out. */
		if (!k->told[i]) {
			k->told[i] = 1;
			k->rval = EXIT_TROUBLE;
			if (e == SETCACHE_NOTREG)
				warnx("%s: not a regular file: left out of "
				    "--exact", cli_vis(fpset_name(k->s, i)));
			else
				warnc(e, "%s", cli_vis(fpset_name(k->s, i)));
		}
	}
	j.id = id;
	if (allpairs_join(set, len, (uint32_t)m, t,
	    max - setcache_bytes(k->cache), &need, joined, &j) == -1) {
		if (errno == ENOMEM)
			errx(EXIT_TROUBLE, "--exact: the join of the %zu "
			    "documents takes %zu MiB more than the %zu MiB "
			    "of their sets, over the limit of %zu MiB: use "
			    "LSH (without --exact)", m, need >> 20,
			    setcache_bytes(k->cache) >> 20, max >> 20);
		err(EXIT_TROUBLE, "--exact");
	}
	free(set);
	free(len);
	free(all);
	*pairs = j.p;
	*npairs = j.n;
}

void
clusterchk_free(struct clusterchk *k)
{
	setcache_free(k->cache);
	free(k->told);
	memset(k, 0, sizeof(*k));
}
