/*
 * Loading and looking up weight tables.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "byteorder.h"
#include "decimal.h"
#include "linein.h"
#include "record.h"
#include "token.h"
#include "utf8.h"
#include "weights.h"
#include "xmalloc.h"

/* WEIGHTS_MAX as the messages write it. */
#define TEXT(x)		#x
#define TEXT_OF(x)	TEXT(x)
#define MAX_TEXT	TEXT_OF(WEIGHTS_MAX)

static size_t
slot(const struct weights *w, uint64_t th)
{
	size_t i, mask = w->cap - 1;

	for (i = (size_t)th & mask; w->used[i] && w->key[i] != th;
	    i = (i + 1) & mask)
		;
	return i;
}

static void
grow(struct weights *w)
{
	struct weights old = *w;
	size_t i, j;

	w->cap = old.cap ? old.cap * 2 : 256;
	w->key = xreallocarray(NULL, w->cap, sizeof(*w->key));
	w->val = xreallocarray(NULL, w->cap, sizeof(*w->val));
	w->used = xcalloc(w->cap, 1);
	for (i = 0; i < old.cap; i++) {
		if (!old.used[i])
			continue;
		j = slot(w, old.key[i]);
		w->used[j] = 1;
		w->key[j] = old.key[i];
		w->val[j] = old.val[i];
	}
	free(old.key);
	free(old.val);
	free(old.used);
}

/* Normalize a token as the shingler would; -1 if it is not one word. */
static int
normalize(struct buf *out, const unsigned char *s, size_t len,
    const struct scheme *sc)
{
	unsigned char u[4];
	uint32_t cp;
	size_t r;

	buf_clear(out);
	while (len > 0) {
		r = utf8_decode(s, len, 1, &cp);
		s += r;
		len -= r;
		if (!token_isword(cp, sc->keeppunct))
			return -1;
		cp = token_fold(cp, sc->keepcase);
		buf_add(out, u, utf8_encode(cp, u));
	}
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A digest of the table independent of line order and spelling: XXH3 of
 * its (token hash, weight) pairs in the order of the hashes, each as 16
 * little-endian bytes.
 */
static uint64_t
digest(const struct weights *w)
{
	uint64_t *keys, *pairs, d;
	size_t i, n = 0;
	double v;

	keys = xreallocarray(NULL, w->n, sizeof(*keys));
	for (i = 0; i < w->cap; i++)
		if (w->used[i])
			keys[n++] = w->key[i];
	qsort(keys, n, sizeof(*keys), cmp_u64);
	pairs = xreallocarray(NULL, n ? 2 * n : 1, sizeof(*pairs));
	for (i = 0; i < n; i++) {
		v = weights_get(w, keys[i]);
		memcpy(&pairs[2 * i + 1], &v, sizeof(v));
		pairs[2 * i] = le64(keys[i]);
		pairs[2 * i + 1] = le64(pairs[2 * i + 1]);
	}
	d = XXH3_64bits(pairs, n * 2 * sizeof(*pairs));
	free(pairs);
	free(keys);
	return d;
}

static int
fail(struct weights_error *e, size_t line, int errnum, const char *why)
{
	e->line = line;
	e->errnum = errnum;
	e->why = why;
	return -1;
}

int
weights_load(struct weights *w, const char *path, const struct scheme *sc,
    struct weights_error *e)
{
	struct buf tok = { 0 };
	struct linein li;
	char *line, *tab;
	size_t lineno, len, i;
	uint64_t th;
	double v;
	int fd, n, rv = -1;

	memset(w, 0, sizeof(*w));
	if ((fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1)
		return fail(e, 0, errno, NULL);
	linein_init(&li, fd, '\n', RECORD_MAX);
	while ((n = linein_next(&li, &line, &len)) > 0) {
		lineno = (size_t)li.lineno;
		if (n == LINEIN_LONG) {
			fail(e, lineno, 0, RECORD_LINE_WHY);
			goto out;
		}
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (memchr(line, '\0', len) != NULL) {
			fail(e, lineno, 0, "NUL byte in line");
			goto out;
		}
		if ((tab = strchr(line, '\t')) == NULL) {
			fail(e, lineno, 0, "expected TOKEN<TAB>WEIGHT");
			goto out;
		}
		if (tab == line) {
			fail(e, lineno, 0, "empty token");
			goto out;
		}
		if (decimal_parse(tab + 1, &v) == -1 || v < 0 ||
		    v > WEIGHTS_MAX) {
			fail(e, lineno, 0,
			    "weight is not a number from 0 to " MAX_TEXT);
			goto out;
		}
		if (normalize(&tok, (unsigned char *)line,
		    (size_t)(tab - line), sc) == -1) {
			fail(e, lineno, 0,
			    "token is not one word under this normalization");
			goto out;
		}
		th = token_hash(tok.data, tok.len, sc->seed);
		if (w->n * 4 >= w->cap * 3)
			grow(w);
		i = slot(w, th);
		if (w->used[i]) {
			fail(e, lineno, 0, "token listed twice");
			goto out;
		}
		w->used[i] = 1;
		w->key[i] = th;
		w->val[i] = v;
		w->n++;
	}
	if (n < 0) {
		fail(e, 0, -n, NULL);
		goto out;
	}
	if (w->cap == 0)
		grow(w);
	w->digest = digest(w);
	rv = 0;
out:
	linein_free(&li);
	buf_free(&tok);
	close(fd);
	if (rv == -1)
		weights_free(w);
	return rv;
}

double
weights_get(const struct weights *w, uint64_t th)
{
	size_t i = slot(w, th);

	return w->used[i] ? w->val[i] : WEIGHTS_DEFAULT;
}

void
weights_free(struct weights *w)
{
	free(w->key);
	free(w->val);
	free(w->used);
	memset(w, 0, sizeof(*w));
}
