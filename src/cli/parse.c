/*
 * The one option parser of the commands.  A command names its options
 * and the option groups it takes; the parser hands each option to the
 * command or to its group, and handles what every command shares
 * (--progress, --no-progress, -h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"

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
	    shopts_long(p->longopts[idx].name);
}

int
cli_parse(const struct cmd *c, int argc, char **argv,
    const struct cli_parse *p)
{
	int ch, idx;

	while (idx = -1, (ch = getopt_long(argc, argv, p->shortopts,
	    p->longopts, &idx)) != -1) {
		if (ch == 'h') {
			cli_print_usage(c, stdout);
			return 0;
		}
		if (long_only(p, idx)) {
			if (!p->own(c, p->args, OPT_LONGONLY | ch, optarg) &&
			    !shopts_option(c, p->sh, ch, optarg))
				cli_usage(c);
			continue;
		}
		if (!p->own(c, p->args, ch, optarg) &&
		    !group_option(c, p, ch, optarg))
			cli_usage(c);
	}
	return optind;
}
