/*
 * The progress line of a long run (progress.c): what is done, the rate
 * and, when the total is known, the time left, drawn in place on standard
 * error a few times a second and cleared at the end, and before any
 * message.  Only the main thread counts and draws.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdint.h>

#include "cli.h"

struct hashjob;

/* --progress, --no-progress: the long options of every command. */
#define PROGRESS_LONG \
	{ { "progress", no_argument, NULL, OPT_PROGRESS }, NULL, \
	    "show progress on standard error, even to a file or a pipe" }, \
	{ { "no-progress", no_argument, NULL, OPT_NO_PROGRESS }, NULL, \
	    "never show progress" }

/* Handle option ch if it is --progress or --no-progress: 1 if it was. */
int	progress_option(int ch);

/*
 * Begin counting, and decide whether to draw: with --progress always,
 * with --no-progress never, and otherwise when standard error is a
 * terminal, unless the command writes its output as it goes (streaming)
 * and standard output is a terminal too, where the lines would mix.
 * unit names the things counted ("files"), or is NULL if only bytes are.
 */
void	progress_start(const char *unit, int streaming);

/* Is the line to be drawn? */
int	progress_on(void);

/*
 * The inputs, for a total that gives the time left: operands as the
 * commands take them ("-" for standard input; none means "-"), walked as
 * wo says (NULL: not walked), as hashrun walks them; wo must outlive the
 * line.  The sizes are added up by a thread of their own, and the time
 * left shows once they are; an input whose size cannot be known (a pipe)
 * means none.
 */
struct walkopts;
void	progress_inputs(char *const *ops, int nops,
	    const struct walkopts *wo);

/* items more things and bytes more bytes are done; maybe draw. */
void	progress_count(uint64_t items, uint64_t bytes);

/* A finished hashing job (hashrun.c): a file, or a batch of records. */
void	progress_job(const struct hashjob *);

/*
 * A new stage of label, counting unit up to total (0: unknown): the
 * counts start again from zero.
 */
void	progress_stage(const char *label, const char *unit, uint64_t total);

/* done of the stage's total are done; maybe draw. */
void	progress_set(uint64_t done);

/* Standard output is to be written: erase the line if it is there too. */
void	progress_stdout(void);

/* Erase the line for good and stop counting. */
void	progress_end(void);

#endif
