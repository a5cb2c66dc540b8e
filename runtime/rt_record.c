/* rt_record.c -- the fast path of __ipp_record, alone in its file so that
 * nothing of the slow path can be inlined into it; and __ipp_counts and
 * __ipp_counts_tls with their entries for inline asm, __ipp_counts_keep
 * and __ipp_counts_tls_keep (x86-64).
 *
 * For a region counted in an array (npaths <= RT_ARRAY_MAX) the work is:
 * load the region's index, two thread-local loads (the slot vector and its
 * size), a bounds check on the index, a bounds check on the path number,
 * and a saturating increment -- no lock, no atomic read-modify-write: each
 * thread counts in its own tables (rt_state.c).  For a hash region (limit
 * 0) it makes the first two probes of the thread's table: key1 = n + 1,
 * the entry hent[rt_htab_index(key1, shift)] (rt_hash.c) and the one
 * after it, and if one holds key1, the same saturating increment.  A key
 * in the table was checked against npaths when it was inserted, so a hit
 * needs no check.  Everything else (the first record of a region or of a
 * thread, a key further along the probe sequence or new, bad numbers)
 * goes to rt_record_slow().
 *
 * Invariants relied on (rt_internal.h, struct rt_slot):
 *  - rt_tls_view.slots[i].limit is 0 unless counts[] has limit entries, and
 *    slot 0 (index 0 = "not registered yet") always has limit 0, so an
 *    unregistered region can never pass the array test;
 *  - every slot's hent has at least 2^(64 - shift) + 1 entries (empty
 *    slots point at rt_hent_none, whose keys are 0), and shift is loaded
 *    before hent, so both probes stay inside the table even if a signal
 *    handler grew it meanwhile;
 *  - no key1 is 0: n = 2^64 - 1 (never a path number) is sent to the
 *    slow path before it could match an empty entry.
 *
 * __ipp_hmiss is the slow path of a probe inline in instrumented code: the
 * same record, and the table published in the unit's slot of the region.
 *
 * __ipp_counts hands a function that records into an array region the
 * thread's array itself, once per activation; the function then counts
 * inline (ipp_abi.h).  In an executable the unit keeps it in a
 * thread-local instead and asks __ipp_counts_tls once per thread.
 *
 * Copyright (c) 2026 the ipp authors.
 * SPDX-License-Identifier: MIT (see runtime/LICENSE)
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the "Software"),
 * to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense,
 * and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.  IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 * FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
 * IN THE SOFTWARE.
 */
#include "rt_internal.h"

#include <sys/single_threaded.h>

/* One more in *c, saturating at UINT64_MAX (never wrapping).  On x86-64,
 * three instructions that address the counter in place (GCC makes five of
 * the C: it loads, adds and stores through a register).  Either way the
 * counter is written with one aligned 64-bit store, never with a value
 * below the one it had, so a dumper's load sees the old count or the new
 * one. */
static inline RT_NOINST void count_one(uint64_t *c)
{
#if defined(__x86_64__)
	__asm__ volatile("cmpq $-1, %0\n\tje 1f\n\taddq $1, %0\n1:" : "+m"(*c) : : "cc");
#else
	uint64_t v = *c;
	if (v != UINT64_MAX)
		*c = v + 1;
#endif
}

/* __ipp_record's work, shared with __ipp_hmiss. */
static inline RT_NOINST void record(struct ipp_rt_region *r, uint64_t n)
{
	/* A relaxed load compiles to a plain load; it only keeps the
	 * registration's concurrent store from being a data race. */
	uint32_t i = __atomic_load_n(&r->index, __ATOMIC_RELAXED);
	if (RT_LIKELY(i < rt_tls_view.nslots)) {
		struct rt_slot *s = &rt_tls_view.slots[i];
		uint64_t key1, shift;
		struct ipp_rt_hent *e;
		if (RT_LIKELY(n < s->limit)) {
			RT_STAT(record_array);
			count_one(&s->counts[n]);
			return;
		}
		shift = s->shift;
		/* shift before hent (see above) */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (!__builtin_add_overflow(n, 1, &key1)) {
			e = &s->hent[rt_htab_index(key1, shift)];
			if (RT_LIKELY(e[0].key1 == key1)) {
				RT_STAT(record_probe1);
				count_one(&e[0].count);
				return;
			}
			/* The second probe.  Linear probing wraps around after
			 * the last entry, but this one does not need to: the
			 * entry after the last (e[cap]) is always empty. */
			if (e[1].key1 == key1) {
				RT_STAT(record_probe2);
				count_one(&e[1].count);
				return;
			}
		}
	}
	RT_STAT(record_slow);
	rt_record_slow(r, n);
}

RT_API void __ipp_record(struct ipp_rt_region *r, uint64_t n)
{
	record(r, n);
}

/* A miss of the inline probes in hash region r: the record, then, if the
 * unit's slot does not hold the thread's current table of r (the
 * thread's first miss in r: the slot still holds the unit's empty table),
 * the table is published there.  The check compares the slot's entries
 * with the fast path's view of r, which always mirrors the current table. */
static __attribute__((noinline)) RT_NOINST void hmiss_hash(struct ipp_rt_region *r, uint64_t n,
							   const struct ipp_rt_htab **slot)
{
	uint32_t i;
	record(r, n);
	i = __atomic_load_n(&r->index, __ATOMIC_RELAXED);
	if (RT_LIKELY(i >= rt_tls_view.nslots || (*slot)->e == rt_tls_view.slots[i].hent))
		return;
	RT_STAT(hmiss_publish);
	rt_hslot_publish(r, slot);
}

/* (ipp_abi.h)  A continuing body in an array region (slot 0, never
 * published) misses at every record: that lane is __ipp_record's, with no
 * stack frame of its own. */
RT_API void __ipp_hmiss(struct ipp_rt_region *r, uint64_t key1, const struct ipp_rt_htab **slots)
{
	/* the probed key, path n + 1 (ABI 10): n = 2^64 - 1 is no path, so
	 * key1 is never 0 */
	uint64_t k = r->hslot, n = key1 - 1;
	RT_STAT(hmiss);
	if (k == 0) {
		record(r, n);
		return;
	}
	hmiss_hash(r, n, &slots[k]);
}


/* The thread's array of region r if it has one already, else NULL.
 * Touches general registers only (__ipp_counts_keep relies on it). */
static inline RT_NOINST uint64_t *counts_fast(struct ipp_rt_region *r)
{
	uint32_t i = __atomic_load_n(&r->index, __ATOMIC_RELAXED);
	if (RT_LIKELY(i < rt_tls_view.nslots)) {
		const struct rt_slot *s = &rt_tls_view.slots[i];
		/* whole is set after counts and limit (rt_state.c): a
		 * complete slot, in a complete block of the unit */
		if (RT_LIKELY(s->whole != 0))
			return s->counts;
	}
	return NULL;
}

RT_API uint64_t *__ipp_counts(struct ipp_rt_region *r)
{
	uint64_t *c;
	RT_STAT(counts);
	if (RT_LIKELY((c = counts_fast(r)) != NULL))
		return c;
	RT_STAT(counts_slow);
	c = rt_counts_slow(r);
	return c ? c : rt_counts_scratch(r);
}

/* The counters __ipp_counts_tls hands out, or NULL (the scratch block:
 * never kept in the slot).  While the process is single-threaded the
 * unit's own static counters, whatever the thread (it is the only one;
 * glibc never sets the flag back while other threads live; a forked
 * child has the one thread): no lock, no allocation, so that a signal
 * handler that interrupts the runtime still counts. */
static inline RT_NOINST uint64_t *counts_tls_static(struct ipp_rt_region *r)
{
	return __libc_single_threaded ? r->gcounts : NULL;
}

static inline RT_NOINST void counts_tls_keep_in(uint64_t **slot, uint64_t *c)
{
#ifndef IPP_RT_STATS
	__atomic_store_n(slot, c, __ATOMIC_RELAXED);
#else
	/* the statistics build counts every select: it keeps nothing */
	(void)slot;
	(void)c;
#endif
}

RT_API uint64_t *__ipp_counts_tls(struct ipp_rt_region *r, uint64_t **slot)
{
	uint64_t *c;
	RT_STAT(counts);
	if ((c = counts_tls_static(r)) == NULL && (c = counts_fast(r)) == NULL) {
		RT_STAT(counts_slow);
		c = rt_counts_slow(r);
		if (!c)
			return rt_counts_scratch(r);
	}
	counts_tls_keep_in(slot, c);
	return c;
}

#if IPP_COUNTS_KEEP
/* __ipp_counts_keep (ipp_abi.h): __ipp_counts behind an entry that
 * preserves every register but rax and the flags, so that the plugin can
 * call it from inline asm and the function it instruments keeps its
 * values in the registers they are in (a call would make it save them
 * around the call, in its prologue: docs/PROTOCOL.md, "Counting").
 *
 * The entry (asm below) saves the general registers a C function may
 * clobber and aligns the stack; the C part touches general registers
 * only (target "general-regs-only"), except on its slow path, which
 * registers the unit and sets up the thread's array (libc's memset,
 * memcpy and the like use vector registers) and so saves and restores the
 * whole extended state (xsave, or fxsave without OS support for it)
 * around rt_counts_slow.  That runs once per thread and region. */
#define RT_GPR_ONLY __attribute__((target("general-regs-only")))

/* Bytes XSAVE needs for the features the OS enabled (CPUID 0xD.0 EBX), or
 * 0 if the OS does not support XSAVE (then FXSAVE: 512 bytes).  Cached;
 * a race computes the same value twice. */
static uint32_t rt_xsave_bytes = UINT32_MAX;

static RT_NOINST RT_GPR_ONLY uint32_t xsave_bytes(void)
{
	uint32_t a, b, c, d, n = __atomic_load_n(&rt_xsave_bytes, __ATOMIC_RELAXED);
	if (n != UINT32_MAX)
		return n;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1u), "c"(0u));
	n = 0;
	if (c & (1u << 27)) {	/* OSXSAVE */
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xdu), "c"(0u));
		n = b;
	}
	__atomic_store_n(&rt_xsave_bytes, n, __ATOMIC_RELAXED);
	return n;
}

/* The thread's counters of r from rt_counts_slow, with the vector state
 * saved around it; the scratch block if it has none, and then *real (if
 * asked for) is false. */
static RT_NOINST RT_GPR_ONLY uint64_t *counts_slow_saving(struct ipp_rt_region *r, bool *real)
{
	uint32_t n = xsave_bytes();
	unsigned char *raw = __builtin_alloca((n ? n : 512) + 64);
	unsigned char *area = (unsigned char *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
	uint64_t *c;
	if (n) {
		/* the XSAVE header must be zero but for what XSAVE writes */
		volatile uint64_t *h = (volatile uint64_t *)(area + 512);
		for (unsigned k = 0; k < 8; k++)
			h[k] = 0;
		__asm__ volatile("xsave64 (%0)" : : "r"(area), "a"(~0u), "d"(~0u) : "memory");
	} else {
		__asm__ volatile("fxsave64 (%0)" : : "r"(area) : "memory");
	}
	c = rt_counts_slow(r);
	if (real)
		*real = c != NULL;
	if (!c)
		c = rt_counts_scratch(r);
	if (n)
		__asm__ volatile("xrstor64 (%0)" : : "r"(area), "a"(~0u), "d"(~0u) : "memory");
	else
		__asm__ volatile("fxrstor64 (%0)" : : "r"(area) : "memory");
	return c;
}

/* Called by the entry only. */
RT_HIDDEN RT_GPR_ONLY __attribute__((used)) uint64_t *rt_counts_keep(struct ipp_rt_region *r);
RT_HIDDEN RT_GPR_ONLY __attribute__((used)) uint64_t *rt_counts_keep(struct ipp_rt_region *r)
{
	uint64_t *c;
	RT_STAT(counts);
	if (RT_LIKELY((c = counts_fast(r)) != NULL))
		return c;
	RT_STAT(counts_slow);
	return counts_slow_saving(r, NULL);
}

/* Called by __ipp_counts_tls_keep's entry only: __ipp_counts_tls. */
RT_HIDDEN RT_GPR_ONLY __attribute__((used)) uint64_t *rt_counts_tls_keep(struct ipp_rt_region *r,
									uint64_t **slot);
RT_HIDDEN RT_GPR_ONLY __attribute__((used)) uint64_t *rt_counts_tls_keep(struct ipp_rt_region *r,
									uint64_t **slot)
{
	uint64_t *c;
	bool real = true;
	RT_STAT(counts);
	if ((c = counts_tls_static(r)) == NULL && (c = counts_fast(r)) == NULL) {
		RT_STAT(counts_slow);
		c = counts_slow_saving(r, &real);
	}
	if (real)
		counts_tls_keep_in(slot, c);
	return c;
}

/* The entry's fast path is counts_fast in assembly (below), which reads
 * these; their C layout is checked here. */
#define RT_KEEP_REGION_INDEX 24
#define RT_KEEP_VIEW_SLOTS 0
#define RT_KEEP_VIEW_NSLOTS 8
#define RT_KEEP_SLOT_COUNTS 0
#define RT_KEEP_SLOT_WHOLE 32
_Static_assert(offsetof(struct ipp_rt_region, index) == RT_KEEP_REGION_INDEX &&
		       sizeof(((struct ipp_rt_region *)0)->index) == 4,
	       "struct ipp_rt_region changed: update RT_KEEP_REGION_INDEX");
_Static_assert(offsetof(struct rt_view, slots) == RT_KEEP_VIEW_SLOTS &&
		       offsetof(struct rt_view, nslots) == RT_KEEP_VIEW_NSLOTS &&
		       sizeof(rt_tls_view.nslots) == 4,
	       "struct rt_view changed: update RT_KEEP_VIEW_*");
_Static_assert(sizeof(struct rt_slot) == 5 * 8 && offsetof(struct rt_slot, counts) == RT_KEEP_SLOT_COUNTS &&
		       offsetof(struct rt_slot, whole) == RT_KEEP_SLOT_WHOLE,
	       "struct rt_slot changed: update RT_KEEP_SLOT_* and the scale (5 * 8)");
#define RT_KEEP_STR_(x) #x
#define RT_KEEP_STR(x) RT_KEEP_STR_(x)

/* The fast path of a thread that has its array already: counts_fast with
 * two scratch registers, 15 instructions, where saving the eight
 * registers a C function may clobber and calling it took 42 (SQLite
 * intra in a process that ever started a thread: 2.58M calls, 270.8M
 * instructions in all).  The statistics build (IPP_RT_STATS) counts its
 * calls in rt_counts_keep, so it takes the C path always. */
#ifdef IPP_RT_STATS
#define RT_KEEP_FAST ""
#else
#define RT_KEEP_FAST \
	"pushq %rcx\n" \
	".cfi_adjust_cfa_offset 8\n" \
	".cfi_rel_offset %rcx, 0\n" \
	"pushq %rdx\n" \
	".cfi_adjust_cfa_offset 8\n" \
	".cfi_rel_offset %rdx, 0\n" \
	"movl " RT_KEEP_STR(RT_KEEP_REGION_INDEX) "(%rax), %ecx\n" \
	"movq rt_tls_view@gottpoff(%rip), %rdx\n" \
	"cmpl %fs:" RT_KEEP_STR(RT_KEEP_VIEW_NSLOTS) "(%rdx), %ecx\n" \
	"jae 1f\n" \
	"movq %fs:" RT_KEEP_STR(RT_KEEP_VIEW_SLOTS) "(%rdx), %rdx\n" \
	"leaq (%rcx,%rcx,4), %rcx\n" \
	"cmpq $0, " RT_KEEP_STR(RT_KEEP_SLOT_WHOLE) "(%rdx,%rcx,8)\n" \
	"je 1f\n" \
	"movq " RT_KEEP_STR(RT_KEEP_SLOT_COUNTS) "(%rdx,%rcx,8), %rax\n" \
	".cfi_remember_state\n" \
	"popq %rdx\n" \
	".cfi_adjust_cfa_offset -8\n" \
	".cfi_restore %rdx\n" \
	"popq %rcx\n" \
	".cfi_adjust_cfa_offset -8\n" \
	".cfi_restore %rcx\n" \
	"ret\n" \
	".cfi_restore_state\n" \
	"1:\n" \
	"popq %rdx\n" \
	".cfi_adjust_cfa_offset -8\n" \
	".cfi_restore %rdx\n" \
	"popq %rcx\n" \
	".cfi_adjust_cfa_offset -8\n" \
	".cfi_restore %rcx\n"
#endif

/* The entry: the region in %rax, where the result goes (no argument
 * comes in it, so the instrumented function has no value to move out of
 * its way).  The caller's inline asm moved %rsp below its red zone first
 * (`lea -128(%rsp), %rsp`), so the call frame address is 136 bytes above
 * %rsp here and the return address at its bottom; the stack is aligned
 * anyhow.  endbr64 for indirect branch tracking (a no-op
 * elsewhere): the caller calls through the GOT.  The fast path first
 * (RT_KEEP_FAST: the loads counts_fast makes, in the same order), then
 * the C part behind the saved registers. */
/* The entry: NAME, after FAST (its fast path, or nothing), saves the
 * registers a C function may clobber, moves the region (and, with ARGS,
 * more) into the C function's arguments and calls C. */
#define RT_KEEP_ENTRY(NAME, FAST, ARGS, C) \
	".text\n" \
	".globl " NAME "\n" \
	".type " NAME ", @function\n" \
	".p2align 4\n" \
	NAME ":\n" \
	".cfi_startproc\n" \
	".cfi_def_cfa_offset 136\n" \
	".cfi_offset 16, -136\n" \
	"endbr64\n" \
	FAST \
	"pushq %rbp\n" \
	".cfi_adjust_cfa_offset 8\n" \
	".cfi_rel_offset %rbp, 0\n" \
	"movq %rsp, %rbp\n" \
	".cfi_def_cfa_register %rbp\n" \
	"andq $-16, %rsp\n" \
	"pushq %rcx\n" \
	"pushq %rdx\n" \
	"pushq %rsi\n" \
	"pushq %rdi\n" \
	"pushq %r8\n" \
	"pushq %r9\n" \
	"pushq %r10\n" \
	"pushq %r11\n" \
	"movq %rax, %rdi\n" \
	ARGS \
	"call " C "\n" \
	"popq %r11\n" \
	"popq %r10\n" \
	"popq %r9\n" \
	"popq %r8\n" \
	"popq %rdi\n" \
	"popq %rsi\n" \
	"popq %rdx\n" \
	"popq %rcx\n" \
	"movq %rbp, %rsp\n" \
	".cfi_def_cfa_register %rsp\n" \
	"popq %rbp\n" \
	".cfi_adjust_cfa_offset -8\n" \
	".cfi_restore %rbp\n" \
	"ret\n" \
	".cfi_endproc\n" \
	".size " NAME ", .-" NAME "\n"

__asm__(RT_KEEP_ENTRY("__ipp_counts_keep", RT_KEEP_FAST, "", "rt_counts_keep"));

/* __ipp_counts_tls_keep (ipp_abi.h): __ipp_counts_tls for inline asm,
 * the region in %rax, the thread-local slot's address in %rcx (read, not
 * changed), the result in %rax.  Called once per thread and unit (every
 * time in the statistics build, which keeps nothing in the slot). */
__asm__(RT_KEEP_ENTRY("__ipp_counts_tls_keep", "", "movq %rcx, %rsi\n", "rt_counts_tls_keep"));
#endif
