/*
 * The one option parser of the commands.  A command names its options
 * and the option groups it takes; the parser hands each option to the
 * command or to its group, and handles what every command shares
 * (--progress, --no-progress, -h, --version).  The tables are also the
 * help (help.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "xmalloc.h"

/* Is ch an option of one of p's groups?  Then it is handled. */
static int
group_option(const struct cmd *c, const struct cli_parse *p, int ch,
    const char *arg)
{
	return (p->sh != NULL && !p->sh->longonly &&
	    shopts_option(c, p->sh, ch, arg)) ||
	    (p->in != NULL && inopts_option(p->in, ch, arg)) ||
	    (p->rec != NULL && recopts_option(c, p->rec, ch, arg)) ||
	    (p->out != NULL && outopts_option(c, p->out, ch, arg)) ||
	    progress_option(ch);
}

/*
 * Is longopts[idx] (idx -1: a letter was given) a shingling option of a
 * command that takes them by their long names only?
 */
static int
long_only(const struct cli_parse *p, int idx)
{
	return p->sh != NULL && p->sh->longonly && idx >= 0 &&
	    shopts_long(p->longopts[idx].o.name);
}

/* getopt_long's table: the options of the table, ended as it is. */
static struct option *
getopt_table(const struct cli_option *opts)
{
	struct option *v;
	size_t n, i;

	for (n = 0; opts[n].o.name != NULL; n++)
		continue;
	v = xreallocarray(NULL, n + 1, sizeof(*v));
	for (i = 0; i <= n; i++)
		v[i] = opts[i].o;
	return v;
}

int
cli_parse(const struct cmd *c, int argc, char **argv,
    const struct cli_parse *p)
{
	struct option *longopts = getopt_table(p->longopts);
	int ch, idx, done = 0;

	while (!done && (idx = -1, ch = getopt_long(argc, argv,
	    p->shortopts, longopts, &idx)) != -1) {
		if (ch == 'h') {
			cli_help(c, p, stdout);
			done = 1;
		} else if (ch == OPT_VERSION) {
			cli_version(stdout);
			done = 1;
		} else if (long_only(p, idx)) {
			if (!p->own(c, p->args, OPT_LONGONLY | ch, optarg) &&
			    !shopts_option(c, p->sh, ch, optarg))
				cli_usage(c);
		} else if (!p->own(c, p->args, ch, optarg) &&
		    !group_option(c, p, ch, optarg))
			cli_usage(c);
	}
	free(longopts);
	return done ? 0 : optind;
}
