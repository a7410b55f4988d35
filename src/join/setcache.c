/*
 * A bounded cache of documents' exact shingle sets (see setcache.h).
 * The entries are on a list in order of use; the least recently used
 * goes when the sets pass the bound, unless it is one of the last two
 * asked for, which a comparison holds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "members.h"
#include "pool.h"
#include "setcache.h"
#include "source.h"
#include "spool.h"
#include "xmalloc.h"

#define NIL	UINT32_MAX

struct entry {
	struct docset ds;
	uint32_t prev, next;	/* the list of use, most recent first */
	int	 state;		/* 0 unread, 1 held, 2 failed */
	int	 err;
};

struct setcache {
	struct scheme sc;
	struct docreader rd;
	const struct spool *texts;	/* or NULL: documents are files */
	struct entry *e;
	size_t	 n, max, bytes;
	uint32_t head, tail;
	uint32_t last[2];	/* the last two asked for */
	size_t	 reads;
	uint64_t readbytes;
};

struct setcache *
setcache_new(const struct scheme *sc, size_t n, size_t max)
{
	struct setcache *c = xcalloc(1, sizeof(*c));
	size_t i;

	c->sc = *sc;
	c->n = n;
	c->max = max;
	c->e = xcalloc(n ? n : 1, sizeof(*c->e));
	for (i = 0; i < n; i++)
		c->e[i].prev = c->e[i].next = NIL;
	c->head = c->tail = NIL;
	c->last[0] = c->last[1] = NIL;
	docreader_init(&c->rd, sc);
	return c;
}

void
setcache_texts(struct setcache *c, const struct spool *sp)
{
	c->texts = sp;
}

static void
unlink_entry(struct setcache *c, uint32_t i)
{
	struct entry *x = &c->e[i];

	if (x->prev != NIL)
		c->e[x->prev].next = x->next;
	else
		c->head = x->next;
	if (x->next != NIL)
		c->e[x->next].prev = x->prev;
	else
		c->tail = x->prev;
	x->prev = x->next = NIL;
}

static void
push_front(struct setcache *c, uint32_t i)
{
	c->e[i].prev = NIL;
	c->e[i].next = c->head;
	if (c->head != NIL)
		c->e[c->head].prev = i;
	c->head = i;
	if (c->tail == NIL)
		c->tail = i;
}

/* Drop the least recently used sets while over the bound. */
static void
shrink(struct setcache *c)
{
	uint32_t i = c->tail, p;

	while (c->bytes > c->max && i != NIL) {
		p = c->e[i].prev;
		if (i != c->last[0] && i != c->last[1]) {
			c->bytes -= c->e[i].ds.n * sizeof(uint64_t);
			docset_free(&c->e[i].ds);
			c->e[i].state = 0;
			unlink_entry(c, i);
		}
		i = p;
	}
}

/*
 * Read the set of the file name into *ds with rd: 0 or what went wrong;
 * its size to *size.
 */
static int
read_set(struct docreader *rd, const char *name, struct docset *ds,
    uint64_t *size)
{
	struct source src;
	struct stat st;
	int fd, e, ce;

	/* Nor is an archive's member (see members.h): its estimate stands. */
	if (strcmp(name, "-") == 0 || members_archive(name) > 0)
		return SETCACHE_NOTREG;
	/* Never wait on a FIFO: only a regular file is read again. */
	if ((fd = open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)) ==
	    -1)
		return errno;
	if (fstat(fd, &st) == -1) {
		e = errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? EISDIR : SETCACHE_NOTREG;
	}
	if ((e = source_fd(&src, fd, 1, SOURCE_WHOLE)) != 0) {
		close(fd);
		return e;
	}
	e = docreader_fd(rd, src.fd, ds);
	/*
	 * A broken compressed stream: its set is not the document's.  Its
	 * reason is not kept with the entry's errno value; EIO says it.
	 */
	if ((ce = source_close(&src)) != 0 && e == 0) {
		docset_free(ds);
		e = ce == SOURCE_BROKEN ? EIO : ce;
	}
	source_free(&src);
	*size = (uint64_t)st.st_size;
	return e;
}

/* The set of text i of sp into *ds, as read_set(): 0 or errno. */
static int
read_text(const struct spool *sp, struct docreader *rd, uint32_t i,
    struct docset *ds, uint64_t *size)
{
	struct buf b = { 0 };
	int e;

	if ((e = spool_read(sp, i, &b)) == 0) {
		docreader_mem(rd, b.data, b.len, ds);
		*size = b.len;
	}
	buf_free(&b);
	return e;
}

/* The set of document i, a text of sp or the file name: 0 or errno. */
static int
read_doc(const struct spool *sp, struct docreader *rd, uint32_t i,
    const char *name, struct docset *ds, uint64_t *size)
{
	if (sp != NULL)
		return read_text(sp, rd, i, ds, size);
	return read_set(rd, name, ds, size);
}

/* Read document i into its entry: 0 or what went wrong. */
static int
load(struct setcache *c, uint32_t i, const char *name)
{
	uint64_t size;
	int e;

	if ((e = read_doc(c->texts, &c->rd, i, name, &c->e[i].ds,
	    &size)) != 0)
		return e;
	c->reads++;
	c->readbytes += size;
	return 0;
}

/* A set read ahead by a worker. */
struct ahead {
	const struct spool *texts;
	uint32_t id;
	const char *name;
	struct docset ds;
	uint64_t size;
	int	 err;
};

static void
read_ahead(void *wctx, void *item)
{
	struct ahead *a = item;

	a->err = read_doc(a->texts, wctx, a->id, a->name, &a->ds, &a->size);
}

/* Take a set read ahead into the cache. */
static void
settle(struct setcache *c, struct ahead *a)
{
	struct entry *x = &c->e[a->id];

	if (x->state != 0) {
		docset_free(&a->ds);
		return;
	}
	if (a->err != 0) {
		x->state = 2;
		x->err = a->err;
		return;
	}
	x->ds = a->ds;
	x->state = 1;
	push_front(c, a->id);
	c->bytes += x->ds.n * sizeof(uint64_t);
	c->reads++;
	c->readbytes += a->size;
}

void
setcache_prefetch(struct setcache *c, const uint32_t *ids,
    const char *const *names, size_t n, unsigned jobs)
{
	struct docreader *rd;
	struct ahead *a;
	struct pool *p;
	void **wctx;
	size_t i;
	unsigned w;

	if (n == 0)
		return;
	rd = xreallocarray(NULL, jobs, sizeof(*rd));
	wctx = xreallocarray(NULL, jobs, sizeof(*wctx));
	for (w = 0; w < jobs; w++) {
		docreader_init(&rd[w], &c->sc);
		wctx[w] = &rd[w];
	}
	p = pool_new(jobs, read_ahead, wctx);
	for (i = 0;;) {
		/* Reading ahead while there is room; then taking what was. */
		while (i < n && c->bytes < c->max && !pool_full(p)) {
			if (c->e[ids[i]].state != 0) {
				i++;
				continue;
			}
			a = xcalloc(1, sizeof(*a));
			a->texts = c->texts;
			a->id = ids[i];
			a->name = names[i++];
			pool_put(p, a);
		}
		if ((a = pool_get(p)) == NULL)
			break;
		settle(c, a);
		free(a);
	}
	pool_free(p);
	for (w = 0; w < jobs; w++)
		docreader_free(&rd[w]);
	free(rd);
	free(wctx);
}

const struct docset *
setcache_get(struct setcache *c, uint32_t i, const char *name, int *err)
{
	struct entry *x = &c->e[i];

	c->last[1] = c->last[0];
	c->last[0] = i;
	if (x->state == 2) {
		*err = x->err;
		return NULL;
	}
	if (x->state == 1) {
		unlink_entry(c, i);
		push_front(c, i);
		return &x->ds;
	}
	if ((x->err = load(c, i, name)) != 0) {
		x->state = 2;
		*err = x->err;
		return NULL;
	}
	x->state = 1;
	push_front(c, i);
	c->bytes += x->ds.n * sizeof(uint64_t);
	shrink(c);
	return &x->ds;
}

const struct docset *
setcache_held(const struct setcache *c, uint32_t i, int *err)
{
	*err = c->e[i].state == 2 ? c->e[i].err : 0;
	return c->e[i].state == 1 ? &c->e[i].ds : NULL;
}

size_t
setcache_bytes(const struct setcache *c)
{
	return c->bytes;
}

void
setcache_stats(const struct setcache *c, size_t *reads, uint64_t *bytes)
{
	*reads = c->reads;
	*bytes = c->readbytes;
}

void
setcache_free(struct setcache *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		docset_free(&c->e[i].ds);
	free(c->e);
	docreader_free(&c->rd);
	free(c);
}
