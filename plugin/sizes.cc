/* sizes.cc -- tell GCC's IPA inliner the size of the program's code, not of
 * the instrumentation the pass added to it.
 *
 * The inliner decides from size estimates (ipa-fnsummary): a callee is
 * inlined while its growth stays under max-inline-insns-auto/-single and
 * the unit's growth under inline-unit-growth.  Instrumented bodies are
 * larger than the program's (path-register arithmetic, frame pushes, the
 * calls into the runtime), so without a correction the ipp build inlines
 * far less than the plain build does, and each call it keeps costs a call,
 * a frame and a path record (issue 10; bench/README, "calls not inlined
 * that plain inlined").  Inlining an instrumented body is always exact:
 * the instrumentation goes with it.  So once the IPA summaries exist and
 * before a regular IPA pass reads them (ipa-cp's cloning decisions, then
 * the inliner), every summary is corrected:
 *
 *  - a call into the runtime (__ipp_record, __ipp_row, ...) costs nothing
 *    (its call summary's call_stmt_size and time are 0);
 *  - a body's own size loses what the pass added to its statements other
 *    than calls (ipp_sizes_note: the body's size after the pass minus the
 *    size it had before, in GCC's own estimate_num_insns units), taken
 *    from the unconditional size_time entry first, never below 0.
 *
 * Times are left alone: the instrumentation's time is real and the
 * inliner's benefit estimates may see it.  These are heuristics only:
 * nothing here can change a count, only which calls GCC inlines.
 *
 * Only with -fplugin-arg-ipp-inline-as-plain: every body inlined carries
 * its instrumentation, so the code GCC then compiles grows far more than
 * the corrected sizes say.  SQLite at -O2 (bench/README): intra 195.3M ->
 * 183.8M instructions but 44.7 s -> 99.9 s to compile (plain: 42.9 s),
 * context 270.0M -> 258.0M and 67.3 s -> 137.7 s.  Correcting half the
 * added size, or only the runtime calls, cost compile time too (77.8 s,
 * 65.5 s intra) for less (188.0M, 193.8M).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"

/* per instrumented body (its FUNCTION_DECL): the size the pass added */
static hash_map<tree, int> *added_size;

int ipp_sizes_body(function *fun)
{
	basic_block bb;
	int size = 0;
	FOR_EACH_BB_FN(bb, fun) {
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			/* calls are sized by their call summaries */
			if (is_gimple_debug(stmt) || is_gimple_call(stmt))
				continue;
			size += estimate_num_insns(stmt, &eni_size_weights);
		}
	}
	return size;
}

void ipp_sizes_note(tree decl, int base, function *fun)
{
	int added = ipp_sizes_body(fun) - base;
	if (added <= 0)
		return;
	if (!added_size)
		added_size = new hash_map<tree, int>;
	added_size->put(decl, added);
}

static bool is_runtime_fn(tree decl)
{
	for (int i = 0; i < IPP_ABI_NTREES; i++)
		if (ipp_abi_trees[i] == decl)
			return true;
	return false;
}

static void correct_node(cgraph_node *node)
{
	ipa_fn_summary *s = ipa_fn_summaries->get(node);
	ipa_size_summary *ss = ipa_size_summaries->get(node);
	bool changed = false;
	int removed = 0;	/* unscaled */
	int *added;
	if (!s || !ss)
		return;
	for (cgraph_edge *e = node->callees; e; e = e->next_callee) {
		ipa_call_summary *es;
		if (!is_runtime_fn(e->callee->decl))
			continue;
		es = ipa_call_summaries->get(e);
		if (!es || (!es->call_stmt_size && es->call_stmt_time == 0))
			continue;
		removed += es->call_stmt_size;
		es->call_stmt_size = 0;
		es->call_stmt_time = 0;
		changed = true;
	}
	added = added_size ? added_size->get(node->decl) : NULL;
	if (added && *added > 0) {
		int rem = *added * ipa_fn_summary::size_scale;
		size_time_entry *e;
		for (unsigned i = 0; rem > 0 && s->size_time_table.iterate(i, &e); i++) {
			int take = MIN(rem, e->size);
			e->size -= take;
			rem -= take;
			removed += take / ipa_fn_summary::size_scale;
		}
		changed = true;
	}
	if (!changed)
		return;
	ss->self_size = MAX(ss->self_size - removed, 1);
	ipa_update_overall_fn_summary(node);
}

/* Once, at the first regular IPA pass to execute after the summaries were
 * generated (ipa-cp's cloning decisions read them too, and its clones and
 * IPA-SRA's copy the summary of the node they clone). */
static void before_pass(void *gcc_data, void *user_data)
{
	opt_pass *pass = (opt_pass *)gcc_data;
	static bool corrected;
	cgraph_node *node;
	if (corrected || !pass || pass->type != IPA_PASS)
		return;
	if (!ipa_fn_summaries || !ipa_size_summaries || !ipa_call_summaries)
		return;
	corrected = true;
	FOR_EACH_DEFINED_FUNCTION(node)
		if (!node->alias && !node->thunk && !node->inlined_to)
			correct_node(node);
	delete added_size;
	added_size = NULL;
}

void ipp_sizes_register(const char *plugin_name)
{
	register_callback(plugin_name, PLUGIN_PASS_EXECUTION, before_pass, NULL);
}
