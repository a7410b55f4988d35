/*
 * The output options shared by the commands that write reports: the
 * format, the header of a table, and NUL-terminated lines.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"

/* "expected a, b or c": the words a command's --format takes. */
static void
bad_format(const struct cmd *c, const struct outopts *o, const char *arg)
{
	struct buf b = { 0 };
	size_t i, n = 0, left;

	for (i = 0; i < FMT_N; i++)
		n += o->names[i] != NULL;
	for (i = 0, left = n; i < FMT_N; i++) {
		if (o->names[i] == NULL)
			continue;
		buf_add(&b, o->names[i], strlen(o->names[i]));
		left--;
		if (left > 1)
			buf_add(&b, ", ", 2);
		else if (left == 1)
			buf_add(&b, " or ", 4);
	}
	buf_add(&b, "", 1);
	warnx("--format: %s: expected %s", cli_vis(arg), b.data);
	buf_free(&b);
	cli_usage(c);
}

int
outopts_option(const struct cmd *c, struct outopts *o, int ch,
    const char *arg)
{
	int k;

	switch (ch) {
	case OPT_FORMAT:
		for (k = 0; k < FMT_N; k++)
			if (o->names[k] != NULL && strcmp(arg, o->names[k]) == 0)
				break;
		if (k == FMT_N)
			bad_format(c, o, arg);
		o->fmt = k;
		break;
	case OPT_HEADER:
		o->header = 1;
		break;
	case 'z':
		o->zero = 1;
		break;
	default:
		return 0;
	}
	return 1;
}
