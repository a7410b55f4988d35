/*
 * Batching records, and cutting a batch into records.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jsonl.h"
#include "record.h"
#include "xmalloc.h"

void
recreader_init(struct recreader *r, int fd, int delim)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->delim = delim;
	r->next = 1;
	r->max = RECORD_MAX;
	r->longwhy = RECORD_LONG_WHY;
	r->batch = RECORD_BATCH;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

void
recreader_limit(struct recreader *r, size_t max, const char *why)
{
	r->max = max;
	r->longwhy = why;
}

void
recreader_batch(struct recreader *r, size_t bytes)
{
	r->batch = bytes;
}

#define QUIET_MS	20	/* no more input in this long: idle */
#define SLOW_MS		200	/* a batch this old: idle if none waits */

/* Milliseconds on a clock that only goes forward. */
static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Is the input idle: nothing to read within QUIET_MS, or nothing now
 * once the batch has been gathered for SLOW_MS?  A writer that is just a
 * little behind (cat(1) into a pipe) is waited for, so that batches stay
 * large; a live stream's records are handed on within SLOW_MS.
 */
static int
idle_input(int fd, long long start)
{
	struct pollfd pfd;

	pfd.fd = fd;
	pfd.events = POLLIN;
	return poll(&pfd, 1, now_ms() - start >= SLOW_MS ? 0 : QUIET_MS) == 0;
}

static size_t
count(const char *p, size_t len, int c)
{
	const char *end = p + len;
	size_t n = 0;

	while (p < end && (p = memchr(p, c, (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* Drop the first end bytes of the buffer: a record too long, skipped. */
static int
skip(struct recreader *r, size_t end, uint64_t *first)
{
	memmove(r->buf, r->buf + end, r->len - end);
	r->len -= end;
	*first = r->next++;
	return RECORD_LONG;
}

/*
 * Hand on the first cut bytes of the buffer as a batch of its own.  A
 * batch of a long record (a JSON Lines record of 100 MB) is the buffer
 * itself, not a copy: a copy would hold the record twice while it is
 * made, and the buffer would keep the pages of its first copy while the
 * record is parsed.  The bytes after the cut (usually fewer than the
 * last read, r->batch) go to a new buffer.
 */
static void
hand_on(struct recreader *r, char **data, size_t cut)
{
	char *rest;

	if (cut <= 4 * r->batch) {
		*data = xmalloc(cut);
		memcpy(*data, r->buf, cut);
		memmove(r->buf, r->buf + cut, r->len - cut);
		r->len -= cut;
		return;
	}
	r->len -= cut;
	r->cap = r->len > r->batch ? 2 * r->len : 2 * r->batch;
	rest = xmalloc(r->cap);
	memcpy(rest, r->buf + cut, r->len);
	*data = r->buf;
	r->buf = rest;
}

int
recreader_next(struct recreader *r, char **data, size_t *len,
    uint64_t *first)
{
	size_t cut = 0, scanned = 0, room;
	int skipping = 0, idle = 0;
	long long start = now_ms();
	char *last, *p;
	ssize_t n;

	r->idle = 0;
	if (r->err != 0)
		return -r->err;
	for (;;) {
		if (skipping) {
			/* The rest of a record too long: drop up to its end. */
			if ((p = memchr(r->buf, r->delim, r->len)) != NULL)
				return skip(r, (size_t)(p - r->buf) + 1, first);
			if (r->eof)
				return skip(r, r->len, first);
			r->len = 0;
		} else if (r->len >= r->batch || r->eof || idle) {
			last = scanned < r->len ? memrchr(r->buf + scanned,
			    r->delim, r->len - scanned) : NULL;
			if (last != NULL)
				cut = (size_t)(last - r->buf) + 1;
			else if (r->eof)
				cut = r->len;
			scanned = r->len;
			if (cut > 0)
				break;
			if (r->eof)
				return 0;
			idle = 0;
			/* No delimiter yet: the buffer is one record. */
			if (r->len > r->max) {
				skipping = 1;
				r->len = 0;
			}
		}
		if (r->cap - r->len < r->batch) {
			r->cap = r->cap ? r->cap * 2 : 2 * r->batch;
			r->buf = xreallocarray(r->buf, r->cap, 1);
		}
		/*
		 * Reads of at most r->batch bytes: only the first record
		 * of a batch can then be longer than the limit.
		 */
		room = r->cap - r->len;
		n = read(r->fd, r->buf + r->len, room < r->batch ? room :
		    r->batch);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* The whole records before the error go first. */
			r->err = errno;
			last = skipping || r->len == 0 ? NULL :
			    memrchr(r->buf, r->delim, r->len);
			if (last == NULL)
				return -r->err;
			cut = (size_t)(last - r->buf) + 1;
			break;
		}
		if (n == 0)
			r->eof = 1;
		r->len += (size_t)n;
		if (n > 0 && !skipping && r->len < r->batch)
			idle = idle_input(r->fd, start);
	}
	r->idle = idle;
	p = memchr(r->buf, r->delim, cut);
	if ((p != NULL ? (size_t)(p - r->buf) : cut) > r->max)
		return skip(r, p != NULL ? (size_t)(p - r->buf) + 1 : cut,
		    first);
	*len = cut;
	*first = r->next;
	r->next += count(r->buf, cut, r->delim) +
	    (r->buf[cut - 1] != (char)r->delim);
	hand_on(r, data, cut);
	return 1;
}

void
recreader_free(struct recreader *r)
{
	free(r->buf);
	r->buf = NULL;
}

void
recbatch_init(struct recbatch *b, enum recmode mode, int delim,
    const char *data, size_t len, uint64_t first)
{
	/* A batch that only reports a problem has no data: no records. */
	b->p = data;
	b->end = data != NULL ? data + len : NULL;
	b->mode = mode;
	b->delim = delim;
	b->next = first;
	b->spec = NULL;
	b->json = NULL;
}

void
recbatch_jsonl(struct recbatch *b, const struct jsonl_spec *spec)
{
	b->spec = spec;
}

void
recbatch_free(struct recbatch *b)
{
	jsonl_free(b->json);
	b->json = NULL;
}

/* The text and ID of a JSON Lines record: 1, 0 if blank, or -1. */
static int
jsonl_record(struct recbatch *b, struct record *r, const char **why)
{
	int n;

	if (b->json == NULL)
		b->json = jsonl_new(b->spec);
	n = jsonl_read(b->json, r->rec, r->len, &r->text, &r->tlen, &r->id,
	    &r->idlen, why);
	return n < 0 ? -1 : !n;
}

int
recbatch_next(struct recbatch *b, struct record *r, const char **why)
{
	const char *eol, *tab;
	int n;

again:
	if (b->p == NULL || b->p >= b->end)
		return 0;
	if ((eol = memchr(b->p, b->delim, (size_t)(b->end - b->p))) == NULL)
		eol = b->end;
	r->num = b->next++;
	r->rec = r->text = b->p;
	r->len = r->tlen = (size_t)(eol - b->p);
	r->id = NULL;
	r->idlen = 0;
	b->p = eol < b->end ? eol + 1 : b->end;
	if (b->mode == REC_JSONL) {
		if ((n = jsonl_record(b, r, why)) == 0)
			goto again;
		return n;
	}
	if (b->mode != REC_TSV)
		return 1;
	tab = memchr(r->rec, '\t', r->len);
	if (tab == NULL || tab == r->rec) {
		*why = tab == NULL ? "no tab: expected ID<TAB>TEXT" :
		    "empty ID before the tab";
		return -1;
	}
	r->id = r->rec;
	r->idlen = (size_t)(tab - r->rec);
	r->text = tab + 1;
	r->tlen = r->len - r->idlen - 1;
	return 1;
}

const char *
record_name_why(const struct record *r)
{
	/* Names are C strings, and lines read back are bounded. */
	if (r->idlen > RECORD_ID_MAX)
		return "ID longer than 1048576 bytes";
	if (memchr(r->id, '\0', r->idlen) != NULL)
		return "NUL byte in ID";
	return NULL;
}

const char *
record_id(enum recmode mode, const char *rec, size_t len, size_t *idlen)
{
	const char *tab;

	switch (mode) {
	case REC_TSV:
		/* recbatch_next() read it: it has its tab. */
		tab = memchr(rec, '\t', len);
		*idlen = tab != NULL ? (size_t)(tab - rec) : len;
		return rec;
	default:
		*idlen = len;
		return rec;
	}
}
