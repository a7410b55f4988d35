/*
 * The one place that decides which vector code runs.
 *
 * Three things decide it: what the compiler targets (the CPU_* macros
 * below, fixed at build time), what the processor has, and what the
 * command layer switched off (cpu_disable, from NEARDUP_NO_AVX2 and
 * NEARDUP_NO_AVX512, read in src/cli/main.c; an engine file never reads
 * the environment).  A program that links the engine without the
 * command layer, as the unit tests do, gets all the processor has.
 * Every path gives the same results, bit for bit.
 */
#ifndef CPU_H
#define CPU_H

/*
 * The block scanners of the shingler (wordscan.c) classify 64 bytes at a
 * time with SSE2 where the compiler targets it, and elsewhere (arm64,
 * s390x, or x86-64 with -DNEARDUP_SCALAR, which stands for them) with the
 * same tests on 64-bit words; the shingler's byte-at-a-time path, the
 * reference, takes what they leave (non-ASCII text, the last bytes).
 * The AVX-512 scanners (wordvec.c), the AVX2 word hashes of the SSE2 word
 * scanner (wordhash.c) and minhash's AVX2 and AVX-512 loops are compiled
 * in on x86-64 with GCC or clang, and used where the processor has them.
 */
#define CPU_BLOCK_SCAN 1
#if defined(__SSE2__) && !defined(NEARDUP_SCALAR)
#define CPU_SSE2_SCAN 1
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#define CPU_X86_VECTOR 1
#if defined(CPU_SSE2_SCAN)
#define CPU_AVX512_SCAN 1
#define CPU_AVX2_SCAN 1		/* wordhash.c: words hashed four at a time */
#endif
#endif

/*
 * Hot loops are compiled twice where GCC can pick at load time (ifunc):
 * for the processors of x86-64-v3 (BMI2's flag-free shifts and bit
 * extraction) and for any x86-64; CPU_CLONES_V4 adds x86-64-v4, for loops
 * of 64-bit multiplies.  Every copy gives the same results, so the
 * switches leave these alone.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(NEARDUP_SCALAR) && !defined(__SANITIZE_ADDRESS__)
#define CPU_CLONES __attribute__((target_clones("arch=x86-64-v3", \
	    "default")))
#define CPU_CLONES_V4 __attribute__((target_clones("arch=x86-64-v4", \
	    "arch=x86-64-v3", "default"), optimize("tree-vectorize")))
#else
#define CPU_CLONES
#define CPU_CLONES_V4
#endif

#define CPU_AVX2	0x1	/* minhash's loop of eight; wordhash.c */
#define CPU_AVX512F	0x2	/* minhash's loop of sixteen */
/* The AVX-512 block scanners: F, BW, DQ, VL, VBMI, VBMI2, and BMI2. */
#define CPU_AVX512_TEXT	0x4
/*
 * SSSE3's byte shuffle, which compresses the items of the SSE2 character
 * scanner: every processor with AVX2 has it, and it goes with CPU_AVX2
 * when that is disabled, so that NEARDUP_NO_AVX2 tests the portable
 * compress.
 */
#define CPU_SSSE3	0x8

/*
 * Do without the extensions in mask from now on (CPU_AVX512F and
 * CPU_AVX512_TEXT for NEARDUP_NO_AVX512, CPU_AVX2 for NEARDUP_NO_AVX2,
 * which takes CPU_SSSE3 with it).
 * Call it before any thread starts; 0 restores all the processor has.
 * Engine objects set up before the call keep what they chose.
 */
void	cpu_disable(unsigned mask);

/* The extensions the processor has and that are not disabled. */
unsigned cpu_usable(void);

#endif
