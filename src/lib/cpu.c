/*
 * What the processor has, less what the command layer switched off (see
 * cpu.h).  __builtin_cpu_supports reads what libgcc found at start-up, so
 * asking needs no lock; the answer is kept, since the loops of CPU_LEVELS
 * ask at every call (uniq's screen once a record).
 */
#include <stdatomic.h>

#include "cpu.h"

#define KNOWN	0x80000000u	/* in have: the rest is what there is */

static unsigned disabled;
static _Atomic unsigned have;

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

unsigned
cpu_usable(void)
{
	return supported() & ~disabled;
}
