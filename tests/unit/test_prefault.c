/*
 * The prefault thread of src/run/prefault.c: memory asked for is faulted in
 * (resident, by mincore(2)), reads as zero and keeps what is written there; a drop waits for the range it
 * drops, so the memory can then be unmapped; and the thread stops at
 * once when freed, whatever it was asked.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "prefault.h"
#include "unit.h"

#define SIZE	(8u << 20)
#define PAGE	4096

/* Pages of p[0..len) resident. */
static size_t
resident(char *p, size_t len)
{
	unsigned char v[SIZE / PAGE];
	size_t i, n = 0;

	if (mincore(p, len, v) != 0)
		return 0;
	for (i = 0; i < len / PAGE; i++)
		n += v[i] & 1;
	return n;
}

/* Wait up to 10 s for the thread to fault p[0..len) in. */
static int
faulted(char *p, size_t len)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 10000; i++) {
		if (resident(p, len) == len / PAGE)
			return 1;
		nanosleep(&ms, NULL);
	}
	return 0;
}

static char *
map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_NOHUGEPAGE
	/* A write would fault in a huge page's worth, not just its own. */
	(void)madvise(p, size, MADV_NOHUGEPAGE);
#endif
	return p;
}

/* All zero, then what was written. */
static void
test_zero_and_kept(void)
{
	struct prefault *f = prefault_new(4);
	char *p = map(SIZE);
	size_t i, bad = 0;

	if (f == NULL) {
		/* No MADV_POPULATE_WRITE here: nothing to test. */
		if (p != NULL)
			munmap(p, SIZE);
		return;
	}
	if (!CHECK(p != NULL, "mmap"))
		return;
	memset(p, 0x5a, 4096);
	CHECK(resident(p + 4096, SIZE - 4096) == 0, "resident at first");
	prefault_ask(f, 1, p + 4096, SIZE - 4096);
	CHECK(faulted(p + 4096, SIZE - 4096), "not faulted in after 10 s");
	prefault_drop(f, 1);
	for (i = 0; i < 4096; i++)
		bad += p[i] != 0x5a;
	for (i = 4096; i < SIZE; i++)
		bad += p[i] != 0;
	CHECK(bad == 0, "%zu bytes changed", bad);
	memset(p + 4096, 0x33, SIZE - 4096);
	prefault_ask(f, 2, p, SIZE);	/* over memory already written */
	prefault_drop(f, 2);
	for (i = 4096; i < SIZE; i++)
		bad += p[i] != 0x33;
	CHECK(bad == 0, "%zu bytes changed by a second fault-in", bad);
	munmap(p, SIZE);
	prefault_free(f);
}

/* A range not on page bounds: the whole pages within it, no others. */
static void
test_whole_pages(void)
{
	struct prefault *f = prefault_new(1);
	char *p = map(SIZE);

	if (f == NULL || p == NULL) {
		if (p != NULL)
			munmap(p, SIZE);
		prefault_free(f);
		return;
	}
	prefault_ask(f, 0, p + 1, 3 * PAGE);
	CHECK(faulted(p + PAGE, 2 * PAGE), "pages 1 and 2 not faulted in");
	prefault_drop(f, 0);
	CHECK(resident(p, PAGE) == 0, "page 0, only partly asked, faulted in");
	CHECK(resident(p + 3 * PAGE, PAGE) == 0, "page 3, only partly asked, "
	    "faulted in");
	prefault_ask(f, 0, p + PAGE + 1, PAGE);	/* no whole page */
	prefault_drop(f, 0);
	CHECK(resident(p + PAGE, SIZE - PAGE) == 2, "%zu pages resident, "
	    "want 2", resident(p + PAGE, SIZE - PAGE));
	munmap(p, SIZE);
	prefault_free(f);
}

/* Asked again and again, dropped, unmapped under it, freed while busy. */
static void
test_drop_and_free(void)
{
	struct prefault *f = prefault_new(3);
	char *p[3];
	size_t i, k;

	if (f == NULL)
		return;
	for (k = 0; k < 3; k++)
		if (!CHECK((p[k] = map(SIZE)) != NULL, "mmap"))
			return;
	for (i = 0; i < 50; i++) {
		k = i % 3;
		prefault_ask(f, k, p[k], SIZE);
		if (i % 2 == 0) {
			prefault_drop(f, k);
			munmap(p[k], SIZE);
			if (!CHECK((p[k] = map(SIZE)) != NULL, "mmap"))
				return;
		}
	}
	for (k = 0; k < 3; k++)
		prefault_ask(f, k, p[k], SIZE);
	prefault_free(f);
	for (k = 0; k < 3; k++)
		munmap(p[k], SIZE);
	CHECK(1, "freed");
}

int
main(void)
{
	RUN(test_zero_and_kept);
	RUN(test_whole_pages);
	RUN(test_drop_and_free);
	return unit_status();
}
