/*
 * The input options shared by the commands that walk documents: where the
 * names come from (operands or a --files0-from list), how they are walked
 * (src/io/walk.c), and whether binary files are read.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "xmalloc.h"

void
inopts_init(struct inopts *o)
{
	memset(o, 0, sizeof(*o));
	cli_takes_walk();
}

/* Add glob to the list *v of *n; the string is argv's, never freed. */
static void
add_glob(char ***v, size_t *n, const char *glob)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = (char *)glob;
}

int
inopts_option(struct inopts *o, int ch, const char *arg)
{
	switch (ch) {
	case 'L':
		o->walk.follow = 1;
		return 1;
	case 'r':
		o->walk.recursive = 1;
		return 1;
	case OPT_ARCHIVES:
		o->archives = 1;
		break;
	case OPT_BINARY:
		o->binary = 1;
		break;
	case OPT_EXCLUDE:
		add_glob(&o->walk.exclude, &o->walk.nexclude, arg);
		break;
	case OPT_EXCLUDE_DIR:
		add_glob(&o->walk.exclude_dir, &o->walk.nexclude_dir, arg);
		break;
	case OPT_HIDDEN:
		o->walk.hidden = 1;
		break;
	case OPT_FILES0:
		o->list = arg;
		return 1;
	default:
		return 0;
	}
	o->filter = 1;
	return 1;
}

void
inopts_check(const struct cmd *c, const struct inopts *o, int noperands)
{
	if (o->list != NULL && noperands > 0) {
		warnx("file operands cannot be combined with --files0-from");
		cli_usage(c);
	}
	if (o->walk.recursive)
		return;
	if (o->walk.follow) {
		warnx("-L applies to -r");
		cli_usage(c);
	}
	if (o->walk.hidden || o->walk.nexclude_dir > 0) {
		warnx("--hidden and --exclude-dir apply to -r");
		cli_usage(c);
	}
}

void
inopts_free(struct inopts *o)
{
	free(o->walk.exclude);
	free(o->walk.exclude_dir);
}

char **
inopts_operands(const struct inopts *o, int *argc, char **argv)
{
	static char *dot[] = { ".", NULL };

	if (!o->walk.recursive || *argc > 0 || o->list != NULL)
		return argv;
	*argc = 1;
	return dot;
}
