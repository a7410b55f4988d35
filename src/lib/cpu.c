/*
 * What the processor has, less what the command layer switched off (see
 * cpu.h).  __builtin_cpu_supports reads what libgcc found at start-up,
 * and the kernel's report on gathers reads the same each time, so asking
 * needs no lock; the answer is kept, since the loops of CPU_LEVELS ask at
 * every call (uniq's screen once a record).
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"

#define KNOWN	0x80000000u	/* in have: the rest is what there is */

static unsigned disabled;
static int gathers = -1;	/* cpu_gathers */
static _Atomic unsigned have;

int
cpu_gds_fast(const char *report)
{
	return report != NULL && (strcmp(report, "Not affected\n") == 0 ||
	    strcmp(report, "Vulnerable\n") == 0 ||
	    strcmp(report, "Vulnerable: No microcode\n") == 0);
}

#ifdef CPU_X86_VECTOR
/*
 * Whether this processor's gathers are fast (CPU_GATHER): Intel's, as
 * the kernel reports them (cpu_gds_fast).  Other makers' are taken for
 * slow, as compilers take AMD's (LLVM gives no Zen its fast-gather
 * tuning).
 */
static int
fast_gathers(void)
{
	char b[64];
	ssize_t n;
	int fd;

	if (!__builtin_cpu_is("intel"))
		return 0;
	fd = open("/sys/devices/system/cpu/vulnerabilities/"
	    "gather_data_sampling", O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return 0;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	b[n] = '\0';
	return cpu_gds_fast(b);
}
#endif

static unsigned
ask(void)
{
	unsigned m = 0;

#ifdef CPU_X86_VECTOR
	if (__builtin_cpu_supports("avx2"))
		m |= CPU_AVX2;
	if (__builtin_cpu_supports("avx512f"))
		m |= CPU_AVX512F;
	if (__builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512dq") &&
	    __builtin_cpu_supports("avx512vl") &&
	    __builtin_cpu_supports("bmi2")) {
		m |= CPU_AVX512_WORDS;
		if (__builtin_cpu_supports("avx512vbmi") &&
		    __builtin_cpu_supports("avx512vbmi2"))
			m |= CPU_AVX512_TEXT;
	}
	if ((m & CPU_AVX512F) && fast_gathers())
		m |= CPU_GATHER;
	if (__builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt"))
		m |= CPU_SSSE3;
#ifdef CPU_LEVEL_COPIES	/* GCC only: clang knows no level names here */
	if (__builtin_cpu_supports("x86-64-v3"))
		m |= CPU_LEVEL_V3;
	if (__builtin_cpu_supports("x86-64-v4"))
		m |= CPU_LEVEL_V4;
#endif
#endif
	return m;
}

/* Threads that ask at once find the same answer: no lock either. */
static unsigned
supported(void)
{
	unsigned m = atomic_load_explicit(&have, memory_order_relaxed);

	if (!(m & KNOWN)) {
		m = ask() | KNOWN;
		atomic_store_explicit(&have, m, memory_order_relaxed);
	}
	return m & ~KNOWN;
}

void
cpu_disable(unsigned mask)
{
	if (mask & CPU_AVX2)
		mask |= CPU_SSSE3 | CPU_LEVEL_V3 | CPU_LEVEL_V4;
	if (mask & CPU_AVX512F)
		mask |= CPU_AVX512_TEXT | CPU_AVX512_WORDS | CPU_LEVEL_V4;
	disabled = mask;
}

void
cpu_gathers(int on)
{
	gathers = on;
}

unsigned
cpu_usable(void)
{
	unsigned m = supported() & ~disabled;

	if (gathers == 0 || !(m & CPU_AVX512F))
		m &= ~CPU_GATHER;
	else if (gathers == 1)
		m |= CPU_GATHER;
	return m;
}
