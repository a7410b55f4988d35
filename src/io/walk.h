/*
 * Walking the operands: files as given, "-" for standard input, and with
 * -r the regular files under a directory, in byte order of their names,
 * less the hidden and excluded ones.
 */
#ifndef WALK_H
#define WALK_H

#include <sys/types.h>

#include <stdio.h>

struct walk_entry {
	const char *path;	/* valid until the next walk_next */
	int	 isstdin;	/* the operand "-" */
	int	 errnum;	/* nonzero: path could not be walked, or
				   WALK_NOTREG or WALK_ISOUTPUT */
	long long size;		/* bytes, when the walk knows; else -1 */
};

/*
 * errnum of a FIFO, socket or device met in a tree: it is skipped, with a
 * message, and is not an error.
 */
#define WALK_NOTREG	(-1)

/*
 * errnum of the file that standard output writes to (see walk_skip): read,
 * it would give back what is written there, and with ">>" never end.  It
 * is skipped, with a message, and is an error.
 */
#define WALK_ISOUTPUT	(-2)

/*
 * How to walk.  The patterns are fnmatch(3) globs, as GNU grep takes
 * them; the walk keeps a pointer to this, which must outlive it.
 */
struct walkopts {
	int	 recursive;	/* -r: walk directory operands */
	int	 follow;	/* -L: follow symbolic links while walking */
	int	 hidden;	/* --hidden: walk names that begin with "." */
	char	**exclude;	/* --exclude: files' base names to skip */
	size_t	 nexclude;
	char	**exclude_dir;	/* --exclude-dir: directories to skip */
	size_t	 nexclude_dir;
};

struct walk;

/* A walk as o says; NULL: the operands as given, no tree. */
struct walk *walk_new(const struct walkopts *o);

/*
 * The regular file dev:ino, as an operand ("-" included) or in a tree,
 * comes with errnum WALK_ISOUTPUT instead of being read.
 */
void	walk_skip(struct walk *, dev_t dev, ino_t ino);

/* Begin an operand; its entries come from walk_next. */
void	walk_start(struct walk *, const char *operand);

/* The next entry of the current operand: 1, or 0 when it is done. */
int	walk_next(struct walk *, struct walk_entry *);

void	walk_free(struct walk *);

/* What an entry's errnum says: strerror(3), or the reason of ours. */
const char *walk_strerror(int errnum);

/*
 * Read the next NUL-terminated name of a --files0-from list into *name
 * (storage reused by the next call): 1, 0 at the end, -1 on a read error
 * (errno set), or WALK_LONGNAME for a name of PATH_MAX bytes or more,
 * which no file has (it is skipped, never cut).  A zero-length name is
 * returned as such: the caller reports it.
 */
#define WALK_LONGNAME	2
int	walk_files0(FILE *, char **name, size_t *cap);

#endif
