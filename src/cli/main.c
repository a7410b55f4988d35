/*
 * neardup: near-duplicate detection for the Unix command line.  The
 * command table, global options and help.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpu.h"

static int help_exec(const struct cmd *, int, char **);

static const struct cmd cmd_help = {
	"help", "show the usage of neardup or of one command",
	"help [command]", help_exec
};

static const struct cmd *const cmds[] = {
	&cmd_hash,
	&cmd_compare,
	&cmd_cluster,
	&cmd_near,
	&cmd_uniq,
	&cmd_help,
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void
usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: %s [-hV] command [argument ...]\n",
	    getprogname());
	fprintf(fp, "commands:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(fp, "  %-8s %s\n", cmds[i]->name, cmds[i]->summary);
}

/* The command named name, or a unique prefix of one; NULL with a message. */
static const struct cmd *
lookup(const char *name)
{
	const struct cmd *found = NULL;
	size_t i, len = strlen(name);

	for (i = 0; i < NCMDS; i++) {
		if (strcmp(cmds[i]->name, name) == 0)
			return cmds[i];
		if (len > 0 && strncmp(cmds[i]->name, name, len) == 0) {
			if (found != NULL) {
				warnx("ambiguous command: %s", cli_vis(name));
				return NULL;
			}
			found = cmds[i];
		}
	}
	if (found == NULL)
		warnx("unknown command: %s", cli_vis(name));
	return found;
}

static int
help_exec(const struct cmd *self, int argc, char **argv)
{
	const struct cmd *c;

	if (argc > 2)
		cli_usage(self);
	if (argc < 2) {
		usage(stdout);
		return out_close();
	}
	/* As every command takes them: the usage of help itself. */
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		cli_print_usage(self, stdout);
		return out_close();
	}
	if ((c = lookup(argv[1])) == NULL)
		return EXIT_TROUBLE;
	/* The command's own --help: one help, whichever way it is asked. */
	{
		char *v[] = { argv[0], "--help", NULL };

		cli_getopt_reset();
		return c->exec(c, 2, v);
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd *c;
	const char *env;
	int ch, fd;

	/*
	 * A standard descriptor closed by the caller would be the next file
	 * opened, read as standard input or written as output.  Hold each
	 * with /dev/null open the wrong way round: using it fails, as it
	 * would closed (EBADF), and the file is left alone.
	 */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			return EXIT_TROUBLE;

	/*
	 * The switches that keep vector code out, for the tests that
	 * compare its results with the portable code's (ENVIRONMENT).
	 */
	cpu_disable((getenv("NEARDUP_NO_AVX2") != NULL ? CPU_AVX2 : 0) |
	    (getenv("NEARDUP_NO_AVX512") != NULL ? CPU_AVX512F : 0) |
	    (getenv("NEARDUP_NO_VBMI2") != NULL ? CPU_AVX512_TEXT : 0));
	if ((env = getenv("NEARDUP_GATHER")) != NULL && *env != '\0')
		cpu_gathers(strcmp(env, "0") != 0);

	/* getopt(3) names argv[0] in its messages: make it ours, bare. */
	argv[0] = (char *)getprogname();
	while ((ch = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			return out_close();
		case 'V':
			cli_version(stdout);
			return out_close();
		default:
			usage(stderr);
			return EXIT_TROUBLE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	if ((c = lookup(argv[0])) == NULL) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	cli_getopt_reset();
	argv[0] = (char *)getprogname();
	return c->exec(c, argc, argv);
}
