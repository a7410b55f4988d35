/*
 * The members of an archive (see members.h).
 */
#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "members.h"
#include "source.h"
#include "xmalloc.h"

#define PEEK		512		/* a tar header: its magic at 257 */
#define ARCHIVE_BLOCK	(128 * 1024)	/* bytes per read of the file */

/* Do the first n bytes at p begin a tar, zip or cpio archive? */
static int
archive_magic(const unsigned char *p, size_t n)
{
	static const char *const begin[] = {
		"PK\003\004", "PK\005\006",		/* zip */
		"070707", "070701", "070702",		/* cpio odc, newc, crc */
		"\307\161", "\161\307",			/* cpio binary */
	};
	size_t i, m;

	for (i = 0; i < sizeof(begin) / sizeof(begin[0]); i++) {
		m = strlen(begin[i]);
		if (n >= m && memcmp(p, begin[i], m) == 0)
			return 1;
	}
	return n >= 262 && memcmp(p + 257, "ustar", 5) == 0;
}

/* Enough to tell: a magic of a compression, or a whole tar header. */
static int
decided(const unsigned char *p, size_t n)
{
	return source_magic(p, n) == 1 || archive_magic(p, n);
}

static int
broken(struct members *m)
{
	const char *s = archive_error_string(m->a);

	free(m->why);
	m->why = xstrdup(s != NULL ? s : "cannot read the archive");
	return SOURCE_BROKEN;
}

int
members_open(struct members *m, const char *path, int isstdin)
{
	unsigned char b[PEEK];
	struct stat st;
	size_t n;

	memset(m, 0, sizeof(*m));
	m->fd = STDIN_FILENO;
	if (!isstdin) {
		if ((m->fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1)
			return errno;
		m->own = 1;
	}
	n = source_peek(m->fd, b, sizeof(b), decided);
	m->compressed = source_magic(b, n) == 1;
	if (fstat(m->fd, &st) == -1 || S_ISDIR(st.st_mode) ||
	    (!m->compressed && !archive_magic(b, n))) {
		members_close(m);
		return MEMBERS_PLAIN;
	}
	if ((m->a = archive_read_new()) == NULL) {
		members_close(m);
		return ENOMEM;
	}
	source_filters(m->a);
	archive_read_support_format_tar(m->a);
	archive_read_support_format_zip(m->a);
	archive_read_support_format_cpio(m->a);
	archive_read_support_format_raw(m->a);
	archive_read_support_format_empty(m->a);
	if (archive_read_open_fd(m->a, m->fd, ARCHIVE_BLOCK) != ARCHIVE_OK)
		return broken(m);
	return 0;
}

int
members_next(struct members *m, const char **path)
{
	struct archive_entry *e;
	int r;

	if (m->empty)
		return 0;	/* past its one document */
	while ((r = archive_read_next_header(m->a, &e)) >= ARCHIVE_WARN) {
		if (m->compressed && !source_decoded(m->a)) {
			free(m->why);
			m->why = xstrdup(SOURCE_HEADER_WHY);
			return SOURCE_BROKEN;
		}
		if (r == ARCHIVE_EOF && (m->raw ||
		    archive_format(m->a) != ARCHIVE_FORMAT_EMPTY))
			return 0;
		if (r == ARCHIVE_EOF) {
			/* A compressed empty text: one empty document. */
			m->raw = m->empty = 1;
			*path = NULL;
			return 1;
		}
		if (archive_format(m->a) == ARCHIVE_FORMAT_RAW) {
			/* Once only: a raw stream has one "member". */
			if (m->raw)
				return 0;
			m->raw = 1;
			*path = NULL;
			return 1;
		}
		if (archive_entry_filetype(e) == AE_IFREG) {
			*path = archive_entry_pathname(e);
			if (*path == NULL)
				*path = "";
			return 1;
		}
	}
	return broken(m);
}

int
members_data(struct members *m, const void **p, size_t *len)
{
	la_int64_t off;
	int r;

	if (m->empty)
		return 0;
	r = archive_read_data_block(m->a, p, len, &off);
	if (r == ARCHIVE_EOF)
		return 0;
	if (r < ARCHIVE_WARN)
		return broken(m);
	return 1;
}

int
members_find(struct members *m, const char *name, size_t alen)
{
	const char *want = name + alen + strlen(MEMBERS_SEP), *path;
	char *archive;
	int r;

	archive = xmalloc(alen + 1);
	memcpy(archive, name, alen);
	archive[alen] = '\0';
	r = members_open(m, archive, 0);
	free(archive);
	if (r == MEMBERS_PLAIN)
		return MEMBERS_NONE;
	if (r != 0)
		return r;
	while ((r = members_next(m, &path)) == 1)
		if (path != NULL && strcmp(path, want) == 0)
			return 0;
	return r == 0 ? MEMBERS_NONE : r;
}

void
members_close(struct members *m)
{
	if (m->a != NULL)
		archive_read_free(m->a);
	m->a = NULL;
	if (m->own)
		close(m->fd);
	m->own = 0;
	free(m->why);
	m->why = NULL;
}

size_t
members_archive(const char *name)
{
	const char *sep = name;
	struct stat st;
	char *archive;
	size_t len = 0;
	int reg = 0;

	/* "dir//a.tar//m": the first prefix that is a regular file. */
	while (!reg && (sep = strstr(sep, MEMBERS_SEP)) != NULL) {
		len = (size_t)(sep - name);
		sep += strlen(MEMBERS_SEP);
		if (len == 0)
			continue;
		archive = xmalloc(len + 1);
		memcpy(archive, name, len);
		archive[len] = '\0';
		reg = stat(archive, &st) == 0 && S_ISREG(st.st_mode);
		free(archive);
	}
	return reg ? len : 0;
}
