/*
 * The one option parser of the commands.  A command names its own options
 * and the option groups it takes; the parser joins their tables, hands
 * each option to its group or to the command, and handles what every
 * command shares (--progress, --no-progress, -h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "xmalloc.h"

static const struct option sh_long[] = { SHOPT_LONG };
static const struct option in_long[] = { INOPT_LONG };
static const struct option out_long[] = { OUTOPT_LONG };
static const struct option all_long[] = {
	PROGRESS_LONG,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Append the n options of add to *v, of *len. */
static void
join(struct option **v, size_t *len, const struct option *add, size_t n)
{
	*v = xreallocarray(*v, *len + n, sizeof(**v));
	memcpy(*v + *len, add, n * sizeof(*add));
	*len += n;
}

/* The long options of p, ended by a zeroed one. */
static struct option *
longopts(const struct cli_parse *p)
{
	struct option *v = NULL;
	size_t len = 0, n;

	for (n = 0; p->longopts[n].name != NULL; n++)
		;
	join(&v, &len, p->longopts, n);
	if (p->sh != NULL)
		join(&v, &len, sh_long, NELEM(sh_long));
	if (p->in != NULL)
		join(&v, &len, in_long, NELEM(in_long));
	if (p->out != NULL)
		join(&v, &len, out_long, NELEM(out_long));
	join(&v, &len, all_long, NELEM(all_long));
	return v;
}

/* Is ch an option of one of p's groups?  Then it is handled. */
static int
group_option(const struct cmd *c, const struct cli_parse *p, int ch,
    const char *arg)
{
	return (p->sh != NULL && shopts_option(c, p->sh, ch, arg)) ||
	    (p->in != NULL && inopts_option(p->in, ch, arg)) ||
	    (p->out != NULL && outopts_option(c, p->out, ch, arg)) ||
	    progress_option(ch);
}

int
cli_parse(const struct cmd *c, int argc, char **argv,
    const struct cli_parse *p)
{
	struct option *lo = longopts(p);
	char so[64];
	int ch;

	snprintf(so, sizeof(so), "%s%s%s%sh", p->shortopts,
	    p->sh != NULL ? SHOPT_SHORT : "", p->in != NULL ? INOPT_SHORT : "",
	    p->out != NULL ? OUTOPT_SHORT : "");
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (ch == 'h') {
			free(lo);
			cli_print_usage(c, stdout);
			return 0;
		}
		if (!p->own(c, p->args, ch, optarg) &&
		    !group_option(c, p, ch, optarg))
			cli_usage(c);
	}
	free(lo);
	return optind;
}
