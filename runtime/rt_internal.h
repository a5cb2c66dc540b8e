/* rt_internal.h -- data structures and functions private to libipprt, the
 * ipp runtime library.  Nothing here is installed.
 *
 * Who owns what (the invariants every file relies on):
 *
 *  - Every thread that records owns one `struct rt_thread`, created on its
 *    first record and never freed while the process lives.  Thread states
 *    are pushed on the global list rt_threads (under rt_lock, with a
 *    release store), so dumpers can walk it without the lock, and the
 *    counts of threads that have exited are still there at the dump.
 *  - A thread's counters are written by that thread only, without locks or
 *    atomics (rt_record.c).  Structures that a dumper reads while the owner
 *    may be growing them (the table vector, hash tables, the partial-path
 *    list) are published with a release store after they are complete, and
 *    the old versions are never freed (a dumper may still be reading them).
 *  - Dumpers never write a counter they do not own: ipp_dump() and
 *    ipp_reset() move per-counter *baselines* (`base`, `bhash`, the `base`
 *    of a partial record), which only dumpers touch, under rt_dump_lock.
 *    What a dump writes is count - baseline.  So a dump or reset while
 *    other threads record neither loses nor double counts an increment.
 *  - The fork child is single-threaded: it zeroes counters and baselines
 *    directly (rt_state.c).
 *  - Nothing reachable from a fatal-signal handler calls malloc or stdio:
 *    the crash path allocates from a reserve set aside at start-up and with
 *    mmap (rt_alloc() in crash mode, the arena of rt_arena.c), and formats
 *    by hand.
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
#ifndef IPP_RT_INTERNAL_H
#define IPP_RT_INTERNAL_H

/* The runtime must never be instrumented by the ipp plugin: it would call
 * itself from __ipp_record.  Every function carries no_instrument_function
 * (which the plugin honours); this also catches a build that passes the
 * plugin anyway, once the plugin predefines __IPP_INSTRUMENT__. */
#ifdef __IPP_INSTRUMENT__
#error "libipprt must not be compiled with the ipp plugin (-fplugin=ipp)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/types.h>

#include "ipp_abi.h"
#include "rt_stats.h"

/* The profile's layout and its reader and writer (XXH64 included). */
#include "ipp_profile.h"

/* Function attributes.  RT_API: exported (the ABI and <ipp.h>);
 * RT_HIDDEN: internal to the runtime. */
#define RT_NOINST __attribute__((no_instrument_function))
#define RT_API __attribute__((no_instrument_function, visibility("default")))
#define RT_HIDDEN __attribute__((no_instrument_function, visibility("hidden")))
#define RT_TLS __thread __attribute__((tls_model("initial-exec")))
/* Thread-local variables of the ABI (exported). */
#define RT_ABI_TLS __thread __attribute__((tls_model("initial-exec"), visibility("default")))
#define RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define RT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Regions with at most this many paths count in a plain array of 64-bit
 * counters (32 KiB per region and thread at most); larger ones in an
 * open-addressing hash keyed by path number (ipp_abi.h). */
#define RT_ARRAY_MAX IPP_ARRAY_MAX

/* Frame walks stop after this many frames (a corrupted or cyclic list). */
#define RT_MAX_FRAMES 1000000u

/* Longest path name the runtime handles (the expanded profile name plus
 * suffixes such as ".lock" or ".stale.NNN"). */
#define RT_PATH_MAX 4096
/* Room RT_PATH_MAX keeps for those suffixes beyond the expanded name:
 * ".<pid>" of a fallback, then ".<pid>.XXXXXX.tmp" of its temporary. */
#define RT_PATH_SUFFIX 64

/* ------------------------------------------------------------------ */
/* Counter hash tables (rt_hash.c)                                     */
/* ------------------------------------------------------------------ */

/* The counters of a hash region: struct ipp_rt_htab (ipp_abi.h), whose
 * layout instrumented code relies on (__ipp_hmiss).  Linear probing,
 * power-of-two capacity, grown (doubled) when an insertion would pass 1/4
 * load (5/8 in big tables).  A grown table is a new object published by the owner; the old
 * one is left alone (never freed). */
#define RT_HTAB_INIT_CAP 64u
/* Tables smaller than this are kept at most 1/4 full, bigger ones 5/8
 * (rt_hash.c, too_full): 16384 keys at 1/4 in 2^16 entries, 1 MiB. */
#define RT_HTAB_SPARSE_CAP (1u << 16)

/* Creates a table of capacity cap (a power of two). */
struct ipp_rt_htab *rt_htab_new(uint64_t cap) RT_HIDDEN;
/* The entry of key1, or NULL. */
struct ipp_rt_hent *rt_htab_find(const struct ipp_rt_htab *h, uint64_t key1) RT_HIDDEN;
/* The entry of key1, inserted with count 0 if absent; *hp may be replaced
 * by a bigger table (published with a release store). */
struct ipp_rt_hent *rt_htab_get(struct ipp_rt_htab **hp, uint64_t key1) RT_HIDDEN;
/* Makes *hp (created if NULL) able to take 'extra' more keys without
 * growing.  Returns 0, or -1 if out of memory. */
int rt_htab_reserve(struct ipp_rt_htab **hp, uint64_t extra) RT_HIDDEN;
/* The first probe of key1 in a table of 2^(64 - shift) entries:
 * Fibonacci hashing (Knuth 6.4), the top bits of key1 * 2^64/phi.  Every
 * bit of key1 reaches the top bits, so path numbers that are multiples of
 * large powers of two spread too; a multiplication and a shift on the
 * fast path. */
#define RT_FIB IPP_HTAB_FIB
static inline RT_NOINST uint64_t rt_htab_index(uint64_t key1, uint64_t shift)
{
	return (key1 * RT_FIB) >> shift;
}
/* The runtime's one index of objects (rt_hash.c): the partial paths of a
 * thread, its indirect-call arcs and its rows, and the records of a
 * profile write while equal keys are added up.  Open addressing over
 * pointers, linear probing from rt_htab_index(key, shift) (so any 64-bit
 * key spreads), load at most 1/2.  It grows into a complete copy with
 * twice the room, published by the owner; the old one is left as it is
 * (never freed), so that a signal handler that looks up meanwhile sees
 * one consistent index.  (The counters themselves are in struct ipp_rt_htab:
 * keys and counts in one array, probed inline by __ipp_record.) */
struct rt_arena;
struct rt_idx {
	uint32_t cap, used;		/* cap: a power of two */
	uint32_t shift;			/* 64 - log2(cap) */
	void *slot[];			/* NULL: empty */
};
/* The slot of the object with key `key` that is(object, want) accepts,
 * or of the empty slot where it would go. */
uint32_t rt_idx_find(const struct rt_idx *x, uint64_t key,
		     bool (*is)(const void *obj, const void *want), const void *want) RT_HIDDEN;
/* x if it has room for one more object, else a complete copy with twice
 * the room (the first: 64 slots), rehashed with key_of; from the arena a,
 * or rt_alloc if a is NULL.  NULL if out of memory. */
struct rt_idx *rt_idx_room(struct rt_idx *x, uint64_t (*key_of)(const void *obj),
			   struct rt_arena *a) RT_HIDDEN;
/* An empty index with room for n objects, from the arena a. */
struct rt_idx *rt_idx_new(uint64_t n, struct rt_arena *a) RT_HIDDEN;

/* A 64-bit mix whose low bits depend on every bit of x (the finalizer of
 * MurmurHash3), for tables that index with the low bits. */
static inline RT_NOINST uint64_t rt_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* ------------------------------------------------------------------ */
/* Per-thread state (rt_state.c)                                       */
/* ------------------------------------------------------------------ */

/* The counters of one region in one thread. */
struct rt_table {
	struct ipp_rt_region *region;
	uint64_t *counts;		/* array regions: [npaths]; NULL for hash */
	struct ipp_rt_htab *htab;		/* hash regions: published by the owner */
	/* hash regions: the owner's slot in the region's unit where
	 * instrumented code finds htab (__ipp_hmiss), or NULL; the owner
	 * stores every new htab there too */
	const struct ipp_rt_htab **hslot;
	/* Dumper-owned (rt_dump_lock): what earlier dumps/resets consumed. */
	uint64_t *base;			/* array regions, [npaths], lazily */
	struct ipp_rt_htab *bhash;		/* hash regions: key1 -> baseline */
};

/* The fast path's view of a table (rt_record.c).  Array regions: n <
 * limit means counts[n] is the counter.  Hash regions: limit = 0, and
 * hent/shift are the entries and shift of the current table (the first
 * probe of key1 is hent[rt_htab_index(key1, shift)], the second the entry
 * after it).  Every other slot (array regions, no table yet, index 0) has
 * hent = rt_hent_none, shift = RT_SHIFT_NONE: the probes read its empty
 * entries and miss.  Invariant, at every instant (a signal handler may
 * look): hent has at least 2^(64 - shift) + 1 entries.  So the owner
 * stores a new (bigger) hent before the new (smaller) shift, and the fast
 * path loads shift before hent. */
struct rt_slot {
	uint64_t *counts;
	uint64_t limit;
	struct ipp_rt_hent *hent;
	uint64_t shift;
	/* an array region: counts may go to inline code (__ipp_counts):
	 * every array region of its unit has its table (rt_state.c,
	 * unit_tables_complete).  Set after limit. */
	uint64_t whole;
};
/* The empty table: 2^(64 - RT_SHIFT_NONE) + 1 empty entries (read-only;
 * never written: a probe finds no key there).  The slots of regions
 * without a table point at its entries (rt_hent_none). */
#define RT_SHIFT_NONE 63u
extern const struct ipp_rt_htab rt_htab_none __attribute__((visibility("hidden")));
#define rt_hent_none (rt_htab_none.e)

/* The table pointers of a thread, indexed by region index; what dumpers
 * read.  Replaced (never freed) when the thread needs more. */
struct rt_vec {
	uint32_t cap;
	struct rt_table *t[];
};

/* A partial path: a path abandoned by exit, longjmp or a fatal signal.
 * Allocated once, never moved or freed (dumpers keep pointers to it). */
struct rt_pent {
	struct rt_pent *next;		/* the thread's list, newest first */
	struct ipp_rt_region *region;	/* of the outermost frame of the run */
	uint64_t num;			/* the innermost frame's path so far */
	uint64_t count;			/* owner */
	uint64_t base;			/* dumper */
	uint64_t hash;
	uint32_t nstack;
	int32_t stack[];		/* vertices, outermost first */
};

/* A thread's records of one kind with a stop stack: its partial paths,
 * or the forked prefixes of a fork child (rt_partial.c).  The list is
 * what dumpers read (published with a release store); the index is the
 * owner's. */
struct rt_plist {
	struct rt_pent *head;		/* newest first */
	struct rt_idx *index;		/* by rt_pent.hash */
};

/* An indirect call arc (rt_arcs.c): calls from call vertex `site` of the
 * unit `caller` through a pointer to address `target` (the writer names
 * the function there: rt_arc_callee).  Allocated once, never moved or
 * freed (dumpers keep pointers to it); only count and base change. */
struct rt_arc {
	struct ipp_rt_arc a;		/* count (owner), target, caller, site:
					 * what the call sites' caches read
					 * (ipp_abi.h) */
	struct rt_arc *next;		/* the thread's list, newest first */
	uint64_t key;			/* its hash key (rt_arcs.c) */
	uint64_t base;			/* dumper */
};

/* A row of two-level counting (rt_rows.c): the counts of the local paths
 * of procedure `desc` in the activations entered with (base, nvc) in
 * `region`.  Allocated once, never moved or freed; only counts (owner)
 * and bases (dumper) change. */
struct rt_row {
	struct rt_row *next;		/* the thread's list, newest first */
	struct ipp_rt_region *region;
	const struct ipp_rt_rows *desc;
	uint64_t base, nvc;
	uint64_t key;			/* its hash key (rt_rows.c) */
	uint64_t *bases;		/* dumper: desc->n baselines, or NULL */
	uint64_t counts[];		/* owner: desc->n counts */
};

/* A row's key (rt_row.key), by which the thread's index finds it
 * (rt_htab_index; here for the white-box tests).  One rt_hash64 of a
 * combination in which base and nvc are multiplied by different odd
 * constants (distinct bases of one (r, d, nvc) stay distinct): as even a
 * spread as mixing base separately first (rt_hash64(base) in the sum),
 * measured on SQLite's and zlib's rows and on 61k structured keys at the
 * index's load of up to 1/2, for 11 instructions less per lookup.  Not
 * without the outer rt_hash64: Fibonacci hashing alone spreads keys whose
 * bases are strided (multiples of 1024) badly (6% of them 4 or more
 * slots from home, against 2.5%). */
static inline RT_NOINST uint64_t rt_row_key(const struct ipp_rt_region *r,
					    const struct ipp_rt_rows *d, uint64_t base,
					    uint64_t nvc)
{
	return rt_hash64(((uintptr_t)r ^ ((uintptr_t)d << 7)) + base * 0xff51afd7ed558ccdull +
			 nvc * RT_FIB);
}

/* The most a thread spends on rows; beyond it, records go through
 * __ipp_record (exact, only slower). */
#define RT_ROW_BYTES (64u << 20)

/* An entry of a thread's flight-recorder ring (rt_last.c). */
struct rt_last {
	struct ipp_rt_region *region;
	uint64_t num;
};

struct rt_thread {
	struct rt_thread *next;		/* rt_threads, newest first */
	/* The flight recorder (rt_last.c): the owner writes ring[next &
	 * mask] and then counts it in last_next; writers read. */
	struct rt_last *last;		/* published; NULL until the first */
	uint32_t last_mask;
	uint64_t last_next;
	struct rt_vec *vec;		/* published */
	struct rt_plist partials;	/* partial paths */
	/* Forked prefixes (a fork child only: the paths pending in this
	 * thread when fork() returned, which the parent completes too;
	 * rt_partial.c).  Written only by final writes (exit, a fatal
	 * signal, exec), once: the paths they begin are pending until then. */
	struct rt_plist forked;
	struct rt_arc *arcs;		/* published list head */
	struct rt_row *rows;		/* published list head */
	/* Owner-only. */
	struct rt_idx *rowidx;		/* by rt_row.key */
	size_t row_bytes;		/* spent on rows */
	struct rt_idx *arcidx;		/* by rt_arc.key; first probe inline */
	/* Per registered unit (rt_modinfo.seq): the thread's counters of its
	 * array regions, one block laid out as the unit's gcounts, allocated
	 * on the first table of one of them (NULL until then), and whether
	 * every array region of the unit has its table in it yet (the inline
	 * path needs them all: __ipp_counts). */
	uint64_t **blocks;
	unsigned char *blocks_full;
	uint32_t nblocks;
	volatile int in_partial;	/* set while the owner edits partials */
	uint64_t bad_records;		/* path numbers >= npaths (plugin bug) */
	uint64_t bad_frames;		/* inconsistent frames seen by walks */
	void *altstack;			/* IPP_SIGNALS: this thread's sigaltstack */
	size_t altstack_size;
};

/* The ABI's frame list head, redeclared with the TLS model the runtime
 * uses (a static archive linked into executables: initial-exec, no
 * __tls_get_addr, safe in a signal handler). */
extern __thread struct ipp_rt_frame *__ipp_top __attribute__((tls_model("initial-exec")));
extern __thread uint64_t __ipp_path __attribute__((tls_model("initial-exec")));

/* The fast path's thread-local view (rt_state.c keeps it up to date):
 * slots[0 .. nslots-1], indexed by region index.  One object, so that
 * __ipp_record computes its thread-local address once. */
struct rt_view {
	struct rt_slot *slots;
	uint32_t nslots;
};
extern RT_TLS struct rt_view rt_tls_view;
extern RT_TLS struct rt_thread *rt_tls_self;

/* The slow path of __ipp_record: registers, creates the thread state or
 * the table, counts in a hash table, or rejects a bad number. */
void rt_record_slow(struct ipp_rt_region *r, uint64_t n) RT_HIDDEN;
/* The slow path of __ipp_counts: the thread's array of array region r,
 * registered and allocated if needed, or NULL. */
uint64_t *rt_counts_slow(struct ipp_rt_region *r) RT_HIDDEN;
/* Where __ipp_counts points a thread that could not have counters of r
 * (no memory, or a signal handler that interrupted the runtime): a
 * scratch block as large as r's unit's counters, at r's place in it;
 * never read. */
uint64_t *rt_counts_scratch(struct ipp_rt_region *r) RT_HIDDEN;
/* __ipp_hmiss's slow path: publishes the thread's table of hash region r
 * in *slot, the unit's slot of r, and keeps it there (the table's hslot). */
void rt_hslot_publish(struct ipp_rt_region *r, const struct ipp_rt_htab **slot) RT_HIDDEN;
/* Set while this thread is inside a slow path that allocates or edits its
 * owner-only structures (rt_state.c, rt_arcs.c): a signal handler that
 * records meanwhile (an instrumented handler) is dropped, not allowed to
 * corrupt the half-updated structures. */
extern RT_TLS int rt_tls_busy;


/* Rows (rt_rows.c): the number of local path l of row w; the fork child's
 * zeroing of a thread's rows; ipp_reset's baselines (-1 if one could not
 * be allocated). */
static inline RT_NOINST uint64_t rt_row_number(const struct rt_row *w, uint64_t l)
{
	/* exact in 64 bits: the numbering keeps every number below npaths */
	return w->base + w->desc->a[l] * w->nvc + w->desc->b[l];
}
int rt_rows_reset(struct rt_thread *t) RT_HIDDEN;

/* The calling thread's state, created if needed (NULL if out of memory). */
struct rt_thread *rt_thread_self(void) RT_HIDDEN;
/* Registers r's module if it is not yet (a frame walk can meet regions
 * that never recorded); false if r cannot be registered now. */
bool rt_region_ready(struct ipp_rt_region *r) RT_HIDDEN;

/* One registered module (the ABI struct) and runtime data about it. */
struct rt_modinfo {
	struct ipp_rt_module *m;
	uint32_t seq;			/* registration order, from 0 */
	/* The unit's counters (gcounts, one array, ipp_abi.h): the first
	 * array region's and how many; a thread's block of the unit has
	 * the same layout (rt_state.c, unit_block). */
	uint64_t *gfirst;
	uint64_t gtotal;
	/* Dumper-owned: the baselines of the unit's gcounts (the
	 * single-threaded counters, ipp_abi.h), gtotal of them in the same
	 * layout, or NULL (all 0). */
	uint64_t *gbase;
	/* Dumper-owned: this process has added its run to 'runs' of the
	 * module in the profile rt_run_target. */
	bool run_counted;
};

/* The writer's map from a function's address to its Entry region, built
 * per write from the registered modules' entries (rt_arcs.c). */
struct rt_entmap {
	uint64_t cap;				/* a power of two, or 0 */
	const struct ipp_rt_entry **slot;	/* open addressing by address */
};
int rt_entmap_build(struct rt_entmap *em, struct rt_modinfo *const *mods, uint32_t n,
		    struct rt_arena *a) RT_HIDDEN;
const struct ipp_rt_region *rt_entmap_find(const struct rt_entmap *em,
					   const void *fn) RT_HIDDEN;

/* Registered modules, in registration order: rt_mods[0 .. rt_nmods-1].
 * The array is replaced (never freed) when it grows; read rt_nmods with
 * acquire, then rt_mods. */
extern struct rt_modinfo **volatile rt_mods;
extern volatile uint32_t rt_nmods;
extern struct rt_thread *volatile rt_threads;

/* rt_lock: registration and thread-list insertion.  rt_dump_lock:
 * everything that reads or moves baselines and writes profiles.  Order:
 * rt_dump_lock before rt_lock. */
extern pthread_mutex_t rt_lock;
extern pthread_mutex_t rt_dump_lock;
/* Take/release rt_dump_lock, noting it in rt_tls_in_dump (rt_state.c). */
void rt_dump_lock_acquire(void) RT_HIDDEN;
void rt_dump_lock_release(void) RT_HIDDEN;
extern RT_TLS int rt_tls_in_dump;


/* One-time initialisation (atexit, atfork, environment, signals); called
 * with rt_lock held by the first registration.  This call is the one
 * dependency of the state (rt_state.c) on the files that write the
 * profile, and it must stay a direct call: libipprt is a static archive,
 * and a program whose units only register (inline counters) must pull
 * rt_api.o, with its constructor, exit handler and destructor, through
 * it.  (An init hook installed by rt_api.c's constructor was tried: the
 * linker then left rt_api.o out and such programs wrote no profile.) */
void rt_init_locked(void) RT_HIDDEN;
/* Called for each new thread state when set: rt_signal.c, once it has
 * installed its handlers, gives each thread an alternate signal stack. */
extern void (*rt_thread_hook)(struct rt_thread *t) __attribute__((visibility("hidden")));
/* The process id as of the last fork() the runtime saw (rt_api.c): in a
 * vfork() child, which shares the parent's memory and runs no fork
 * handler, getpid() differs from it. */
extern pid_t rt_pid __attribute__((visibility("hidden")));
/* Before exec (rt_exec.c): records the calling thread's pending paths and
 * writes the profile, unless this is a vfork child. */
void rt_before_exec(void) RT_HIDDEN;
/* Zeroes every counter, baseline and partial record (fork child). */
void rt_zero_all(void) RT_HIDDEN;

/* ------------------------------------------------------------------ */
/* Partial paths (rt_partial.c)                                        */
/* ------------------------------------------------------------------ */

enum rt_walk_stop {
	RT_WALK_ALL,		/* exit and fatal signals: every frame */
	RT_WALK_TO		/* __ipp_unwind_to: frames at or above f's run */
};

/* Records the pending paths of the calling thread's frame list as partial
 * paths (see the file comment of rt_partial.c for the grouping), marks
 * the recorded frames vertex = -1.  Returns how many were recorded. */
unsigned rt_record_pending(struct ipp_rt_frame *top, struct ipp_rt_frame *f,
			   enum rt_walk_stop how) RT_HIDDEN;
/* The fork child's handler: records the calling thread's pending paths
 * (the forking thread's, the only one left) as forked prefixes, leaving
 * the frames as they are: both processes go on with those paths. */
void rt_record_forked(void) RT_HIDDEN;
/* The exit-time recording: the calling thread's pending frames, then
 * __ipp_top = NULL so that they are never recorded twice. */
void rt_record_exit_frames(void) RT_HIDDEN;
/* The innermost frame top stands at a call that did not return: a frameless
 * instrumented callee began, and its activation is recorded stopped at its
 * entry (rt_signal.c).  Returns the frame a walk starts from: top, or
 * 'cont', filled in above it. */
struct ipp_rt_frame *rt_callee_fixup(struct ipp_rt_frame *top,
				     struct ipp_rt_frame *cont) RT_HIDDEN;
/* f is on the calling thread's frame list. */
bool rt_frame_on_list(struct ipp_rt_frame *f) RT_HIDDEN;

/* ------------------------------------------------------------------ */
/* Slots of inlined copies (rt_slots.c, ipp_abi.h IPP_FRAME_SLOT)      */
/* ------------------------------------------------------------------ */

/* Links the active slots of the calling thread's frames into its list
 * (before any reader of the list runs), and takes them out again (before
 * the program runs on).  Idempotent, async-signal-safe. */
void rt_slots_link(void) RT_HIDDEN;
void rt_slots_unlink(void) RT_HIDDEN;

/* ------------------------------------------------------------------ */
/* Memory: the arena of one profile write, rt_alloc (rt_arena.c)      */
/* ------------------------------------------------------------------ */

/* Bump allocation in mmap'd chunks; everything is released at once by
 * rt_arena_free.  Async-signal-safe (mmap/munmap are plain system calls).
 * Allocations are zeroed and 16-byte aligned. */
struct rt_chunk;
struct rt_big;
struct rt_arena {
	struct rt_chunk *chunks;
	bool failed;			/* an allocation failed */
	struct rt_big *bigs;		/* rt_arena_grow's mappings */
};
void *rt_arena_alloc(struct rt_arena *a, size_t size) RT_HIDDEN;
/* An array of `used` bytes at old (NULL if none yet), given room for
 * `size` bytes (size > used): the same contents at the address returned,
 * the rest zero; NULL on failure (old is still valid).  A big array gets a
 * mapping of its own that grows with mremap, never copied. */
void *rt_arena_grow(struct rt_arena *a, void *old, size_t used, size_t size) RT_HIDDEN;
void rt_arena_free(struct rt_arena *a) RT_HIDDEN;
/* Maps/unmaps anonymous memory directly (NULL on failure). */
void *rt_map(size_t size) RT_HIDDEN;
void rt_unmap(void *p, size_t size) RT_HIDDEN;
/* Zeroed memory that is never freed: bump allocation in the calling
 * thread's mmap'd chunks (no malloc: it may run in a signal handler), or
 * in a fatal-signal handler from the crash reserve.  NULL on failure. */
void *rt_alloc(size_t size) RT_HIDDEN;
/* Set in the thread whose fatal-signal handler runs: its allocations
 * come from the crash reserve (rt_alloc), and it never waits for a lock
 * the interrupted code may hold.  Other threads go on as before. */
extern RT_TLS int rt_tls_crash;
/* IPP_SIGNALS: sets aside memory for the crash path (address space only
 * until used). */
void rt_crash_reserve(size_t size) RT_HIDDEN;


/* ------------------------------------------------------------------ */
/* Records of a profile write (rt_snapshot.c, rt_merge.c, rt_emit.c)    */
/* ------------------------------------------------------------------ */

/* A complete path (stack == NULL), partial path or indirect-call record.
 * An indirect-call record (cmod != NULL) is the arc from call vertex num
 * of its module to the function with Entry region `region` of the unit
 * (cmod, ccs). */
struct rt_rec {
	const char *region;		/* NUL-terminated region name */
	uint64_t num;
	uint64_t count;
	const int32_t *stack;		/* NULL for complete paths */
	uint32_t nstack;
	uint32_t ni;			/* rt_emit.c: the index of region in the
					 * module's name table */
	const char *cmod;		/* indirect calls: the callee's unit */
	const char *ccs;		/* and its checksum, 16 lower-case hex digits */
	uint32_t ni_cmod;		/* rt_emit.c: the index of cmod */
};

/* A baseline to move if the write succeeds (ipp_dump, not the final
 * write): *base += delta for arrays, partial records and arcs, or the
 * bhash entry of key1 in table t. */
struct rt_commit {
	uint64_t *base;			/* NULL: use t/key1 */
	struct rt_table *t;
	uint64_t key1;
	uint64_t delta;
};

/* A module of the profile being written: one (name, checksum) of this
 * program (several registered units may share it; their counts add). */
struct rt_pmod {
	const char *name;
	char checksum[17];		/* lower-case hex */
	const char *mode;
	uint64_t runs;			/* 1 if this run is not yet counted, else 0 */
	struct rt_rec *paths, *partials, *icalls, *forked;
	size_t npaths, npartials, nicalls, nforked;
	size_t cap_paths, cap_partials, cap_icalls, cap_forked;
	struct rt_modinfo **mods;	/* the registered units it covers */
	size_t nmods;
	bool repeat;			/* a path's key may come twice (rt_snapshot.c) */
	bool in_file;			/* the existing profile holds it */
};

struct rt_snapshot {
	struct rt_pmod *pmods;
	size_t npmods;
	struct rt_commit *commits;	/* NULL in final mode */
	size_t ncommits, cap_commits;
	struct rt_modinfo **mods;	/* the registered modules it covers */
	uint32_t nmods;
	bool any;			/* some delta is not zero, or a run to count */
	const void **src;		/* by region index: where its paths came from */
	uint32_t nsrc;
	uint64_t bad_records, bad_frames;
};

/* The value of 16 hex digits (lower case; rt_util.c), and pm's checksum
 * as that number. */
uint64_t rt_hex64(const char *s) RT_HIDDEN;
static inline RT_NOINST uint64_t rt_pmod_checksum(const struct rt_pmod *pm)
{
	return rt_hex64(pm->checksum);
}

/* Takes what every thread counted since the last dump (count - baseline)
 * into s, one record per key, in no particular order.  commit: also list
 * the baselines to move.  forked: also the forked prefixes (final writes
 * only).  Needs rt_dump_lock.  Returns 0, or -1 if memory ran out. */
int rt_snapshot_take(struct rt_snapshot *s, struct rt_arena *a, bool commit, bool forked)
	RT_HIDDEN;
/* Moves the baselines listed by rt_snapshot_take (after a good write). */
void rt_snapshot_commit(struct rt_snapshot *s) RT_HIDDEN;
/* ipp_reset(): every baseline := its counter.  Needs rt_dump_lock.
 * Returns -1 if memory ran out (some counts then stay). */
int rt_reset_baselines(void) RT_HIDDEN;
/* Records (rt_recs.c).  rt_recs_dedup leaves one record per key (region,
 * number, stack; indirect calls: site, callee unit, checksum, region), its
 * count the (saturated) sum, in the order of first occurrence; recs are
 * all of one kind.  Returns the new length, or (size_t)-1 if the arena
 * ran out (recs unchanged).  rt_rec_eq: a and b have the same key. */
size_t rt_recs_dedup(struct rt_rec *recs, size_t n, struct rt_arena *a) RT_HIDDEN;
bool rt_rec_eq(const struct rt_rec *a, const struct rt_rec *b) RT_HIDDEN;

/* ------------------------------------------------------------------ */
/* Reading the existing profile (rt_merge.c)                           */
/* ------------------------------------------------------------------ */

/* One module of the existing file (a view into the file's bytes). */
struct rt_fmod {
	struct ipp_pf_mview v;
	const char *name;
	uint64_t checksum;
	struct rt_pmod *ours;		/* the module of this program it merges with */
	bool stale;			/* an older build of a module we have */
};

struct rt_file {
	struct rt_fmod *mods;
	size_t nmods;
	size_t nstale;
	const struct rt_fmod *first_stale;
};

/* Checks the profile buf[0..len) (8-byte aligned; named 'path' in
 * messages) with the profile reader (ipp_profile.c) and, if it is entirely
 * valid, merges the records of the modules this program has into s
 * (adding their counts and runs) and marks the stale ones.  Returns 0; -1
 * with a message in err if the file is not a profile this reader accepts
 * (s is then unchanged); -2 if memory ran out. */
int rt_file_parse(const char *buf, size_t len, const char *path, struct rt_snapshot *s,
		  struct rt_arena *a, struct rt_file *f, char *err, size_t errlen) RT_HIDDEN;


/* ------------------------------------------------------------------ */
/* Output (rt_emit.c)                                                   */
/* ------------------------------------------------------------------ */

/* A buffered writer on a file descriptor, with write(2) only: the
 * profile codec's writer (ipp_profile.h), which also computes the
 * profile's digest over what it writes. */
struct rt_out {
	struct ipp_pf_out pf;
	int fd;
};
void rt_out_open(struct rt_out *o, int fd) RT_HIDDEN;
void rt_out_str(struct rt_out *o, const char *s) RT_HIDDEN;
void rt_out_u64(struct rt_out *o, uint64_t v) RT_HIDDEN;
int rt_out_flush(struct rt_out *o) RT_HIDDEN;
/* Writes the whole profile (docs/FORMAT.md): f's modules in the order of
 * the file, ours merged, the stale ones left out, then s's new modules,
 * then the digest.  Sets the records' name indexes. */
int rt_emit_profile(struct rt_out *o, struct rt_snapshot *s, const struct rt_file *f,
		    struct rt_arena *a) RT_HIDDEN;

/* ------------------------------------------------------------------ */
/* The profile file (rt_write.c, rt_name.c)                            */
/* ------------------------------------------------------------------ */

enum rt_write_mode {
	RT_WRITE_DUMP,		/* ipp_dump(): write, then move the baselines */
	RT_WRITE_FINAL,		/* at exit */
	RT_WRITE_CRASH,		/* fatal signal: async-signal-safe only */
	RT_WRITE_EXEC		/* before exec: as RT_WRITE_DUMP, and the forked
				 * prefixes of a fork child, as the final writes */
};
/* Writes (merges) the profile.  Needs rt_dump_lock (or the crash path).
 * Returns 0 on success, -1 after printing why. */
int rt_write_profile(enum rt_write_mode mode) RT_HIDDEN;

/* The flight recorder (rt_last.c): writes every thread's last paths to
 * profile + ".last" (final writes: exit, fatal signals). */
void rt_last_write(const char *profile, struct rt_arena *a) RT_HIDDEN;

/* Partial records to take back out of the profile (a failed exec): d[i]
 * of record p[i]. */
struct rt_undo {
	struct rt_pent **p;
	uint64_t *d;
	size_t n;
};
/* Writes (merges) the profile as for RT_WRITE_DUMP, and also subtracts
 * the undo amounts from the partial records (the file's and the
 * process's).  Needs rt_dump_lock. */
int rt_write_profile_undo(const struct rt_undo *undo) RT_HIDDEN;

/* The profile's name when nothing else says (rt_name.c). */
#define RT_DEFAULT_NAME "%e.ipp.prof"

/* The profile name pattern: $IPP_PROFILE, ipp_set_profile() or
 * RT_DEFAULT_NAME, made absolute against the working directory at the time it
 * was set.  rt_name_init reads the environment (once, at init). */
void rt_name_init(void) RT_HIDDEN;
/* Sets the pattern (NULL or "": the default); -1 if too long. */
int rt_name_set(const char *pattern) RT_HIDDEN;
/* Expands the pattern (%e, %m, %p, %h, %%) into out[RT_PATH_MAX]; -1 if
 * too long. */
int rt_name_expand(char *out) RT_HIDDEN;
/* The pattern has %p: no other process writes this name. */
bool rt_name_per_process(void) RT_HIDDEN;

/* The file where this process's run was last counted ("" if none). */
extern char rt_run_target[RT_PATH_MAX];

/* ------------------------------------------------------------------ */
/* Messages and small helpers (rt_util.c)                              */
/* ------------------------------------------------------------------ */

/* Writes "ipp: " and the pieces (NULL-terminated list) and a newline to
 * stderr with write(2) (async-signal-safe). */
void rt_msg(const char *first, ...) __attribute__((sentinel)) RT_HIDDEN;
/* errno's English text without locale or malloc. */
const char *rt_strerror(int err) RT_HIDDEN;
/* Decimal / hex formatting into buf; return buf. */
char *rt_fmt_u64(uint64_t v, char buf[21]) RT_HIDDEN;
/* Copies n bytes from src, which may point anywhere: false (and nothing
 * read) if they are not all readable.  process_vm_readv on this process;
 * where the kernel refuses it, a plain copy (then src must be valid). */
bool rt_safe_read(void *dst, const void *src, size_t n) RT_HIDDEN;
/* The module tables the walks search (ipp_abi.h), sorted by their
 * leading int32_t fields: rt_table_key finds the element whose first
 * field is key (struct ipp_rt_restart, struct ipp_rt_slot), rt_table_run
 * the one whose first two fields (first, last) hold v, the runs disjoint
 * (struct ipp_rt_copy, struct ipp_rt_offset).  n elements of size bytes
 * at t; NULL if none.  Binary searches. */
const void *rt_table_key(const void *t, uint32_t n, size_t size, int32_t key) RT_HIDDEN;
const void *rt_table_run(const void *t, uint32_t n, size_t size, int32_t v) RT_HIDDEN;
_Static_assert(offsetof(struct ipp_rt_restart, vertex) == 0, "restarts: key first");
_Static_assert(offsetof(struct ipp_rt_slot, call) == 0, "slots: key first");
_Static_assert(offsetof(struct ipp_rt_copy, first) == 0 && offsetof(struct ipp_rt_copy, last) == 4,
	       "copies: run first");
_Static_assert(offsetof(struct ipp_rt_offset, first) == 0 &&
	       offsetof(struct ipp_rt_offset, last) == 4, "offsets: run first");
/* A copy of frame g in *copy if g is aligned and readable (a walk's
 * guard against a stale link: rt_safe_read). */
bool rt_read_frame(struct ipp_rt_frame *copy, const struct ipp_rt_frame *g) RT_HIDDEN;
/* s points to a readable NUL-terminated string of at most max bytes. */
bool rt_safe_string(const char *s, size_t max) RT_HIDDEN;
/* Bounded string append: returns -1 if it did not fit. */
int rt_cat(char *dst, size_t cap, const char *src) RT_HIDDEN;
static inline RT_NOINST uint64_t rt_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ------------------------------------------------------------------ */
/* Signals (rt_signal.c)                                               */
/* ------------------------------------------------------------------ */

/* Installs the fatal-signal handlers (IPP_SIGNALS): at start-up (early:
 * the runtime's constructor) where the disposition is the default, and at
 * the runtime's initialisation, with IPP_SIGNALS=1, over the program's
 * own (which then run after ours). */
void rt_signals_init(bool early) RT_HIDDEN;
/* With the handlers on: gives the calling thread an alternate signal
 * stack. */
void rt_signals_thread(struct rt_thread *t) RT_HIDDEN;
extern bool rt_signals_on;

/* rt_name.c: a profile name has been chosen already */
bool rt_pattern_set(void) RT_HIDDEN;
/* rt_name.c: the name was chosen by the program (ipp_set_profile with a
 * name), not by the environment or the default. */
bool rt_name_explicit(void) RT_HIDDEN;

/* ------------------------------------------------------------------ */
/* The environment (rt_env.c)                                          */
/* ------------------------------------------------------------------ */

/* Seconds a write waits for another process's lock on the profile before
 * it gives up with a message (IPP_LOCK_TIMEOUT overrides). */
#define RT_LOCK_TIMEOUT 30u

/* The flight recorder's ring (rt_last.c): entries per thread by default,
 * and at most. */
#define RT_LAST_DEFAULT 64u
#define RT_LAST_MAX (1u << 20)

/* What the environment asked for, read once with secure_getenv. */
struct rt_env {
	bool ready;
	bool secure;		/* AT_SECURE: set-user-ID, set-group-ID, capabilities */
	const char *profile;	/* IPP_PROFILE, NULL if unset or empty */
	int signals;		/* IPP_SIGNALS: 0 off, 1 forced, -1 unset (the
				 * default: where the program has no handler) */
	bool verbose;		/* IPP_VERBOSE set, not "" or "0" */
	unsigned lock_timeout;	/* IPP_LOCK_TIMEOUT, seconds */
	size_t row_bytes;	/* IPP_ROW_BYTES (RT_ROW_BYTES unset; 0: no rows) */
	uint32_t last;		/* IPP_LAST: ring entries per thread, a power of
				 * two (RT_LAST_DEFAULT unset; 0: off) */
	char exe[256];		/* the executable's base name (%e) */
	char build[17];		/* its GNU build-id's first 16 hex digits (%m) */
};
extern struct rt_env rt_env __attribute__((visibility("hidden")));
/* Reads the environment (once; later calls return at once). */
void rt_env_init(void) RT_HIDDEN;
/* Reads IPP_PROFILE again into rt_env.profile (not async-signal-safe). */
void rt_env_profile(void) RT_HIDDEN;
/* The process's umask (rt_env.c). */
mode_t rt_umask(void) RT_HIDDEN;

#endif /* IPP_RT_INTERNAL_H */
