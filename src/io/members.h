/*
 * The members of an archive, for --archives: each regular member of a
 * tar, zip or cpio archive, itself compressed or not (see source.h), is a
 * document of its own, named ARCHIVE//PATH: the archive's name as given,
 * two slashes, and the member's path as the archive has it.  Such a name
 * names no file (the archive is a regular file, not a directory), nor a
 * record (FILE:NUMBER), so that nothing takes a member for a file to
 * remove.  A compressed file that is no archive is one document, under
 * its own name, as without --archives.
 */
#ifndef MEMBERS_H
#define MEMBERS_H

#include <stddef.h>

#define MEMBERS_SEP	"//"	/* between an archive's name and a member's */
#define MEMBERS_PLAIN	1	/* members_open: not an archive, nor compressed */
#define MEMBERS_NONE	(-4)	/* members_find: the archive has no such member */

struct archive;

struct members {
	struct archive *a;
	int	 fd;
	int	 own;		/* fd is closed by members_close() */
	int	 compressed;	/* it begins with a compression's magic */
	int	 raw;		/* a compressed stream, no archive */
	int	 empty;		/* ... of no bytes */
	char	*why;		/* SOURCE_BROKEN: libarchive's reason */
};

/*
 * Open path (isstdin: standard input) as an archive: 0; MEMBERS_PLAIN
 * when it is neither an archive nor compressed, with nothing taken from
 * it (read it as a document); or an errno value, or SOURCE_BROKEN with
 * m->why set.
 */
int	members_open(struct members *, const char *path, int isstdin);

/*
 * The next regular member: 1 with its path in *path (NULL for the one
 * document of a compressed stream that is no archive), valid until the
 * next call; 0 after the last; SOURCE_BROKEN with m->why set.
 */
int	members_next(struct members *, const char **path);

/*
 * The next block of the member's bytes in *p, *len: 1, 0 at its end, or
 * SOURCE_BROKEN with m->why set.
 */
int	members_data(struct members *, const void **p, size_t *len);

/*
 * Open the member that name, ARCHIVE//PATH, names, alen being the length
 * of ARCHIVE (members_archive()): 0 with m before the member's data (read
 * it with members_data()); MEMBERS_NONE when the archive has no regular
 * member PATH (or is no archive); an errno value; or SOURCE_BROKEN with
 * m->why set.  Close m with members_close() in every case.
 */
int	members_find(struct members *, const char *name, size_t alen);

/* Close, and free m->why. */
void	members_close(struct members *);

/*
 * Is name that of a member, ARCHIVE//PATH with ARCHIVE a regular file?
 * The length of ARCHIVE if so, else 0.
 */
size_t	members_archive(const char *name);

#endif
