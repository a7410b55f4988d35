/*
 * The one place that decides which vector code runs.
 *
 * Three things decide it: what the compiler targets (the CPU_* macros
 * below, fixed at build time), what the processor has (and, for gathers,
 * whether they are fast there), and what the command layer switched off
 * (cpu_disable, from NEARDUP_NO_AVX2, NEARDUP_NO_AVX512 and
 * NEARDUP_NO_VBMI2, and cpu_gathers, from NEARDUP_GATHER, read in
 * src/cli/main.c; an engine file never reads the environment).  A
 * program that links the engine without the command layer, as the unit
 * tests do, gets all the processor has.
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
 * in on x86-64 with GCC or clang, and used where the processor has them;
 * not with -DNEARDUP_SCALAR, whose every loop is what arm64 and s390x
 * run.
 */
#define CPU_BLOCK_SCAN 1
#if defined(__SSE2__) && !defined(NEARDUP_SCALAR)
#define CPU_SSE2_SCAN 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(NEARDUP_SCALAR)
#define CPU_X86_VECTOR 1
#if defined(CPU_SSE2_SCAN)
#define CPU_AVX512_SCAN 1
#define CPU_AVX2_SCAN 1		/* wordhash.c: words hashed eight at a time */
#endif
#endif

/*
 * Hot loops are compiled twice where GCC can pick at load time (ifunc):
 * for the processors of x86-64-v3 (BMI2's flag-free shifts and bit
 * extraction) and for any x86-64.  Every copy gives the same results.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(NEARDUP_SCALAR) && !defined(__SANITIZE_ADDRESS__)
#define CPU_CLONES __attribute__((target_clones("arch=x86-64-v3", \
	    "default")))
#define CPU_LEVEL_COPIES 1
#else
#define CPU_CLONES
#endif

/*
 * CPU_LEVELS(name, params, args) defines the static void name(params),
 * for loops of 64-bit multiplies that GCC vectorizes: the body, a static
 * inline name##_body(params), is compiled for x86-64-v4, for x86-64-v3
 * and for any x86-64, and each call takes the copy that cpu_usable()
 * allows.  Not an ifunc: the switches (cpu_disable) reach these loops
 * too, so that NEARDUP_NO_AVX512 times what a processor without AVX-512
 * runs.  Every copy gives the same results.  CPU_LEVELS_AT is the same
 * for a body with a loop of its own for a level: its first argument is
 * the copy's, CPU_LEVEL_V4, CPU_LEVEL_V3 or 0 (always 0 without copies).
 */
#define CPU_UNPAREN(...) __VA_ARGS__
#define CPU_LEVELS_AT(name, params, args)				\
	CPU_LEVELS_CALL(name, params, args, (CPU_LEVEL_V4,		\
	    CPU_UNPAREN args), (CPU_LEVEL_V3, CPU_UNPAREN args),	\
	    (0, CPU_UNPAREN args))
#define CPU_LEVELS(name, params, args)					\
	CPU_LEVELS_CALL(name, params, args, args, args, args)
#ifdef CPU_LEVEL_COPIES
#define CPU_LEVEL_COPY(name, level, params, call)			\
	static __attribute__((target("arch=x86-64-" #level),		\
	    optimize("tree-vectorize"), noinline)) void			\
	name##_##level params						\
	{								\
		name##_body call;					\
	}
#define CPU_LEVELS_CALL(name, params, args, call4, call3, call1)	\
	CPU_LEVEL_COPY(name, v4, params, call4)				\
	CPU_LEVEL_COPY(name, v3, params, call3)				\
	static __attribute__((optimize("tree-vectorize"), noinline))	\
	void name##_v1 params						\
	{								\
		name##_body call1;					\
	}								\
	static void							\
	name params							\
	{								\
		unsigned m_ = cpu_usable();				\
									\
		if (m_ & CPU_LEVEL_V4)					\
			name##_v4 args;					\
		else if (m_ & CPU_LEVEL_V3)				\
			name##_v3 args;					\
		else							\
			name##_v1 args;					\
	}
#else
#define CPU_LEVELS_CALL(name, params, args, call4, call3, call1)	\
	static void							\
	name params							\
	{								\
		name##_body call1;					\
	}
#endif

#define CPU_AVX2	0x1	/* minhash's loop of eight; wordhash.c */
#define CPU_AVX512F	0x2	/* minhash's loop of sixteen */
/*
 * The AVX-512 block scanners (wordvec.c): for characters, and for words
 * the fastest way, F, BW, DQ, VL, VBMI, VBMI2, and BMI2; CPU_AVX512_WORDS,
 * the word scanner without VBMI and VBMI2 (Skylake and Cascade Lake
 * servers), the rest.
 */
#define CPU_AVX512_TEXT	0x4
#define CPU_AVX512_WORDS 0x40
/*
 * SSSE3's byte shuffle, which compresses the items of the SSE2 character
 * scanner: every processor with AVX2 has it, and it goes with CPU_AVX2
 * when that is disabled, so that NEARDUP_NO_AVX2 tests the portable
 * compress.
 */
#define CPU_SSSE3	0x8
/*
 * The levels of CPU_LEVELS: x86-64-v3 (AVX2, BMI2, FMA) goes with
 * CPU_AVX2, and x86-64-v4 (AVX-512 F, BW, CD, DQ, VL) with CPU_AVX512F,
 * when either is disabled.
 */
#define CPU_LEVEL_V3	0x10
#define CPU_LEVEL_V4	0x20
/*
 * Gathers for table lookups (the AVX-512 character scanner's items, the
 * long words of the word scanners), with AVX-512, where they are fast
 * (cpu_gds_fast, on Intel's processors) or cpu_gathers says so.
 * Elsewhere the same lookups are scalar loads.
 */
#define CPU_GATHER	0x80

/*
 * Do without the extensions in mask from now on (CPU_AVX512F for
 * NEARDUP_NO_AVX512, which takes all of AVX-512 with it, CPU_AVX512_TEXT
 * for NEARDUP_NO_VBMI2, which runs what an AVX-512 processor without VBMI2
 * runs, CPU_AVX2 for NEARDUP_NO_AVX2, which takes CPU_SSSE3 with it).
 * Call it before any thread starts; 0 restores all the processor has.
 * Engine objects set up before the call keep what they chose.
 */
void	cpu_disable(unsigned mask);

/*
 * Use gathers for lookups (CPU_GATHER) where AVX-512 is usable: on 1,
 * always; on 0, never; on -1, the default, where they are fast.  For
 * NEARDUP_GATHER; call it as cpu_disable.
 */
void	cpu_gathers(int on);

/*
 * Whether gathers run at full speed by the kernel's report of Gather
 * Data Sampling (CVE-2022-40982), the text of
 * /sys/devices/system/cpu/vulnerabilities/gather_data_sampling, or NULL
 * where there is none: where it finds the processor not affected, or
 * not mitigated (turned off, or no microcode for it).  The mitigation,
 * on by default on Intel's Skylake to Tiger Lake and Rocket Lake (every
 * AVX-512 processor without VBMI2 among them), makes each gather a
 * microcode sequence slower than the loads it stands for.  Where the
 * kernel cannot say (an older one, another system, a virtual machine
 * whose host does not tell it), gathers are taken for slow, which costs
 * the fast ones less than the other way round.
 */
int	cpu_gds_fast(const char *report);

/* The extensions the processor has and that are not disabled. */
unsigned cpu_usable(void);

#endif
