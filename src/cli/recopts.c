/*
 * The record options shared by the commands that read records: which
 * record mode (record.h), and NUL-terminated records.  The modes an
 * option picks are listed once, here, with the option that picks each.
 */
#include <err.h>
#include <stddef.h>

#include "cli.h"

/* The options that pick a record mode, in the order messages name them. */
static const struct {
	int	 ch;
	enum recmode mode;
	const char *name;
} modes[] = {
	{ OPT_LINES, REC_LINES, "lines" },
	{ OPT_TSV, REC_TSV, "tsv" }
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
}

int
recopts_option(const struct cmd *c, struct recopts *o, int ch)
{
	enum recmode m, first;
	size_t i;

	if (ch == 'z') {
		o->delim = '\0';
		return 1;
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
