/*
 * Unit tests of the bounded readers, src/io/linein.c (lines) and the record
 * limit of src/io/record.c: a line or record of the limit is read, one byte
 * more is skipped whole and said to be, the next ones are still read, and
 * memory stays near the limit whatever the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linein.h"
#include "record.h"
#include "unit.h"

/* A descriptor reading the n bytes of s, from a temporary file. */
static int
input(const char *s, size_t n)
{
	FILE *fp = tmpfile();
	int fd;

	if (fp == NULL || fwrite(s, 1, n, fp) != n || fflush(fp) != 0) {
		perror("tmpfile");
		exit(2);
	}
	fd = dup(fileno(fp));
	fclose(fp);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* The next line of li is want (n = 1), or the result is n. */
static int
expect(struct linein *li, int n, const char *want)
{
	char *line;
	size_t len;
	int got = linein_next(li, &line, &len);

	if (!CHECK(got == n, "line %llu: got %d, want %d",
	    (unsigned long long)li->lineno, got, n))
		return 0;
	if (n == 1)
		return CHECK(len == strlen(want) && memcmp(line, want, len) == 0 &&
		    line[len] == '\0', "line %llu: got '%.*s', want '%s'",
		    (unsigned long long)li->lineno, (int)len, line, want);
	return 1;
}

static void
test_linein_lines(void)
{
	static const char s[] = "ab\ncd\n\nlast";
	struct linein li;
	int fd = input(s, sizeof(s) - 1);

	linein_init(&li, fd, '\n', 100);
	expect(&li, 1, "ab");
	expect(&li, 1, "cd");
	expect(&li, 1, "");
	expect(&li, 1, "last");
	expect(&li, 0, NULL);
	CHECK(li.lineno == 4, "lineno %llu", (unsigned long long)li.lineno);
	linein_free(&li);
	close(fd);
}

static void
test_linein_limit(void)
{
	static const char s[] = "abcd\nabcde\nxy\nabcdefgh";
	struct linein li;
	int fd = input(s, sizeof(s) - 1);

	linein_init(&li, fd, '\n', 4);
	expect(&li, 1, "abcd");
	expect(&li, LINEIN_LONG, NULL);
	CHECK(li.lineno == 2, "lineno %llu", (unsigned long long)li.lineno);
	expect(&li, 1, "xy");
	expect(&li, LINEIN_LONG, NULL);
	expect(&li, 0, NULL);
	CHECK(li.lineno == 4, "lineno %llu", (unsigned long long)li.lineno);
	linein_free(&li);
	close(fd);
}

/* A long line is dropped as it comes: the buffer does not grow with it. */
static void
test_linein_bounded(void)
{
	size_t n = 8 << 20;
	char *s = malloc(n + 4);
	struct linein li;
	int fd;

	memset(s, 'x', n);
	memcpy(s + n, "\nok\0", 4);
	fd = input(s, n + 4);
	linein_init(&li, fd, '\0', 100);
	expect(&li, LINEIN_LONG, NULL);
	expect(&li, 0, NULL);
	CHECK(li.cap <= 1 << 20, "buffer of %zu bytes", li.cap);
	linein_free(&li);
	close(fd);
	fd = input(s, n + 3);
	linein_init(&li, fd, '\n', 100);
	expect(&li, LINEIN_LONG, NULL);
	expect(&li, 1, "ok");
	expect(&li, 0, NULL);
	linein_free(&li);
	close(fd);
	free(s);
}

/* A line without end is said to be too long once past the bound. */
static void
test_linein_endless(void)
{
	struct linein li;
	int fd = open("/dev/zero", O_RDONLY);

	if (!CHECK(fd != -1, "/dev/zero: %s", strerror(errno)))
		return;
	linein_init(&li, fd, '\n', 1 << 20);
	expect(&li, LINEIN_LONG, NULL);
	CHECK(li.lineno == 1, "lineno %llu", (unsigned long long)li.lineno);
	CHECK(li.cap <= 4 << 20, "buffer of %zu bytes", li.cap);
	linein_free(&li);
	close(fd);
}

static void
test_linein_error(void)
{
	struct linein li;
	int fd = open(".", O_RDONLY);

	linein_init(&li, fd, '\n', 100);
	expect(&li, -EISDIR, NULL);
	linein_free(&li);
	close(fd);
}

/* RECORD_MAX bytes are a record; one more is skipped, with its number. */
static void
test_record_limit(void)
{
	size_t n = RECORD_MAX, total = 2 * n + 7;
	char *s = malloc(total), *data;
	struct recreader rr;
	uint64_t first;
	size_t len;
	int fd, got;

	memset(s, 'a', n);
	s[n] = '\n';
	memset(s + n + 1, 'b', n + 1);
	memcpy(s + 2 * n + 2, "\nc\nd\n", 5);
	fd = input(s, total);
	recreader_init(&rr, fd, '\n');
	got = recreader_next(&rr, &data, &len, &first);
	if (CHECK(got == 1 && first == 1 && len == n + 1,
	    "got %d, record %llu, %zu bytes", got, (unsigned long long)first,
	    len))
		free(data);
	got = recreader_next(&rr, &data, &len, &first);
	CHECK(got == RECORD_LONG && first == 2, "got %d, record %llu", got,
	    (unsigned long long)first);
	got = recreader_next(&rr, &data, &len, &first);
	if (CHECK(got == 1 && first == 3 && len == 4 &&
	    memcmp(data, "c\nd\n", 4) == 0, "got %d, record %llu", got,
	    (unsigned long long)first))
		free(data);
	got = recreader_next(&rr, &data, &len, &first);
	CHECK(got == 0, "got %d at the end", got);
	CHECK(rr.cap <= 2 * (size_t)RECORD_MAX + 2 * RECORD_BATCH,
	    "buffer of %zu bytes", rr.cap);
	recreader_free(&rr);
	close(fd);
	free(s);
}

/*
 * Batches of the size set (recreader_batch), or RECORD_BATCH: each but the
 * last at least that many bytes and less than twice, cut after a record,
 * all the records in order.
 */
static void
test_record_batch(void)
{
	static const size_t sizes[] = { 65536, 4096, 0 };
	size_t total = 3 << 20, i, k, want, got, len, nb;
	char *s = malloc(total), *data;
	struct recreader rr;
	uint64_t first, next;
	int fd, n;

	if (s == NULL)
		abort();
	for (i = 0; i < total; i++)	/* lines of 1 to 37 bytes */
		s[i] = i % 37 == i / 37 % 37 ? '\n' : 'x';
	s[total - 1] = '\n';
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		want = sizes[k] ? sizes[k] : RECORD_BATCH;
		fd = input(s, total);
		recreader_init(&rr, fd, '\n');
		if (sizes[k])
			recreader_batch(&rr, sizes[k]);
		got = nb = 0;
		next = 1;
		while ((n = recreader_next(&rr, &data, &len, &first)) == 1) {
			CHECK(first == next && len > 0 && data[len - 1] == '\n',
			    "batch %zu of size %zu: record %llu, not %llu, or "
			    "cut inside a record", nb, want,
			    (unsigned long long)first,
			    (unsigned long long)next);
			CHECK(len < 2 * want && (len >= want - 64 ||
			    got + len == total), "batch %zu of size %zu: %zu "
			    "bytes", nb, want, len);
			for (i = 0; i < len; i++)
				next += data[i] == '\n';
			got += len;
			nb++;
			free(data);
		}
		CHECK(n == 0 && got == total, "batches of %zu: %zu bytes of "
		    "%zu, then %d", want, got, total, n);
		recreader_free(&rr);
		close(fd);
	}
	free(s);
}

/*
 * A pipe whose writer stops for now: the whole records read so far are a
 * batch, marked idle, and the part of a record after them waits for the
 * rest.  A regular file is never idle.
 */
static void
test_record_idle(void)
{
	struct recreader rr;
	uint64_t first;
	char *data;
	size_t len;
	int p[2], got;

	if (pipe(p) == -1) {
		perror("pipe");
		exit(2);
	}
	if (write(p[1], "a\nb\nc", 5) != 5)
		exit(2);
	recreader_init(&rr, p[0], '\n');
	got = recreader_next(&rr, &data, &len, &first);
	if (CHECK(got == 1 && rr.idle && first == 1 && len == 4 &&
	    memcmp(data, "a\nb\n", 4) == 0, "got %d, idle %d, %zu bytes", got,
	    rr.idle, len))
		free(data);
	if (write(p[1], "d\ne\n", 4) != 4)
		exit(2);
	close(p[1]);
	got = recreader_next(&rr, &data, &len, &first);
	if (CHECK(got == 1 && first == 3 && len == 5 &&
	    memcmp(data, "cd\ne\n", 5) == 0, "got %d, record %llu, %zu bytes",
	    got, (unsigned long long)first, len))
		free(data);
	CHECK(recreader_next(&rr, &data, &len, &first) == 0, "not the end");
	recreader_free(&rr);
	close(p[0]);

	p[0] = input("a\nb\n", 4);
	recreader_init(&rr, p[0], '\n');
	got = recreader_next(&rr, &data, &len, &first);
	if (CHECK(got == 1 && !rr.idle && len == 4, "got %d, idle %d", got,
	    rr.idle))
		free(data);
	recreader_free(&rr);
	close(p[0]);
}

int
main(void)
{
	RUN(test_linein_lines);
	RUN(test_linein_limit);
	RUN(test_linein_bounded);
	RUN(test_linein_endless);
	RUN(test_linein_error);
	RUN(test_record_limit);
	RUN(test_record_idle);
	RUN(test_record_batch);
	return unit_status();
}
