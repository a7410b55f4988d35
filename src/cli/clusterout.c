/*
 * Printing clusters: groups, the member kept in each, pairs; in the
 * groups, TSV and JSON formats.
 */
#include <sys/stat.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clusterout.h"
#include "xmalloc.h"
#include "xxh.h"

/*
 * The size of document i for --keep=longest|shortest.  Only a regular
 * file has a size that says how long a document is: the others (a
 * directory, a device) would be kept or listed for removal by it.
 */
static off_t
doc_size(const struct fpset *s, uint32_t i)
{
	struct stat st;

	if (stat(fpset_name(s, i), &st) == -1)
		err(EXIT_TROUBLE, "--keep: %s", cli_vis(fpset_name(s, i)));
	if (!S_ISREG(st.st_mode))
		errx(EXIT_TROUBLE, "--keep: %s: not a regular file",
		    cli_vis(fpset_name(s, i)));
	return st.st_size;
}

uint32_t
cout_kept(const struct fpset *s, const struct group *g, int keep)
{
	uint32_t best = g->id[0];
	off_t bs = 0, sz;
	size_t i;

	if (keep == KEEP_LONGEST || keep == KEEP_SHORTEST)
		bs = doc_size(s, best);
	for (i = 1; i < g->n; i++) {
		switch (keep) {
		case KEEP_LONGEST:
		case KEEP_SHORTEST:
			sz = doc_size(s, g->id[i]);
			if (keep == KEEP_LONGEST ? sz > bs : sz < bs) {
				best = g->id[i];
				bs = sz;
			}
			break;
		case KEEP_PATH:
			if (strcmp(fpset_name(s, g->id[i]),
			    fpset_name(s, best)) < 0)
				best = g->id[i];
			break;
		}
	}
	return best;
}

/*
 * Where name leads: the path realpath(3) makes of it (symbolic links and
 * . and .. resolved), or the name itself if it is not a file here.  Two
 * names that lead to one place are one directory entry: removing either
 * removes the other's text.  Hard links are two entries, two files.
 */
static char *
place_of(const char *name)
{
	char *p = realpath(name, NULL);

	return p != NULL ? p : xstrdup(name);
}

/* A member, for cout_once(). */
struct member {
	const char *name;
	uint64_t fp;		/* hash of its fingerprint's values */
	char	*place;		/* where it leads, once asked */
	size_t	 at;		/* its place in the group */
	int	 gone;		/* an earlier member again */
};

/* Members in the order c gives (a key compared), then in their group's. */
static int
then_at(int c, const struct member *x, const struct member *y)
{
	return c != 0 ? c : x->at < y->at ? -1 : x->at > y->at;
}

static int
by_name(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return then_at(strcmp(x->name, y->name), x, y);
}

static int
by_fp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return then_at(x->fp < y->fp ? -1 : x->fp > y->fp, x, y);
}

static int
by_place(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return then_at(strcmp(x->place, y->place), x, y);
}

/*
 * Among m[first..end), members with one fingerprint, drop those that lead
 * to the place of an earlier one.  Two paths to one file hold one text,
 * so only members with equal fingerprints are asked about (realpath(3)).
 */
static void
same_places(struct member *m, size_t first, size_t end)
{
	size_t i;

	for (i = first; i < end; i++)
		m[i].place = place_of(m[i].name);
	qsort(m + first, end - first, sizeof(*m), by_place);
	for (i = first + 1; i < end; i++)
		if (strcmp(m[i].place, m[i - 1].place) == 0)
			m[i].gone = 1;
}

size_t
cout_once(const struct fpset *s, uint32_t *id, size_t n)
{
	size_t nv = scheme_nvalues(&s->sc), i, k, first;
	struct member *m;

	if (n < 2)
		return n;
	m = xreallocarray(NULL, n, sizeof(*m));
	for (i = 0; i < n; i++) {
		m[i].name = fpset_name(s, id[i]);
		m[i].fp = s->v == NULL ? 0 : xxh_bytes(s->v + (size_t)id[i] *
		    nv, nv * sizeof(*s->v), 0);
		m[i].place = NULL;
		m[i].at = i;
		m[i].gone = 0;
	}
	/* One name twice, whatever its fingerprints. */
	qsort(m, n, sizeof(*m), by_name);
	for (i = 1; i < n; i++)
		m[i].gone = strcmp(m[i].name, m[i - 1].name) == 0;
	/* Two names of one place: with fingerprint values only. */
	if (s->v != NULL) {
		qsort(m, n, sizeof(*m), by_fp);
		for (first = 0, i = 1; i <= n; i++)
			if (i == n || m[i].fp != m[first].fp) {
				if (i - first > 1)
					same_places(m, first, i);
				first = i;
			}
	}
	for (i = 0; i < n; i++) {
		if (m[i].gone)
			id[m[i].at] = UINT32_MAX;
		free(m[i].place);
	}
	free(m);
	for (i = k = 0; i < n; i++)
		if (id[i] != UINT32_MAX)
			id[k++] = id[i];
	return k;
}

/*
 * Where fingerprint i leads (place_of), as a hash, found once: for
 * --pairs, where a name may be in many pairs.
 */
static uint64_t
place_hash(const struct fpset *s, uint64_t **cache, uint32_t i)
{
	char *p;

	if (*cache == NULL)
		*cache = xcalloc(s->n, sizeof(**cache));
	if ((*cache)[i] == 0) {
		p = place_of(fpset_name(s, i));
		(*cache)[i] = xxh_bytes(p, strlen(p), 0) | 1;
		free(p);
	}
	return (*cache)[i];
}

void
cout_name(const struct out *o, const char *name)
{
	if (o->fmt == OUT_JSON)
		fmt_json_string(stdout, name, strlen(name));
	else if (o->zero)
		fputs(name, stdout);
	else
		fmt_tsv_field(stdout, name, strlen(name));
}

void
cout_end(const struct out *o)
{
	putchar(o->zero ? '\0' : '\n');
}

/* Groups in order of their first member, each with its kept one. */
struct group *
cout_groups(const struct fpset *s, struct clusters *c, const struct out *o,
    size_t *ngroups)
{
	uint32_t *gi = xreallocarray(NULL, s->n ? s->n : 1, sizeof(*gi));
	struct group *g = NULL;
	size_t i, n = 0, cap = 0;
	uint32_t root;

	for (i = 0; i < s->n; i++)
		gi[i] = UINT32_MAX;
	for (i = 0; i < s->n; i++) {
		root = uf_find(&c->uf, (uint32_t)i);
		if (gi[root] == UINT32_MAX) {
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				g = xreallocarray(g, cap, sizeof(*g));
			}
			memset(&g[n], 0, sizeof(g[n]));
			g[n].id = xreallocarray(NULL, c->uf.size[root],
			    sizeof(*g[n].id));
			gi[root] = (uint32_t)n++;
		}
		g[gi[root]].id[g[gi[root]].n++] = (uint32_t)i;
	}
	for (i = 0; i < n; i++) {
		g[i].n = cout_once(s, g[i].id, g[i].n);
		g[i].kept = cout_kept(s, &g[i], o->keep);
	}
	free(gi);
	*ngroups = n;
	return g;
}

void
cout_open(const struct out *o)
{
	if (o->fmt == OUT_JSON)
		putchar('[');
	else if (o->header) {
		fputs(o->show == SHOW_UNIQUES ? "name" :
		    "cluster\tname\tsimilarity", stdout);
		cout_end(o);
	}
}

void
cout_close(const struct out *o, size_t shown)
{
	if (o->fmt == OUT_JSON)
		printf(shown ? "\n]\n" : "]\n");
}

/*
 * Print group g of s (unless hidden), as the shown-th so far.  Without
 * fingerprint values (band lines) the similarity is unknown: "-", null.
 */
void
cout_group(const struct fpset *s, const struct group *g,
    const struct out *o, size_t *shown)
{
	size_t nv = scheme_nvalues(&s->sc), k;
	const uint64_t *kv = NULL;
	size_t printed;
	uint32_t id;
	double sim = 0;

	if (g->n < 2 && !o->all && o->show != SHOW_UNIQUES)
		return;
	if (o->show == SHOW_UNIQUES) {
		if (o->fmt == OUT_JSON)
			printf("%s\n", *shown ? "," : "");
		cout_name(o, fpset_name(s, g->kept));
		if (o->fmt != OUT_JSON)
			cout_end(o);
		++*shown;
		return;
	}
	if (s->v != NULL)
		kv = s->v + (size_t)g->kept * nv;
	if (o->fmt == OUT_GROUPS && o->show == SHOW_GROUPS && *shown > 0)
		cout_end(o);
	++*shown;
	if (o->fmt == OUT_JSON) {
		printf("%s\n{\"cluster\": %zu, \"kept\": ", *shown > 1 ? "," :
		    "", *shown);
		cout_name(o, fpset_name(s, g->kept));
		printf(", \"members\": [");
	}
	/* The kept one first, then the others in input order. */
	for (k = 0, printed = 0; k <= g->n; k++) {
		id = k == 0 ? g->kept : g->id[k - 1];
		if ((k > 0 && id == g->kept) || (o->show == SHOW_DUPS && k == 0))
			continue;
		if (kv != NULL)
			sim = cluster_similarity(&s->sc, s->v + (size_t)id * nv,
			    kv);
		switch (o->fmt) {
		case OUT_JSON:
			printf("%s{\"name\": ", printed++ ? ", " : "");
			cout_name(o, fpset_name(s, id));
			if (kv != NULL)
				printf(", \"similarity\": %.6f}",
				    cli_cut(sim, 6));
			else
				printf(", \"similarity\": null}");
			break;
		case OUT_TSV:
			printf("%zu\t", *shown);
			cout_name(o, fpset_name(s, id));
			if (kv != NULL)
				printf("\t%.6f", cli_cut(sim, 6));
			else
				printf("\t-");
			cout_end(o);
			break;
		default:
			cout_name(o, fpset_name(s, id));
			cout_end(o);
		}
	}
	if (o->fmt == OUT_JSON)
		printf("]}");
}

void
cout_all(const struct fpset *s, const struct group *g, size_t ng,
    const struct out *o)
{
	size_t i, shown = 0;

	cout_open(o);
	for (i = 0; i < ng; i++)
		cout_group(s, &g[i], o, &shown);
	cout_close(o, shown);
}

void
cout_pairs(const struct fpset *s, struct clusters *c, const struct out *o)
{
	uint64_t *places = NULL;
	size_t i, shown;
	uint32_t a, b;

	if (o->fmt == OUT_JSON)
		putchar('[');
	else if (o->header) {
		fputs("a\tb\tsimilarity", stdout);
		cout_end(o);
	}
	for (i = shown = 0; i < c->npair; i++) {
		a = c->pair[i].a;
		b = c->pair[i].b;
		/*
		 * A document reached twice, by one name or (when identical)
		 * by two paths to one place, is not a pair with itself.
		 */
		if (strcmp(fpset_name(s, a), fpset_name(s, b)) == 0 ||
		    (c->pair[i].sim == 1 && place_hash(s, &places, a) ==
		    place_hash(s, &places, b)))
			continue;
		if (o->fmt == OUT_JSON) {
			printf("%s\n{\"a\": ", shown++ ? "," : "");
			cout_name(o, fpset_name(s, a));
			printf(", \"b\": ");
			cout_name(o, fpset_name(s, b));
			printf(", \"similarity\": %.6f}",
			    cli_cut(c->pair[i].sim, 6));
			continue;
		}
		cout_name(o, fpset_name(s, a));
		putchar('\t');
		cout_name(o, fpset_name(s, b));
		printf("\t%.6f", cli_cut(c->pair[i].sim, 6));
		cout_end(o);
	}
	if (o->fmt == OUT_JSON)
		printf(shown ? "\n]\n" : "]\n");
	free(places);
}
