/*
 * neardup cluster on band lines (--bands) and on sorted input (--sorted):
 * the ways that work with a shuffle done elsewhere, by sort(1) or a
 * MapReduce engine.
 */
#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bandline.h"
#include "buf.h"
#include "cli.h"
#include "clusterin.h"
#include "fpline.h"
#include "linein.h"
#include "record.h"
#include "xmalloc.h"
#include "xxh.h"

/* A map from 64-bit hashes to ids (open addressing, UINT32_MAX empty). */
struct idmap {
	uint64_t *h;
	uint32_t *id;
	size_t	 cap, n;
};

static uint32_t *
idmap_slot(struct idmap *m, uint64_t h)
{
	size_t i, cap;
	struct idmap old;

	if (m->n * 2 >= m->cap) {
		old = *m;
		cap = old.cap ? 2 * old.cap : 1024;
		m->h = xreallocarray(NULL, cap, sizeof(*m->h));
		m->id = xreallocarray(NULL, cap, sizeof(*m->id));
		memset(m->id, 0xFF, cap * sizeof(*m->id));
		m->cap = cap;
		m->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.id[i] != UINT32_MAX) {
				*idmap_slot(m, old.h[i]) = old.id[i];
				m->n++;
			}
		free(old.h);
		free(old.id);
	}
	for (i = (size_t)h & (m->cap - 1); m->id[i] != UINT32_MAX &&
	    m->h[i] != h; i = (i + 1) & (m->cap - 1))
		;
	m->h[i] = h;
	return &m->id[i];
}

static void
add_name(struct fpset *s, const char *name, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->name = xreallocarray(s->name, s->cap, sizeof(*s->name));
	}
	s->name[s->n++] = s->names.len;
	buf_add(&s->names, name, len);
	buf_addc(&s->names, '\0');
}

/*
 * The layout part of a band key, "SCHEME/BxR/", whose length goes to
 * *len: every line of one input must share it.
 */
static const char *
band_layout(const char *key, size_t keylen, size_t *len)
{
	const char *slash = memrchr(key, '/', keylen);

	*len = slash != NULL ? (size_t)(slash - key) + 1 : 0;
	return key;
}

/* Check that a band line has the layout of the first; exit 2 if not. */
static void
check_layout(struct buf *first, const char *key, size_t keylen,
    const char *path, size_t lineno)
{
	size_t len;

	band_layout(key, keylen, &len);
	if (first->len == 0) {
		buf_add(first, key, len);
		return;
	}
	if (len != first->len || memcmp(key, first->data, len) != 0)
		errx(EXIT_TROUBLE, "%s:%zu: band layout %.*s differs from the "
		    "first line's %.*s", cli_vis(path), lineno, (int)len, key,
		    (int)first->len, first->data);
}

/* Open path ("-": standard input) for li; -1 after a warning. */
static int
open_input(const char *path, struct linein *li, int zero)
{
	int e;

	if ((e = linein_open(li, path, strcmp(path, "-") == 0,
	    zero ? '\0' : '\n', RECORD_MAX)) != 0) {
		warnc(e, "%s", cli_vis(path));
		return -1;
	}
	return 0;
}

/*
 * Document id has one key for each band: another key for a band it has
 * one for (the line key[0..keylen), "SCHEME/BxR/I:HEX") means lines from
 * before and after its file changed, which would group copies of a text
 * it no longer holds.  bands maps the document's band to its key's hash.
 */
static void
check_band(struct idmap *bands, uint32_t id, const char *key, size_t keylen,
    const struct buf *name, const char *path, size_t lineno)
{
	const char *i = (const char *)memrchr(key, '/', keylen) + 1, *colon;
	uint32_t *slot, h;
	uint64_t at;
	char *file;

	colon = memchr(i, ':', (size_t)(key + keylen - i));
	at = xxh_bytes(i, (size_t)(colon - i), id);
	h = (uint32_t)(xxh_bytes(key, keylen, 2) >> 33);
	slot = idmap_slot(bands, at);
	if (*slot == UINT32_MAX) {
		*slot = h;
		bands->n++;
	} else if (*slot != h) {
		file = xstrdup(cli_vis(path));
		errx(EXIT_TROUBLE, "%s:%zu: %s: two different keys for band "
		    "%.*s: lines from before and after it changed?", file,
		    lineno, cli_vis(name->data), (int)(colon - i), i);
	}
}

/*
 * The next line of path into *line, *len, its number into *lineno: 1, or
 * 0 at the end.  Exits 2 on a line too long; warns about a read error and
 * makes *rval 2, ending the input, and closes it at the end.
 */
static int
next_line(struct linein *li, const char *path, char **line, size_t *len,
    size_t *lineno, int *rval)
{
	char *why;
	int n, e;

	if ((n = linein_next(li, line, len)) == 1) {
		*lineno = (size_t)li->lineno;
		return 1;
	}
	if (n == LINEIN_LONG)
		errx(EXIT_TROUBLE, "%s:%" PRIu64 ": line longer than %d bytes",
		    cli_vis(path), li->lineno, RECORD_MAX);
	if ((e = linein_close(li, &why)) != 0 || n < 0) {
		cli_warn_input(path, n < 0 ? -n : e, why);
		*rval = EXIT_TROUBLE;
	}
	return 0;
}

int
cluster_bandlines(int argc, char **argv, const struct out *o)
{
	struct idmap names = { 0 }, keys = { 0 }, bands = { 0 };
	struct bandline_seen seen = { 0 };
	struct clusters cl;
	struct fpset s = { 0 };
	struct buf name = { 0 }, layout = { 0 };
	struct group *g;
	struct linein li;
	char *line;
	size_t len, keylen, lineno, ng, i;
	const char *why, *path;
	uint32_t *slot, id;
	int rval = EXIT_OK, a;

	memset(&cl, 0, sizeof(cl));
	uf_init(&cl.uf, 0);
	for (a = 0; a < (argc ? argc : 1); a++) {
		path = argc ? argv[a] : "-";
		if (open_input(path, &li, o->zin) == -1) {
			rval = EXIT_TROUBLE;
			continue;
		}
		while (next_line(&li, path, &line, &len, &lineno, &rval)) {
			if (bandline_parse(line, len, o->zin, &seen,
			    &keylen, &name, &why) == -1)
				errx(EXIT_TROUBLE, "%s:%zu: %s", cli_vis(path),
				    lineno, why);
			if (o->zin && bandline_holds_line(&name))
				cli_not_z(path, lineno);
			check_layout(&layout, line, keylen, path, lineno);
			/* A document has b lines: one id per name. */
			slot = idmap_slot(&names, xxh_bytes(name.data, name.len,
			    0));
			if (*slot == UINT32_MAX) {
				if (s.n == UINT32_MAX)
					errx(EXIT_TROUBLE, "%s:%zu: more than "
					    "%u documents", cli_vis(path), lineno,
					    UINT32_MAX);
				*slot = (uint32_t)s.n;
				names.n++;
				add_name(&s, name.data, name.len);
				cl.uf.n = s.n;
				cl.uf.parent = xreallocarray(cl.uf.parent, s.cap,
				    sizeof(*cl.uf.parent));
				cl.uf.size = xreallocarray(cl.uf.size, s.cap,
				    sizeof(*cl.uf.size));
				cl.uf.parent[*slot] = *slot;
				cl.uf.size[*slot] = 1;
			}
			id = *slot;
			check_band(&bands, id, line, keylen, &name, path,
			    lineno);
			/* Documents with an equal band key join. */
			slot = idmap_slot(&keys, xxh_bytes(line, keylen, 1));
			if (*slot == UINT32_MAX) {
				*slot = id;
				keys.n++;
			} else
				uf_union(&cl.uf, *slot, id);
		}
	}
	g = cout_groups(&s, &cl, o, &ng);
	cout_all(&s, g, ng, o);
	for (i = 0; i < ng; i++)
		free(g[i].id);
	free(g);
	buf_free(&name);
	buf_free(&layout);
	free(names.h);
	free(names.id);
	free(keys.h);
	free(keys.id);
	free(bands.h);
	free(bands.id);
	cluster_free(&cl);
	fpset_free(&s);
	return rval;
}

/* Print the run in s (one group of all its members) and empty it. */
static void
flush_run(struct fpset *s, const struct out *o, struct cout_run *run)
{
	struct group *g;
	size_t i, n, cap = 1;

	if (s->n == 0)
		return;
	g = xcalloc(1, sizeof(*g));
	g->id = xreallocarray(NULL, s->n, sizeof(*g->id));
	for (i = 0; i < s->n; i++)
		g->id[g->n++] = (uint32_t)i;
	n = cout_settle(s, &g, 1, &cap, o, 1);
	for (i = 0; i < n; i++) {
		cout_group(s, &g[i], o, run);
		free(g[i].id);
	}
	free(g);
	s->n = 0;
	buf_clear(&s->names);
}

/*
 * A key fingerprint line of --sorted, parsed into fp: its key (into *key,
 * *keylen) and its name (into name).  Exits 2 on a bad line.
 */
static void
sorted_fpline(const char *line, size_t len, const struct out *o,
    const char *path, size_t lineno, const struct fpset *run,
    struct fpline *fp, const char **key, size_t *keylen, struct buf *name)
{
	char sch[SCHEME_MAX], want[SCHEME_MAX];
	const char *why;

	if (fpline_parse(line, len, o->zin, fp, &why) == -1)
		errx(EXIT_TROUBLE, "%s:%zu: %s", cli_vis(path), lineno, why);
	if (o->zin && fpline_holds_line(fp))
		cli_not_z(path, lineno);
	if (algo_get(fp->sc.algo)->cand != CAND_EQUAL) {
		char n[ALGO_LIST_MAX], a[ALGO_LIST_MAX];

		errx(EXIT_TROUBLE, "%s:%zu: --sorted groups %s fingerprints "
		    "(%s) or band lines (--bands)", cli_vis(path), lineno,
		    algo_list(n, sizeof(n), 0, CAND_EQUAL, "", "or"),
		    algo_list(a, sizeof(a), 0, CAND_EQUAL, "-a ", "or"));
	}
	if (run->have_sc && !scheme_equal(&run->sc, &fp->sc)) {
		scheme_format(&fp->sc, sch);
		scheme_format(&run->sc, want);
		errx(EXIT_TROUBLE, "%s:%zu: scheme %s differs from the first "
		    "line's %s", cli_vis(path), lineno, sch, want);
	}
	/*
	 * The key: "SCHEME:HEX", up to the spaces, after the backslash of
	 * an escaped name.  If sort(1) put such a line apart, that shows as
	 * unsorted input: an error, not a group split silently.
	 */
	*key = line[0] == '\\' ? line + 1 : line;
	*keylen = (size_t)(strstr(*key, "  ") - *key);
	buf_clear(name);
	buf_add(name, fp->name.data, fp->name.len);
}

/*
 * How key compares with the key of the line before (prev): > 0 for a new
 * run.  Exits 2 if it sorts before it.
 */
static int
sorted_order(const char *key, size_t keylen, const struct buf *prev,
    int escaped, const char *path, size_t lineno)
{
	int cmp;

	cmp = prev->len == 0 ? 1 : memcmp(key, prev->data,
	    keylen < prev->len ? keylen : prev->len);
	if (cmp == 0 && keylen != prev->len)
		cmp = keylen < prev->len ? -1 : 1;
	if (cmp < 0 && escaped)
		errx(EXIT_TROUBLE, "%s:%zu: input is not sorted: this line's "
		    "name or the one before is escaped (it holds a backslash "
		    "or newline), so sort(1) moved it away from its key; use "
		    "-z throughout", cli_vis(path), lineno);
	if (cmp < 0)
		errx(EXIT_TROUBLE, "%s:%zu: input is not sorted (sort it with "
		    "LC_ALL=C sort)", cli_vis(path), lineno);
	return cmp;
}

int
cluster_sorted(int argc, char **argv, const struct out *o, int bands)
{
	struct fpset run = { 0 };
	struct fpline fp = { 0 };
	struct bandline_seen seen = { 0 };
	struct buf prev = { 0 }, name = { 0 }, layout = { 0 };
	struct cout_run out;
	struct linein li;
	char *line;
	size_t len, keylen, lineno, nv;
	const char *why, *path, *key;
	int rval = EXIT_OK, a, escaped = 0;

	cout_open(o, &out);
	for (a = 0; a < (argc ? argc : 1); a++) {
		path = argc ? argv[a] : "-";
		if (open_input(path, &li, o->zin) == -1) {
			rval = EXIT_TROUBLE;
			continue;
		}
		while (next_line(&li, path, &line, &len, &lineno, &rval)) {
			key = line;
			if (!bands)
				sorted_fpline(line, len, o, path, lineno, &run,
				    &fp, &key, &keylen, &name);
			else if (bandline_parse(line, len, o->zin, &seen,
			    &keylen, &name, &why) == -1)
				errx(EXIT_TROUBLE, "%s:%zu: %s",
				    cli_vis(path), lineno, why);
			else if (o->zin && bandline_holds_line(&name))
				cli_not_z(path, lineno);
			else
				check_layout(&layout, line, keylen, path,
				    lineno);
			if (sorted_order(key, keylen, &prev, key != line ||
			    escaped, path, lineno) > 0) {
				flush_run(&run, o, &out);
				buf_clear(&prev);
				buf_add(&prev, key, keylen);
			}
			escaped = key != line;
			if (!bands) {
				run.sc = fp.sc;
				run.have_sc = 1;
				nv = fp.nv;
				run.v = xreallocarray(run.v, run.n + 1,
				    nv * sizeof(*run.v));
				memcpy(run.v + run.n * nv, fp.v,
				    nv * sizeof(*run.v));
			}
			add_name(&run, name.data, name.len);
		}
	}
	flush_run(&run, o, &out);
	cout_close(o, &out);
	buf_free(&prev);
	buf_free(&name);
	buf_free(&layout);
	fpline_free(&fp);
	fpset_free(&run);
	return rval;
}
