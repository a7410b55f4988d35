/*
 * Sorting 64-bit keys with 32-bit ids attached, by the top pbits of the
 * key (64 for the whole key), stably: an LSD radix sort, 16 bits a pass,
 * over only the digits those bits fall in.  Callers that need runs of
 * equal prefixes pay for no more than the prefix.
 */
#ifndef KEYSORT_H
#define KEYSORT_H

#include <stddef.h>
#include <stdint.h>

void	keysort(uint64_t *key, uint32_t *id, size_t n, unsigned pbits);

#endif
