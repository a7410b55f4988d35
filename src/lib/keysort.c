/*
 * Sorting (key, id) pairs by key with an LSD radix sort.
 */
#include <stdlib.h>
#include <string.h>

#include "keysort.h"
#include "xmalloc.h"

void
keysort(uint64_t *key, uint32_t *id, size_t n, unsigned pbits)
{
	uint64_t *ka = key, *kb, *tk;
	uint32_t *ia = id, *ib, *ti;
	size_t *count, i, sum, c;
	unsigned shift, digit;

	if (n < 2)
		return;
	kb = xreallocarray(NULL, n, sizeof(*kb));
	ib = xreallocarray(NULL, n, sizeof(*ib));
	count = xreallocarray(NULL, 65536, sizeof(*count));
	for (shift = 64 - 16 * ((pbits + 15) / 16); shift < 64; shift += 16) {
		memset(count, 0, 65536 * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(ka[i] >> shift) & 0xFFFF]++;
		if (count[(ka[0] >> shift) & 0xFFFF] == n)
			continue;	/* every key has this digit */
		for (sum = 0, digit = 0; digit < 65536; digit++) {
			c = count[digit];
			count[digit] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			c = count[(ka[i] >> shift) & 0xFFFF]++;
			kb[c] = ka[i];
			ib[c] = ia[i];
		}
		tk = ka, ka = kb, kb = tk;
		ti = ia, ia = ib, ib = ti;
	}
	if (ka != key) {
		memcpy(key, ka, n * sizeof(*key));
		memcpy(id, ia, n * sizeof(*id));
		kb = ka;
		ib = ia;
	}
	free(kb);
	free(ib);
	free(count);
}

