/*
 * The record options shared by the commands that read records: which
 * record mode (record.h), NUL-terminated records, and the fields of JSON
 * Lines records.  The modes an option picks are listed once, here, with
 * the option that picks each.
 */
#include <err.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "cli.h"

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

void
recopts_free(struct recopts *o)
{
	jsonl_spec_free(&o->js);
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
