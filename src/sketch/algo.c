/*
 * The table of algorithms: one row each, in the order of enum algo.
 */
#include <stdio.h>
#include <string.h>

#include "algo.h"

const struct algo_desc *const algo_table[] = {
	[ALGO_SIMHASH] = &simhash_algo,
	[ALGO_MINHASH] = &minhash_algo,
	[ALGO_BOTTOMK] = &bottomk_algo,
	[ALGO_OPH] = &oph_algo,
	[ALGO_KEY] = &key_algo,
};
#define NALGO (sizeof(algo_table) / sizeof(algo_table[0]))

int
algo_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NALGO; i++)
		if (strcmp(name, algo_table[i]->name) == 0)
			return (int)i;
	return -1;
}

size_t
algo_count(void)
{
	return NALGO;
}

char *
algo_names(char *buf, size_t size)
{
	size_t i, n = 0;
	int w;

	buf[0] = '\0';
	for (i = 0; i < NALGO && n < size; i++) {
		w = snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
		    algo_table[i]->name);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

/* Is a named by algo_list(flags, cand)? */
static int
listed(const struct algo_desc *a, unsigned flags, int cand)
{
	return (a->flags & flags) == flags && (cand < 0 ||
	    a->cand == (enum cand_rule)cand);
}

char *
algo_list(char *buf, size_t size, unsigned flags, int cand,
    const char *pre, const char *conj)
{
	size_t i, n = 0, left = 0;
	int rule, w;

	for (i = 0; i < NALGO; i++)
		left += listed(algo_table[i], flags, cand);
	buf[0] = '\0';
	/* CAND_EQUAL is the last rule of enum cand_rule. */
	for (rule = CAND_BANDS; rule <= CAND_EQUAL; rule++)
		for (i = 0; i < NALGO && n < size; i++) {
			if (algo_table[i]->cand != (enum cand_rule)rule ||
			    !listed(algo_table[i], flags, cand))
				continue;
			left--;
			w = snprintf(buf + n, size - n, "%s%s%s%s%s", pre,
			    algo_table[i]->name, left == 1 ? " " : left > 1 ?
			    ", " : "", left == 1 ? conj : "", left == 1 ?
			    " " : "");
			if (w < 0)
				return buf;
			n += (size_t)w;
		}
	return buf;
}

const char *
algo_check_k(unsigned size)
{
	if (size < 1)
		return "too small";
	if (size > ALGO_K_MAX)
		return "too large";
	return NULL;
}
