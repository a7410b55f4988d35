/*
 * The record options shared by the commands that read records: which
 * record mode (record.h), NUL-terminated records, and the fields of JSON
 * Lines records.  The modes an option picks are listed once, here, with
 * the option that picks each.
 */
#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "source.h"
#include "walk.h"

/* The options that pick a record mode, in the order messages name them. */
static const struct {
	int	 ch;
	enum recmode mode;
	const char *name;
} modes[] = {
	{ OPT_LINES, REC_LINES, "lines" },
	{ OPT_TSV, REC_TSV, "tsv" },
	{ OPT_JSONL, REC_JSONL, "jsonl" }
};

#define NMODES (sizeof(modes) / sizeof(modes[0]))

/* The option that picks mode m. */
static const char *
mode_name(enum recmode m)
{
	size_t i;

	for (i = 0; i < NMODES; i++)
		if (modes[i].mode == m)
			return modes[i].name;
	return "?";
}

void
recopts_init(struct recopts *o, enum recmode mode)
{
	o->mode = mode;
	o->given = REC_NONE;
	o->delim = '\n';
	o->field = "text";
	o->idfield = NULL;
	o->skipbad = 0;
	o->skipped = 0;
}

/* A field name, which must not be empty. */
static const char *
field(const struct cmd *c, const char *opt, const char *arg)
{
	if (*arg == '\0') {
		warnx("%s: empty field name", opt);
		cli_usage(c);
	}
	return arg;
}

int
recopts_option(const struct cmd *c, struct recopts *o, int ch,
    const char *arg)
{
	enum recmode m, first;
	size_t i;

	switch (ch) {
	case 'z':
		o->delim = '\0';
		return 1;
	case OPT_ID:
		o->idfield = field(c, "--id", arg);
		return 1;
	case OPT_JSONL_SKIP_BAD:
		o->skipbad = 1;
		return 1;
	case OPT_JSONL:
		if (arg != NULL)
			o->field = field(c, "--jsonl", arg);
		break;
	}
	for (i = 0; i < NMODES && modes[i].ch != ch; i++)
		continue;
	if (i == NMODES)
		return 0;
	m = modes[i].mode;
	if (o->given != REC_NONE && o->given != m) {
		/* In table order, not argv order: one message either way. */
		for (i = 0; modes[i].mode != o->given && modes[i].mode != m;
		    i++)
			continue;
		first = modes[i].mode;
		warnx("--%s and --%s exclude each other", mode_name(first),
		    mode_name(first == m ? o->given : m));
		cli_usage(c);
	}
	o->mode = o->given = m;
	return 1;
}

void
recopts_check(const struct cmd *c, struct recopts *o)
{
	if (o->mode != REC_JSONL && (o->idfield != NULL || o->skipbad)) {
		warnx("--id and --jsonl-skip-bad apply to --jsonl");
		cli_usage(c);
	}
	if (o->mode == REC_JSONL && o->delim == '\0') {
		warnx("--jsonl: records are lines, not -z");
		cli_usage(c);
	}
	jsonl_spec_init(&o->js, o->field, o->idfield);
}

int
recopts_bad(struct recopts *o, const char *name, uint64_t num,
    const char *why)
{
	if (o->skipbad) {
		o->skipped++;
		return EXIT_OK;
	}
	warnx("%s:%" PRIu64 ": %s", cli_vis(name), num, why);
	return EXIT_TROUBLE;
}

void
recopts_report(const struct recopts *o)
{
	if (o->skipped > 0)
		warnx("--jsonl-skip-bad: %" PRIu64 " bad record%s skipped",
		    o->skipped, o->skipped == 1 ? "" : "s");
}

/* The records of one batch to fn; bad ones reported. */
static int
each_batch(struct recopts *o, const char *name, char *data, size_t len,
    uint64_t first, recopts_fn *fn, void *ctx)
{
	struct recbatch rb;
	struct record r;
	struct buf nm = { 0 };
	const char *why;
	char num[24];
	int n, rval = EXIT_OK;

	recbatch_init(&rb, o->mode, o->delim, data, len, first);
	recbatch_jsonl(&rb, &o->js);
	while ((n = recbatch_next(&rb, &r, &why)) != 0) {
		if (n < 0 || (r.id != NULL &&
		    (why = record_name_why(&r)) != NULL)) {
			rval |= recopts_bad(o, name, r.num, why);
			continue;
		}
		buf_clear(&nm);
		if (r.id != NULL)
			buf_add(&nm, r.id, r.idlen);
		else {
			buf_add(&nm, name, strlen(name));
			buf_add(&nm, num, (size_t)snprintf(num, sizeof(num),
			    ":%" PRIu64, r.num));
		}
		buf_addc(&nm, '\0');
		fn(ctx, &r, nm.data, nm.len - 1);
	}
	recbatch_free(&rb);
	buf_free(&nm);
	return rval;
}

int
recopts_open(const struct recopts *o, const char *name, struct recreader *rr,
    struct source *src)
{
	int fd, e;

	if (strcmp(name, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1) {
		warn("%s", cli_vis(name));
		return -1;
	}
	if (cli_is_output(fd))
		e = -1;
	else
		e = source_fd(src, fd, fd != STDIN_FILENO, o->delim);
	if (e != 0) {
		if (e == -1)
			warnx("%s: %s", cli_vis(name),
			    walk_strerror(WALK_ISOUTPUT));
		else
			warnc(e, "%s", cli_vis(name));
		if (fd != STDIN_FILENO)
			close(fd);
		return -1;
	}
	recreader_init(rr, src->fd, o->delim);
	if (o->mode == REC_JSONL)
		recreader_limit(rr, RECORD_JSONL_MAX, RECORD_JSONL_WHY);
	return 0;
}

int
recopts_close(struct recreader *rr, struct source *src, const char *name,
    int n)
{
	int e, rval = EXIT_OK;

	recreader_free(rr);
	if ((e = source_close(src)) != 0 || n < 0) {
		cli_warn_input(name, n < 0 ? -n : e, src->why);
		src->why = NULL;
		rval = EXIT_TROUBLE;
	}
	source_free(src);
	return rval;
}

int
recopts_each(struct recopts *o, const char *name, recopts_fn *fn, void *ctx)
{
	struct recreader rr;
	struct source src;
	uint64_t first;
	char *data;
	size_t len;
	int n, rval = EXIT_OK;

	if (recopts_open(o, name, &rr, &src) == -1)
		return EXIT_TROUBLE;
	while ((n = recreader_next(&rr, &data, &len, &first)) > 0) {
		if (n == RECORD_LONG)
			rval |= recopts_bad(o, name, first, rr.longwhy);
		else {
			rval |= each_batch(o, name, data, len, first, fn, ctx);
			free(data);
		}
	}
	return rval | recopts_close(&rr, &src, name, n);
}
