/*
 * neardup cluster --format=sh: a shell script that removes the
 * near-duplicates of each group, to be read before it is run, as rmlint
 * writes one.  Each removal is a call of a function that first checks
 * that the file has the size and modification time neardup saw (GNU
 * stat(1), as the script's comment says), and that the file kept is
 * still there.  Names are single-quoted for sh, a quote written '\'', so
 * that any byte but NUL, a newline included, stays in its word; in
 * comments they are escaped (vis(3)), so that a newline cannot end one.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "clustersh.h"

static const char header[] =
    "#!/bin/sh\n"
    "# Written by neardup cluster --format=sh.  It removes the near-duplicates\n"
    "# of each group and keeps the file named on the group's \"# kept\" line.\n"
    "# Read it before you run it.  A file whose size or modification time\n"
    "# changed since neardup wrote this, or whose kept file is gone, is left\n"
    "# alone: the script says so on standard error and exits 1.\n"
    "# It needs GNU stat (stat -c).\n"
    "set -u\n"
    "status=0\n"
    "\n"
    "# rmdup FILE SIZE MTIME KEPT: remove FILE, a near-duplicate of KEPT.\n"
    "rmdup() {\n"
    "\tif [ \"$(stat -c '%s %Y' -- \"$1\" 2>/dev/null)\" != \"$2 $3\" ]; then\n"
    "\t\tprintf 'neardup: %s: changed since it was listed: not removed\\n' \\\n"
    "\t\t    \"$1\" >&2\n"
    "\t\tstatus=1\n"
    "\telif [ ! -f \"$4\" ]; then\n"
    "\t\tprintf 'neardup: %s: its kept file %s is gone: not removed\\n' \\\n"
    "\t\t    \"$1\" \"$4\" >&2\n"
    "\t\tstatus=1\n"
    "\telse\n"
    "\t\trm -f -- \"$1\" || status=1\n"
    "\tfi\n"
    "}\n";

/* s as one sh word: in single quotes, a quote as '\''. */
static void
quote(const char *s)
{
	putchar('\'');
	for (; *s != '\0'; s++)
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	putchar('\'');
}

void
csh_open(void)
{
	fputs(header, stdout);
}

void
csh_kept(const char *kept)
{
	printf("\n# kept: %s\n", cli_vis(kept));
}

void
csh_original(const char *name)
{
	printf("# kept, an original: %s\n", cli_vis(name));
}

int
csh_remove(const char *name, const char *kept, double sim,
    const char *basis)
{
	struct stat st;

	/* As stat -c sees it: a symbolic link itself, not what it names. */
	if (lstat(name, &st) == -1) {
		warn("%s", cli_vis(name));
		printf("# not listed, %s: %s\n", strerror(errno),
		    cli_vis(name));
		return -1;
	}
	fputs("rmdup ", stdout);
	quote(name);
	printf(" %jd %jd ", (intmax_t)st.st_size, (intmax_t)st.st_mtime);
	quote(kept);
	if (basis != NULL)
		printf("\t# %.4f (%s) similar to %s\n", cli_cut(sim, 4),
		    basis, cli_vis(kept));
	else
		printf("\t# near-duplicate of %s\n", cli_vis(kept));
	return 0;
}

void
csh_close(void)
{
	fputs("\nexit \"$status\"\n", stdout);
}
