/* test_rt_slots.c -- slots of inlined copies (ABI 13, ipp_abi.h struct
 * ipp_rt_slot, runtime/rt_slots.c): the code never links a slot, and the
 * runtime puts each active one on the frame list before it reads it.
 *
 * A function h with frames hf[0..2] (hf[0] its own frame) and three
 * slotted copies, listed in the module's slots table:
 *   call 20: copy c1 in slot 1      call 25: copy c3 in slot 1 (c1's
 *   call 30: copy c2 in slot 2, inside c1         sibling)
 * h stands at 20 (c1 active), c1's slot at 30 (c2 active), c2's slot at
 * call 41, and k, a function c2 called, has pushed its frame (prev = hf,
 * as the code leaves it: the top of the list at the call).
 *
 * Linking (rt_slots_link): the list becomes k -> c2 -> c1 -> h, each slot
 * with its table's region and IPP_FRAME_SLOT; linking again changes
 * nothing; unlinking restores k -> h.  With h on top (k returned), the
 * top itself moves to c2 and back.  h standing at 25 links c3's slot
 * alone; standing at its return site (26) links none.  A slot whose
 * checkpoint is no vertex (-5: never stored) stops the chain.
 *
 * At exit(3) the partial paths are k (1, [50]), c2 (2, [41]), c1 (4,
 * [30]) and h (7, [20]); without the slots table, only k and h: the
 * copies' paths come from the slots alone.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
#define REGION(NAME) { .name = NAME, .npaths = 1000, .module = &m }
static struct ipp_rt_region r[5] = {
	REGION("h"), REGION("c1"), REGION("c2"), REGION("c3"), REGION("k"),
};
static const struct ipp_rt_slot slots[] = {
	{ 20, 1, &r[1] },
	{ 25, 1, &r[3] },
	{ 30, 2, &r[2] },
};
static struct ipp_rt_module m = { .abi_version = IPP_ABI_VERSION, .nregions = 5,
				  .name = "slots.c", .checksum = "5105105105105105",
				  .mode = "intra", .regions = r };

#define NI __attribute__((noinline))

static struct ipp_rt_frame hf[3], kf;

/* h stands at v with c1 at 30 and c2 at 41 in their slots (flags 0, as
 * the code stores them), k pushed above h unless !with_k. */
static void stand(int32_t v, bool with_k)
{
	memset(hf, 0, sizeof(hf));
	memset(&kf, 0, sizeof(kf));
	__ipp_top = NULL;
	rtt_push(&hf[0], &r[0], 7, v, 0);
	hf[1] = (struct ipp_rt_frame){ .path = 4, .vertex = 30 };
	hf[2] = (struct ipp_rt_frame){ .path = 2, .vertex = 41 };
	if (with_k)
		rtt_push(&kf, &r[4], 1, 50, 0);
}

static void check_linking(void)
{
	m.nslots = sizeof(slots) / sizeof(slots[0]);
	m.slots = slots;

	stand(20, true);
	rt_slots_link();
	CHECK(__ipp_top == &kf);
	CHECK(kf.prev == &hf[2] && hf[2].prev == &hf[1] && hf[1].prev == &hf[0]);
	CHECK(hf[0].prev == NULL);
	CHECK(hf[1].region == &r[1] && hf[2].region == &r[2]);
	CHECK(hf[1].flags == IPP_FRAME_SLOT && hf[2].flags == IPP_FRAME_SLOT);
	CHECK(hf[0].flags == 0 && kf.flags == 0);
	rt_slots_link();	/* idempotent */
	CHECK(__ipp_top == &kf && kf.prev == &hf[2] && hf[2].prev == &hf[1]);
	CHECK(hf[1].prev == &hf[0]);
	rt_slots_unlink();
	CHECK(__ipp_top == &kf && kf.prev == &hf[0] && hf[0].prev == NULL);
	rt_slots_unlink();	/* nothing linked: nothing changes */
	CHECK(__ipp_top == &kf && kf.prev == &hf[0]);

	/* h on top: the top moves */
	stand(20, false);
	rt_slots_link();
	CHECK(__ipp_top == &hf[2] && hf[2].prev == &hf[1] && hf[1].prev == &hf[0]);
	rt_slots_unlink();
	CHECK(__ipp_top == &hf[0]);

	/* the sibling copy: slot 1 with c3's region, and no deeper */
	stand(25, true);
	hf[1].vertex = 35;
	rt_slots_link();
	CHECK(kf.prev == &hf[1] && hf[1].prev == &hf[0] && hf[1].region == &r[3]);
	rt_slots_unlink();
	CHECK(kf.prev == &hf[0]);

	/* back at the return site: no copy active */
	stand(26 | IPP_VERTEX_INSIDE, true);
	rt_slots_link();
	CHECK(kf.prev == &hf[0] && hf[1].flags == 0);

	/* a slot never stored (vertex -5) stops the chain */
	stand(20, true);
	hf[2].vertex = -5;
	rt_slots_link();
	CHECK(kf.prev == &hf[1] && hf[1].prev == &hf[0]);
	rt_slots_unlink();
	CHECK(kf.prev == &hf[0]);

	/* no table: nothing is linked */
	m.nslots = 0;
	m.slots = NULL;
	stand(20, true);
	rt_slots_link();
	CHECK(kf.prev == &hf[0] && __ipp_top == &kf);
}

static NI void stand_and_exit(void)
{
	__ipp_record(&r[0], 1);
	stand(20, true);
	exit(3);
}

static int child(const char *role)
{
	if (strcmp(role, "table") == 0) {
		m.nslots = sizeof(slots) / sizeof(slots[0]);
		m.slots = slots;
	}
	stand_and_exit();
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_slots");
	static const char *env[] = { "IPP_PROFILE=slots.prof", NULL };
	static const int32_t s_k[] = { 50 }, s_c2[] = { 41 }, s_c1[] = { 30 }, s_h[] = { 20 };
	const ipp_prof_module *mm;
	ipp_profile *p;

	if (role)
		return child(role);

	check_linking();

	CHECK_EXIT(rtt_run("table", NULL, env, NULL), 3);
	p = rtt_read("slots.prof");
	mm = rtt_module(p, "slots.c", "5105105105105105");
	CHECK_U64(mm->npartials, 4);
	CHECK_U64(rtt_partial(mm, "k", "1", s_k, 1), 1);
	CHECK_U64(rtt_partial(mm, "c2", "2", s_c2, 1), 1);
	CHECK_U64(rtt_partial(mm, "c1", "4", s_c1, 1), 1);
	CHECK_U64(rtt_partial(mm, "h", "7", s_h, 1), 1);
	ipp_profile_free(p);
	remove("slots.prof");

	/* no table: the copies' paths are not found */
	CHECK_EXIT(rtt_run("none", NULL, env, NULL), 3);
	p = rtt_read("slots.prof");
	mm = rtt_module(p, "slots.c", "5105105105105105");
	CHECK_U64(mm->npartials, 2);
	CHECK_U64(rtt_partial(mm, "k", "1", s_k, 1), 1);
	CHECK_U64(rtt_partial(mm, "h", "7", s_h, 1), 1);
	ipp_profile_free(p);
	remove("slots.prof");
	rtt_done();
	return 0;
}
