/*
 * The groups cluster prints: each member once (one directory entry met by
 * two names is one member), documents of the empty text apart by their
 * bytes, and the member kept in each.  Printing them is clusterout.c's.
 */
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "clusterkeep.h"
#include "clusterout.h"
#include "digest.h"
#include "spool.h"
#include "xmalloc.h"
#include "xxh.h"

/*
 * Where name, a name of a file with more than one link, leads: the
 * directory entry that realpath(3) resolves it to (symbolic links and .
 * and .. resolved), named by its directory's device and inode and its last
 * component, so that the two sides of a bind mount of a directory meet;
 * NULL if that cannot be found.  Two names that lead to one entry hold one
 * text: removing either removes the other's.  Hard links are two entries.
 */
static char *
place_of(const char *name)
{
	struct stat st;
	char *p, *slash, *id;

	if ((p = realpath(name, NULL)) == NULL)
		return NULL;
	slash = strrchr(p, '/');
	*slash = '\0';
	if (stat(slash == p ? "/" : p, &st) == -1) {
		free(p);
		return NULL;
	}
	if (asprintf(&id, "%ju:%ju/%s", (uintmax_t)st.st_dev,
	    (uintmax_t)st.st_ino, slash + 1) == -1)
		err(EXIT_TROUBLE, NULL);
	free(p);
	return id;
}

/* A member, for cout_once(): its name, and the file it is, if one. */
struct member {
	const char *name;
	dev_t	 dev;
	ino_t	 ino;
	nlink_t	 nlink;
	int	 file;		/* stat(2) found it */
	int	 asked;		/* place_of() was asked */
	char	*place;		/* where it leads, NULL if not found */
	size_t	 at;		/* its place in the group */
	int	 gone;		/* an earlier member again */
};

static void
member_stat(struct member *m)
{
	struct stat st;

	m->asked = 0;
	m->place = NULL;
	m->file = stat(m->name, &st) == 0;
	m->dev = m->file ? st.st_dev : 0;
	m->ino = m->file ? st.st_ino : 0;
	m->nlink = m->file ? st.st_nlink : 0;
}

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

/* Files by device and inode; the others after them. */
static int
by_file(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = x->file != y->file ? y->file - x->file :
	    x->dev != y->dev ? (x->dev < y->dev ? -1 : 1) :
	    x->ino != y->ino ? (x->ino < y->ino ? -1 : 1) : 0;

	return then_at(c, x, y);
}

static int
by_place(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return then_at(strcmp(x->place, y->place), x, y);
}

/*
 * Is the directory entry of m, a name of a file of more than one link,
 * known (place_of(), asked once)?  If not, the names of its file are taken
 * for one: that never lists a last copy for removal.
 */
static int
place_known(struct member *m)
{
	if (!m->asked) {
		m->place = place_of(m->name);
		m->asked = 1;
	}
	return m->place != NULL;
}

/*
 * Do x and y, names of one file (as stat(2) found them), lead to one
 * entry?  A file of one link has one entry, whatever leads to it (a bind
 * mount of the file itself included).
 */
static int
one_entry(struct member *x, struct member *y)
{
	return x->nlink == 1 || !place_known(x) || !place_known(y) ||
	    strcmp(x->place, y->place) == 0;
}

/*
 * Among m[first..end), names of one file that lead to one entry, all but
 * one go: the earliest, or with byname the least name.
 */
static void
keep_one(struct member *m, size_t first, size_t end, int byname)
{
	size_t i, keep;

	for (keep = first, i = first + 1; i < end; i++)
		if (byname ? strcmp(m[i].name, m[keep].name) < 0 :
		    m[i].at < m[keep].at)
			keep = i;
	for (i = first; i < end; i++)
		m[i].gone = i != keep;
}

/*
 * Among m[first..end), names of one file, keep one of each entry: of all
 * of them if the file has one link, or if an entry cannot be found.
 */
static void
same_places(struct member *m, size_t first, size_t end, int byname)
{
	size_t i, run;
	int one = m[first].nlink == 1;

	for (i = first; i < end && !one; i++)
		one = !place_known(&m[i]);
	if (one) {
		keep_one(m, first, end, byname);
		return;
	}
	qsort(m + first, end - first, sizeof(*m), by_place);
	for (run = first, i = first + 1; i <= end; i++)
		if (i == end || strcmp(m[i].place, m[run].place) != 0) {
			keep_one(m, run, i, byname);
			run = i;
		}
}

size_t
cout_once(const struct fpset *s, const struct out *o, uint32_t *id,
    size_t n, int byname)
{
	size_t i, k, first;
	struct member *m;

	/* Records: two are two, whatever their names (--id may repeat). */
	if (n < 2 || o->texts != NULL)
		return n;
	m = xreallocarray(NULL, n, sizeof(*m));
	for (i = 0; i < n; i++) {
		m[i].name = fpset_name(s, id[i]);
		m[i].place = NULL;
		m[i].at = i;
		m[i].gone = 0;
	}
	/* One name twice. */
	qsort(m, n, sizeof(*m), by_name);
	for (i = 1; i < n; i++)
		m[i].gone = strcmp(m[i].name, m[i - 1].name) == 0;
	/*
	 * Two names of one file: whatever their fingerprints (one may be
	 * from before the file changed) or if they have none (band lines).
	 */
	for (i = 0; i < n; i++)
		if (!m[i].gone)
			member_stat(&m[i]);
		else
			m[i].file = 0;
	qsort(m, n, sizeof(*m), by_file);
	for (first = 0, i = 1; i <= n; i++)
		if (i == n || !m[i].file || m[i].dev != m[first].dev ||
		    m[i].ino != m[first].ino) {
			if (i - first > 1 && m[first].file)
				same_places(m, first, i, byname);
			first = i;
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

/* Where member i leads, for --pairs, where a name may be in many pairs. */
struct cout_places {
	struct member *m;	/* by fingerprint, stat(2) once asked */
	uint64_t *bytes;	/* bytes_of(), 0: not asked, 2: no file */
};

/* Do fingerprints a and b name one directory entry (one_entry())? */
static int
one_place(const struct fpset *s, struct cout_places *pc, uint32_t a,
    uint32_t b)
{
	uint32_t i, ab[2] = { a, b };

	if (pc->m == NULL)
		pc->m = xcalloc(s->n, sizeof(*pc->m));
	for (i = 0; i < 2; i++)
		if (pc->m[ab[i]].name == NULL) {
			pc->m[ab[i]].name = fpset_name(s, ab[i]);
			member_stat(&pc->m[ab[i]]);
		}
	return pc->m[a].file && pc->m[b].file && pc->m[a].dev ==
	    pc->m[b].dev && pc->m[a].ino == pc->m[b].ino &&
	    one_entry(&pc->m[a], &pc->m[b]);
}

/*
 * A document without any shingle (empty, or only punctuation and spaces)
 * has the fingerprint of the empty text, whatever its bytes: "{}" and
 * "[]" would be copies of each other.  Such members are told apart by
 * their bytes, as uniq tells such records apart, when they are files
 * here, and are each on their own when they are not.
 */
static int
is_empty(const struct fpset *s, uint32_t i)
{
	/* The values are found once, and kept with the set's. */
	struct fpset *w = (struct fpset *)(uintptr_t)s;
	size_t nv = scheme_nvalues(&s->sc);
	struct digest d;

	if (s->v == NULL)
		return 0;
	if (w->empty == NULL) {
		digest_init(&d, &s->sc, NULL, NULL);
		w->empty = xreallocarray(NULL, nv, sizeof(*w->empty));
		memcpy(w->empty, digest_end(&d), nv * sizeof(*w->empty));
		digest_free(&d);
	}
	return memcmp(s->v + (size_t)i * nv, s->empty,
	    nv * sizeof(*s->empty)) == 0;
}

/*
 * The hash of the bytes of file name (never 0), or 0 if it has none here.
 * Only a regular file can be read again for its bytes: what a FIFO or a
 * device gave when the fingerprint was made is gone, and opening a FIFO
 * would wait for a writer that may never come.  So the name is opened
 * without blocking, and anything but a regular file declined with a
 * message.
 */
static uint64_t
bytes_of(const char *name)
{
	XXH3_state_t *st;
	char buf[65536];
	struct stat sb;
	uint64_t h = 0;
	ssize_t n;
	int fd;

	if ((fd = open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)) ==
	    -1)
		return 0;
	if (fstat(fd, &sb) == -1) {
		close(fd);
		return 0;
	}
	if (!S_ISREG(sb.st_mode)) {
		warnx("%s: not a regular file: its empty text is compared "
		    "with no other", name);
		close(fd);
		return 0;
	}
	if ((st = XXH3_createState()) == NULL)
		err(EXIT_TROUBLE, NULL);
	(void)XXH3_64bits_reset(st);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		(void)XXH3_64bits_update(st, buf, (size_t)n);
	if (n == 0)
		h = XXH3_64bits_digest(st) | 1;
	XXH3_freeState(st);
	close(fd);
	return h;
}

/*
 * The hash of the bytes of document i (never 0), or 0 if it has none
 * here: a record's text, or the file its name names.
 */
static uint64_t
doc_bytes(const struct fpset *s, const struct out *o, uint32_t i)
{
	struct buf b = { 0 };
	uint64_t h;

	if (o->texts == NULL)
		return bytes_of(fpset_name(s, i));
	if (spool_read(o->texts, i, &b) != 0)
		err(EXIT_TROUBLE, "%s", cli_vis(fpset_name(s, i)));
	h = XXH3_64bits(b.data, b.len) | 1;
	buf_free(&b);
	return h;
}

/* A member of a group of empty texts, by its bytes. */
struct bytes {
	uint64_t h;
	uint32_t id;
};

static int
by_bytes(const void *a, const void *b)
{
	const struct bytes *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Split from group g (its members in input order) those with the empty
 * text's fingerprint: they go to groups of their own, of the same bytes,
 * appended to *gp.  Members that are no file here stay alone.
 */
static void
split_empty(const struct fpset *s, const struct out *o, struct group **gp,
    size_t *n, size_t *cap, size_t gi)
{
	struct group *g = &(*gp)[gi];
	struct bytes *b = NULL;
	size_t i, k, ne, first;

	for (i = k = ne = 0; i < g->n; i++)
		if (is_empty(s, g->id[i])) {
			if (b == NULL)
				b = xreallocarray(NULL, g->n, sizeof(*b));
			b[ne].id = g->id[i];
			b[ne++].h = doc_bytes(s, o, g->id[i]);
		} else
			g->id[k++] = g->id[i];
	if (ne == 0)
		return;
	g->n = k;
	qsort(b, ne, sizeof(*b), by_bytes);
	for (first = 0, i = 1; i <= ne; i++) {
		if (i < ne && b[i].h != 0 && b[i].h == b[first].h)
			continue;
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*gp = xreallocarray(*gp, *cap, sizeof(**gp));
		}
		g = &(*gp)[(*n)++];
		memset(g, 0, sizeof(*g));
		g->id = xreallocarray(NULL, i - first, sizeof(*g->id));
		/* By id within the bytes: in input order. */
		for (; first < i; first++)
			g->id[g->n++] = b[first].id;
	}
	free(b);
}

/* Groups by their first member (in input order), emptied ones last. */
static int
by_first(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	uint32_t i = x->n > 0 ? x->id[0] : UINT32_MAX;
	uint32_t j = y->n > 0 ? y->id[0] : UINT32_MAX;

	return i < j ? -1 : i > j;
}

/*
 * Are fingerprints a and b, of the empty text, of different bytes (or
 * not files here)?  Then they are no pair (split_empty).
 */
static int
apart(const struct fpset *s, const struct out *o, struct cout_places *pc,
    uint32_t a, uint32_t b)
{
	uint32_t i, ab[2] = { a, b };

	if (!is_empty(s, a))
		return 0;
	if (pc->bytes == NULL)
		pc->bytes = xcalloc(s->n, sizeof(*pc->bytes));
	for (i = 0; i < 2; i++)
		if (pc->bytes[ab[i]] == 0 &&
		    (pc->bytes[ab[i]] = doc_bytes(s, o, ab[i])) == 0)
			pc->bytes[ab[i]] = 2;
	return pc->bytes[a] == 2 || pc->bytes[a] != pc->bytes[b];
}

static int
member(const struct group *g, uint32_t id)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->id[i] == id)
			return 1;
	return 0;
}

size_t
cout_settle(const struct fpset *s, struct group **gp, size_t n, size_t *cap,
    const struct out *o, int byname)
{
	struct group *g;
	size_t i, k, n0;

	/* Texts without shingles: apart unless the same bytes. */
	for (i = 0, n0 = n; i < n0; i++)
		if ((*gp)[i].n > 1)
			split_empty(s, o, gp, &n, cap, i);
	g = *gp;
	if (n > n0)
		qsort(g, n, sizeof(*g), by_first);
	for (i = k = 0; i < n; i++) {
		if (g[i].n == 0) {
			free(g[i].id);
			continue;
		}
		g[k] = g[i];
		g[k].n = cout_once(s, o, g[k].id, g[k].n, byname);
		if (!g[k].haskept || !member(&g[k], g[k].kept))
			g[k].kept = ckeep_kept(s, &g[k], o, byname);
		k++;
	}
	return k;
}

/* Groups in order of their first member, each with its kept one. */
struct group *
cout_groups(const struct fpset *s, struct clusters *c, const struct out *o,
    size_t *ngroups)
{
	uint32_t *gi = xreallocarray(NULL, s->n ? s->n : 1, sizeof(*gi));
	uint32_t *size = NULL;
	struct group *g = NULL;
	size_t i, n = 0, cap = 0;
	uint32_t root;

	/* A group for each leader, or each set of the union-find. */
	if (c->leader != NULL) {
		size = xcalloc(s->n ? s->n : 1, sizeof(*size));
		for (i = 0; i < s->n; i++)
			size[c->leader[i]]++;
	}
	for (i = 0; i < s->n; i++)
		gi[i] = UINT32_MAX;
	for (i = 0; i < s->n; i++) {
		root = c->leader != NULL ? c->leader[i] :
		    uf_find(&c->uf, (uint32_t)i);
		if (gi[root] == UINT32_MAX) {
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				g = xreallocarray(g, cap, sizeof(*g));
			}
			memset(&g[n], 0, sizeof(g[n]));
			g[n].id = xreallocarray(NULL, c->leader != NULL ?
			    size[root] : c->uf.size[root], sizeof(*g[n].id));
			g[n].kept = root;
			g[n].haskept = c->leader != NULL;
			gi[root] = (uint32_t)n++;
		}
		g[gi[root]].id[g[gi[root]].n++] = (uint32_t)i;
	}
	free(size);
	free(gi);
	*ngroups = cout_settle(s, &g, n, &cap, o, 0);
	return g;
}

int
cout_no_pair(const struct fpset *s, const struct out *o,
    struct cout_places **pc, uint32_t a, uint32_t b, double sim)
{
	if (*pc == NULL)
		*pc = xcalloc(1, sizeof(**pc));
	/*
	 * A document reached twice, by one name or by two paths to one
	 * place, is not a pair with itself.
	 */
	return (o->texts == NULL && (strcmp(fpset_name(s, a),
	    fpset_name(s, b)) == 0 || one_place(s, *pc, a, b))) ||
	    (sim == 1 && apart(s, o, *pc, a, b));
}

void
cout_places_free(const struct fpset *s, struct cout_places *pc)
{
	size_t i;

	if (pc == NULL)
		return;
	if (pc->m != NULL)
		for (i = 0; i < s->n; i++)
			free(pc->m[i].place);
	free(pc->m);
	free(pc->bytes);
	free(pc);
}
