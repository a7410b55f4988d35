/*
 * hamscan D FILE: the number of pairs of 64-bit simhash fingerprint lines
 * of FILE within D bits of each other, by the plain double loop: the scan
 * that near --self and cluster -d must never be slower than (issue 26).
 * Build with the popcount instruction where there is one, as neardup
 * uses it: cc -O2 -mpopcnt -o hamscan tests/tools/hamscan.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	char line[4096], *colon;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0, i, j, pairs = 0;
	unsigned d;
	FILE *fp;

	if (argc != 3 || (fp = fopen(argv[2], "r")) == NULL) {
		fprintf(stderr, "usage: hamscan d file\n");
		return 2;
	}
	d = (unsigned)atoi(argv[1]);
	while (fgets(line, sizeof(line), fp) != NULL) {
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((v = realloc(v, cap * sizeof(*v))) == NULL)
				return 2;
		}
		v[n++] = strtoull(colon + 1, NULL, 16);
	}
	fclose(fp);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if ((unsigned)__builtin_popcountll(v[i] ^ v[j]) <= d)
				pairs++;
	printf("%zu\n", pairs);
	free(v);
	return 0;
}
