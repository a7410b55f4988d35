/*
 * neardup near --self (nearself.c): every pair of the index that matches,
 * once, earlier line first.
 */
#ifndef NEARSELF_H
#define NEARSELF_H

#include "nearix.h"

/*
 * The pairs of the loaded index r->ix: within r->d bits, from its
 * permuted tables, or of estimated resemblance at least r->t, from
 * cluster's bands; printed by their first line, then most similar first,
 * then by their second line.
 */
void	nearself_run(struct near *);

#endif
