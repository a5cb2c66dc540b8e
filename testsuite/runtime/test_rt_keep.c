/* test_rt_keep.c -- __ipp_counts_keep and __ipp_counts_tls_keep
 * (ipp_abi.h): the thread's counters
 * of an array region, called from inline asm as the plugin emits it, with
 * every register but rax and the flags preserved and the caller's red
 * zone untouched -- on the slow path (the thread's first call for the
 * region: registering the unit and allocating, which runs C code that
 * uses vector registers) and on the fast path.
 *
 * probe_keep (asm below) puts the region in rax and a distinct value in
 * every other general register but rsp, in xmm0-15 and, if the CPU has AVX, in the upper
 * halves of ymm0-15, and fills the 128-byte red zone below rsp; makes the
 * plugin's call sequence; and stores what it finds afterwards.  The
 * counts: region K (10 paths); main calls it first (slow), a thread twice
 * (slow, then fast), main again (fast), and each increments the array it
 * got on path 2 or path 5: the profile has K 2 -> 2 and 5 -> 2, and each
 * array is the one __ipp_counts gives the same thread.
 *
 * __ipp_counts_tls_keep, the same way, with the thread-local slot's
 * address in rcx (which it must keep), for region T of a unit with
 * static counters t0: main, single-threaded, gets t0 and finds it in its
 * slot; the thread gets its own array (__ipp_counts's) and keeps it; main
 * still holds t0 after the thread ran, and asked again gets its own
 * array.  Each adds 1 to path 3 through what it got: T 3 -> 3.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if IPP_COUNTS_KEEP
static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "K", 10, &m, 0, 0, NULL } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "keep.c", "00000000000000ee", "intra",
				  r, NULL, 0, 0, NULL };

struct probe_out {
	uint64_t g[14];			/* rbx, rcx, rdx, rsi, rbp, r8, r9, r10, r11, r12, r13, r14, r15, rdi */
	unsigned char x[16][16];	/* xmm0-15 */
	unsigned char yh[16][16];	/* the upper halves of ymm0-15 */
	uint64_t rz[16];		/* the red zone, -8(%rsp) down */
};

/* What the probe loads: xmm k gets bytes 16k.., ymm k's upper half 256 + 16k.. */
unsigned char probe_pat[512] __attribute__((aligned(16)));
unsigned char probe_avx;
void *probe_out_ptr, *probe_region, *probe_result;
void *probe_entry;		/* __ipp_counts_keep or __ipp_counts_tls_keep */
uint64_t probe_rcx;		/* what rcx holds: __ipp_counts_tls_keep's slot */
extern char __ipp_counts_keep[], __ipp_counts_tls_keep[];
uint64_t *probe_keep(void);

static const uint64_t sentinel[13] = {
	0x1032547698badcfeull,
	0x23016745ab89efcdull,
	0x32107654ba98fedcull,
	0x45670123cdef89abull,
	0x54761032dcfe98baull,
	0x67452301efcdab89ull,
	0x76543210fedcba98ull,
	0x89abcdef01234567ull,
	0x98badcfe10325476ull,
	0xab89efcd23016745ull,
	0xba98fedc32107654ull,
	0xcdef89ab45670123ull,
	0xdcfe98ba54761032ull
};

__asm__(".text\n"
	".globl probe_keep\n"
	".type probe_keep, @function\n"
	"probe_keep:\n"
	"pushq %rbx\n\tpushq %rbp\n\tpushq %r12\n\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n"
	"movabsq $0x1032547698badcfe, %rbx\n"
	"movq probe_rcx(%rip), %rcx\n"
	"movabsq $0x32107654ba98fedc, %rdx\n"
	"movabsq $0x45670123cdef89ab, %rsi\n"
	"movabsq $0x54761032dcfe98ba, %rbp\n"
	"movabsq $0x67452301efcdab89, %r8\n"
	"movabsq $0x76543210fedcba98, %r9\n"
	"movabsq $0x89abcdef01234567, %r10\n"
	"movabsq $0x98badcfe10325476, %r11\n"
	"movabsq $0xab89efcd23016745, %r12\n"
	"movabsq $0xba98fedc32107654, %r13\n"
	"movabsq $0xcdef89ab45670123, %r14\n"
	"movabsq $0xdcfe98ba54761032, %r15\n"
	"movdqu probe_pat+0(%rip), %xmm0\n"
	"movdqu probe_pat+16(%rip), %xmm1\n"
	"movdqu probe_pat+32(%rip), %xmm2\n"
	"movdqu probe_pat+48(%rip), %xmm3\n"
	"movdqu probe_pat+64(%rip), %xmm4\n"
	"movdqu probe_pat+80(%rip), %xmm5\n"
	"movdqu probe_pat+96(%rip), %xmm6\n"
	"movdqu probe_pat+112(%rip), %xmm7\n"
	"movdqu probe_pat+128(%rip), %xmm8\n"
	"movdqu probe_pat+144(%rip), %xmm9\n"
	"movdqu probe_pat+160(%rip), %xmm10\n"
	"movdqu probe_pat+176(%rip), %xmm11\n"
	"movdqu probe_pat+192(%rip), %xmm12\n"
	"movdqu probe_pat+208(%rip), %xmm13\n"
	"movdqu probe_pat+224(%rip), %xmm14\n"
	"movdqu probe_pat+240(%rip), %xmm15\n"
	"cmpb $0, probe_avx(%rip)\n"
	"je 1f\n"
	"vinsertf128 $1, probe_pat+256(%rip), %ymm0, %ymm0\n"
	"vinsertf128 $1, probe_pat+272(%rip), %ymm1, %ymm1\n"
	"vinsertf128 $1, probe_pat+288(%rip), %ymm2, %ymm2\n"
	"vinsertf128 $1, probe_pat+304(%rip), %ymm3, %ymm3\n"
	"vinsertf128 $1, probe_pat+320(%rip), %ymm4, %ymm4\n"
	"vinsertf128 $1, probe_pat+336(%rip), %ymm5, %ymm5\n"
	"vinsertf128 $1, probe_pat+352(%rip), %ymm6, %ymm6\n"
	"vinsertf128 $1, probe_pat+368(%rip), %ymm7, %ymm7\n"
	"vinsertf128 $1, probe_pat+384(%rip), %ymm8, %ymm8\n"
	"vinsertf128 $1, probe_pat+400(%rip), %ymm9, %ymm9\n"
	"vinsertf128 $1, probe_pat+416(%rip), %ymm10, %ymm10\n"
	"vinsertf128 $1, probe_pat+432(%rip), %ymm11, %ymm11\n"
	"vinsertf128 $1, probe_pat+448(%rip), %ymm12, %ymm12\n"
	"vinsertf128 $1, probe_pat+464(%rip), %ymm13, %ymm13\n"
	"vinsertf128 $1, probe_pat+480(%rip), %ymm14, %ymm14\n"
	"vinsertf128 $1, probe_pat+496(%rip), %ymm15, %ymm15\n"
	"1:\n"
	"movq $1509949441, -8(%rsp)\n"
	"movq $1509949442, -16(%rsp)\n"
	"movq $1509949443, -24(%rsp)\n"
	"movq $1509949444, -32(%rsp)\n"
	"movq $1509949445, -40(%rsp)\n"
	"movq $1509949446, -48(%rsp)\n"
	"movq $1509949447, -56(%rsp)\n"
	"movq $1509949448, -64(%rsp)\n"
	"movq $1509949449, -72(%rsp)\n"
	"movq $1509949450, -80(%rsp)\n"
	"movq $1509949451, -88(%rsp)\n"
	"movq $1509949452, -96(%rsp)\n"
	"movq $1509949453, -104(%rsp)\n"
	"movq $1509949454, -112(%rsp)\n"
	"movq $1509949455, -120(%rsp)\n"
	"movq $1509949456, -128(%rsp)\n"
	"movabsq $0x0123456789abcdef, %rdi\n"
	"movq probe_region(%rip), %rax\n"
	/* the plugin's sequence (plugin/instrument.cc, emit_counts_select) */
	"lea -128(%rsp), %rsp\n"
	"call *probe_entry(%rip)\n"
	"lea 128(%rsp), %rsp\n"
	"movq %rax, probe_result(%rip)\n"
	"movq probe_out_ptr(%rip), %rax\n"
	"movq %rbx, 0(%rax)\n"
	"movq %rcx, 8(%rax)\n"
	"movq %rdx, 16(%rax)\n"
	"movq %rsi, 24(%rax)\n"
	"movq %rbp, 32(%rax)\n"
	"movq %r8, 40(%rax)\n"
	"movq %r9, 48(%rax)\n"
	"movq %r10, 56(%rax)\n"
	"movq %r11, 64(%rax)\n"
	"movq %r12, 72(%rax)\n"
	"movq %r13, 80(%rax)\n"
	"movq %r14, 88(%rax)\n"
	"movq %r15, 96(%rax)\n"
	"movq %rdi, 104(%rax)\n"
	"movdqu %xmm0, 112(%rax)\n"
	"movdqu %xmm1, 128(%rax)\n"
	"movdqu %xmm2, 144(%rax)\n"
	"movdqu %xmm3, 160(%rax)\n"
	"movdqu %xmm4, 176(%rax)\n"
	"movdqu %xmm5, 192(%rax)\n"
	"movdqu %xmm6, 208(%rax)\n"
	"movdqu %xmm7, 224(%rax)\n"
	"movdqu %xmm8, 240(%rax)\n"
	"movdqu %xmm9, 256(%rax)\n"
	"movdqu %xmm10, 272(%rax)\n"
	"movdqu %xmm11, 288(%rax)\n"
	"movdqu %xmm12, 304(%rax)\n"
	"movdqu %xmm13, 320(%rax)\n"
	"movdqu %xmm14, 336(%rax)\n"
	"movdqu %xmm15, 352(%rax)\n"
	"cmpb $0, probe_avx(%rip)\n"
	"je 2f\n"
	"vextractf128 $1, %ymm0, 368(%rax)\n"
	"vextractf128 $1, %ymm1, 384(%rax)\n"
	"vextractf128 $1, %ymm2, 400(%rax)\n"
	"vextractf128 $1, %ymm3, 416(%rax)\n"
	"vextractf128 $1, %ymm4, 432(%rax)\n"
	"vextractf128 $1, %ymm5, 448(%rax)\n"
	"vextractf128 $1, %ymm6, 464(%rax)\n"
	"vextractf128 $1, %ymm7, 480(%rax)\n"
	"vextractf128 $1, %ymm8, 496(%rax)\n"
	"vextractf128 $1, %ymm9, 512(%rax)\n"
	"vextractf128 $1, %ymm10, 528(%rax)\n"
	"vextractf128 $1, %ymm11, 544(%rax)\n"
	"vextractf128 $1, %ymm12, 560(%rax)\n"
	"vextractf128 $1, %ymm13, 576(%rax)\n"
	"vextractf128 $1, %ymm14, 592(%rax)\n"
	"vextractf128 $1, %ymm15, 608(%rax)\n"
	"vzeroupper\n"
	"2:\n"
	"movq -8(%rsp), %rbx\n\tmovq %rbx, 624(%rax)\n"
	"movq -16(%rsp), %rbx\n\tmovq %rbx, 632(%rax)\n"
	"movq -24(%rsp), %rbx\n\tmovq %rbx, 640(%rax)\n"
	"movq -32(%rsp), %rbx\n\tmovq %rbx, 648(%rax)\n"
	"movq -40(%rsp), %rbx\n\tmovq %rbx, 656(%rax)\n"
	"movq -48(%rsp), %rbx\n\tmovq %rbx, 664(%rax)\n"
	"movq -56(%rsp), %rbx\n\tmovq %rbx, 672(%rax)\n"
	"movq -64(%rsp), %rbx\n\tmovq %rbx, 680(%rax)\n"
	"movq -72(%rsp), %rbx\n\tmovq %rbx, 688(%rax)\n"
	"movq -80(%rsp), %rbx\n\tmovq %rbx, 696(%rax)\n"
	"movq -88(%rsp), %rbx\n\tmovq %rbx, 704(%rax)\n"
	"movq -96(%rsp), %rbx\n\tmovq %rbx, 712(%rax)\n"
	"movq -104(%rsp), %rbx\n\tmovq %rbx, 720(%rax)\n"
	"movq -112(%rsp), %rbx\n\tmovq %rbx, 728(%rax)\n"
	"movq -120(%rsp), %rbx\n\tmovq %rbx, 736(%rax)\n"
	"movq -128(%rsp), %rbx\n\tmovq %rbx, 744(%rax)\n"
	"popq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbp\n\tpopq %rbx\n"
	"movq probe_result(%rip), %rax\n"
	"ret\n"
	".size probe_keep, .-probe_keep\n");

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

/* One call of ENTRY through the plugin's sequence, rcx holding RCX;
 * every register checked.  Returns the counters it gave. */
static uint64_t *probe(void *entry, struct ipp_rt_region *reg, uint64_t rcx)
{
	struct probe_out o;
	uint64_t *c;
	memset(&o, 0, sizeof(o));
	pthread_mutex_lock(&probe_lock);
	probe_out_ptr = &o;
	probe_region = reg;
	probe_entry = entry;
	probe_rcx = rcx;
	c = probe_keep();
	pthread_mutex_unlock(&probe_lock);
	for (int i = 0; i < 13; i++)
		CHECK_U64(o.g[i], i == 1 ? rcx : sentinel[i]);
	CHECK_U64(o.g[13], 0x0123456789abcdefull);	/* rdi */
	for (int k = 0; k < 16; k++) {
		CHECK(memcmp(o.x[k], probe_pat + 16 * k, 16) == 0);
		if (probe_avx)
			CHECK(memcmp(o.yh[k], probe_pat + 256 + 16 * k, 16) == 0);
	}
	for (int i = 0; i < 16; i++)
		CHECK_U64(o.rz[i], 0x5a000001u + (unsigned)i);
	return c;
}

static uint64_t *keep(void)
{
	uint64_t *c = probe(__ipp_counts_keep, &r[0], sentinel[1]);
	CHECK(c != NULL && c == __ipp_counts(&r[0]));	/* the thread's own array */
	return c;
}

/* __ipp_counts_tls_keep for region T of a unit with static counters (t0):
 * single-threaded, the static counters; with threads, the thread's own
 * array, __ipp_counts's; either way kept in the slot, whose address rcx
 * holds (and keeps). */
static struct ipp_rt_module mt;
static uint64_t t0[10];
static struct ipp_rt_region t[1] = { { "T", 10, &mt, 0, 0, t0 } };
static struct ipp_rt_module mt = { IPP_ABI_VERSION, 1, "keep-tls.c", "00000000000000ef", "intra",
				   t, NULL, 0, 0, NULL };
static __thread uint64_t *tslot;

static uint64_t *tls_keep(int single)
{
	uint64_t *c = probe(__ipp_counts_tls_keep, &t[0], (uint64_t)(uintptr_t)&tslot);
	CHECK(c != NULL && tslot == c);
	if (single)
		CHECK(c == t0);
	else
		CHECK(c != t0 && c == __ipp_counts(&t[0]));
	return c;
}

static void *thread_main(void *arg)
{
	(void)arg;
	keep()[2]++;	/* the thread's first: the slow path */
	keep()[5]++;
	CHECK(tslot == NULL);
	tls_keep(0)[3]++;	/* the thread's own array, kept */
	return NULL;
}
#endif

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_keep");
	static const char *env[] = { "IPP_PROFILE=keep.prof", NULL };

#if IPP_COUNTS_KEEP
	if (role) {
		pthread_t th;
		for (int i = 0; i < 512; i++)
			probe_pat[i] = (unsigned char)(i * 7 + 3);
		__builtin_cpu_init();
		probe_avx = __builtin_cpu_supports("avx") != 0;
		keep()[2]++;	/* registers the unit, allocates */
		__ipp_register(&mt);
		tls_keep(1)[3]++;	/* single-threaded: the static counters */
		CHECK(pthread_create(&th, NULL, thread_main, NULL) == 0);
		CHECK(pthread_join(th, NULL) == 0);
		keep()[5]++;
		CHECK(tslot == t0);	/* kept, after the process went multi-threaded */
		tls_keep(0);		/* asked again: the thread's own array now */
		tslot[3]++;
		printf("avx %d\n", probe_avx);
		return 0;
	}
	CHECK_EXIT(rtt_run("keep", NULL, env, NULL), 0);
	{
		ipp_profile *p = rtt_read("keep.prof");
		const ipp_prof_module *mm = rtt_module(p, "keep.c", "00000000000000ee");
		CHECK_U64(rtt_path(mm, "K", "2"), 2);
		CHECK_U64(rtt_path(mm, "K", "5"), 2);
		CHECK_U64(mm->npaths, 2);
		/* static (main, single-threaded), the thread's, main's own */
		mm = rtt_module(p, "keep-tls.c", "00000000000000ef");
		CHECK_U64(rtt_path(mm, "T", "3"), 3);
		CHECK_U64(mm->npaths, 1);
		ipp_profile_free(p);
	}
	rtt_done();
	return 0;
#else
	(void)role;
	(void)env;
	printf("__ipp_counts_keep is x86-64 only: nothing to test here\n");
	return 77;	/* skipped */
#endif
}
