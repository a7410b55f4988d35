/*
 * neardup compare, in three files: compare.c has the command line,
 * comparein.c reads the two sides (documents, or fingerprint lines with
 * -F), compareout.c prints what was found.
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <sys/stat.h>

#include "buf.h"
#include "fpline.h"
#include "members.h"
#include "shset.h"
#include "similarity.h"
#include "source.h"
#include "winnow.h"

/* One side of the comparison. */
struct side {
	const char *name;	/* as given, or the fingerprint line's name */
	struct shset set;
	struct buf text;	/* the document, kept for --passages */
	struct fpline fp;	/* the fingerprint (values in fp.v) */
	int	 fd;		/* the document, open until read */
	struct source src;	/* what is read of fd: decompressed */
	struct members mem;	/* or the archive member it names */
	int	 member;	/* mem, not fd, is the document */
	struct stat st;		/* of fd (zeroed if fstat failed) */
	int	 err;		/* errno value of reading it, or 0 */
	char	*why;		/* err SOURCE_BROKEN: the reason */
};

struct result {
	struct scheme sc;
	int	 exact;		/* documents were read: sim is valid */
	struct similarity sim;
	struct estimate est;
	double	 score;		/* what the threshold applies to */
	double	 threshold;
	const char *targ;	/* the threshold as written */
	struct passage *pass;
	size_t	 npass;
};

/*
 * Open side s's document: its descriptor in s->fd, or with archives, when
 * its name is ARCHIVE//PATH, the archive's member in s->mem.  Returns 0,
 * an errno value, or for a member MEMBERS_NONE or SOURCE_BROKEN.
 */
int	side_open(struct side *s, int archives);

/*
 * Read both opened documents into their sets of shingles of scheme sc
 * (weights wt, or NULL), and with keep their text; an error reading one
 * is left in its err and why.
 */
void	sides_read(struct side *s, const struct scheme *sc,
	    const struct weights *wt, int keep);

/* -F: fingerprints from two operands, or two lines of one. */
void	sides_load_fps(struct side *s, int nops, char **ops, int zero);

/* The tsv or json report of r: one record, or one object. */
void	result_report(const struct side *s, const struct result *r, int fmt,
	    int withpass, int zero);

/* The text report of r, with the passages if asked, in color if asked. */
void	result_text(const struct side *s, const struct result *r,
	    int passages, int color);

#endif
