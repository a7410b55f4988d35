/*
 * maxrss FILE COMMAND [ARG ...]: run COMMAND, write its peak resident set
 * size in KiB to FILE, and exit as it did (128 + the signal if a signal
 * ended it).  GNU time -f %M does the same, but is not always installed.
 *
 * Build: cc -o maxrss tests/tools/maxrss.c
 */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	FILE *fp;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: maxrss file command [arg ...]\n");
		return 2;
	}
	if ((pid = fork()) == -1) {
		perror("maxrss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) == -1) {
		perror("maxrss: wait4");
		return 2;
	}
	if ((fp = fopen(argv[1], "w")) == NULL ||
	    fprintf(fp, "%ld\n", ru.ru_maxrss) < 0 || fclose(fp) == EOF) {
		perror(argv[1]);
		return 2;
	}
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
	    WEXITSTATUS(status);
}
