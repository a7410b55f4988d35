/*
 * The removal script of neardup cluster --format=sh (clustersh.c).
 */
#ifndef CLUSTERSH_H
#define CLUSTERSH_H

/* The script's first lines: the shell, set -u and the rmdup function. */
void	csh_open(void);

/* A group's comment: the file it keeps; an original kept besides it. */
void	csh_kept(const char *kept);
void	csh_original(const char *name);

/*
 * The line that removes name, a near-duplicate of kept of similarity sim
 * (basis: "exact" or "estimate"; NULL: unknown), as long as its size and
 * modification time are those it has now and kept is still there.  A name
 * that lstat(2) cannot find gets a comment and a message, not a line:
 * -1 then, 0 otherwise.
 */
int	csh_remove(const char *name, const char *kept, double sim,
	    const char *basis);

/* The script's last line: its exit status. */
void	csh_close(void);

#endif
