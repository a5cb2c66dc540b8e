/* steps.c -- a decoded path as a list of vertices with their kinds (see
 * steps.h and docs/REPORT.md for the vocabulary).
 *
 * A vertex's kind depends on the edges around it in the path: Entry_P is a
 * plain "entry" when the path goes on through one of the function's own
 * edges, but a "surrogate-entry" when it leaves through a surrogate edge
 * (the path really starts at the loop header that edge points to); GExit_P
 * is a "surrogate-exit" or a "cut-exit" when reached through a surrogate
 * edge (whose G* origin tells which), a "gexit" otherwise.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "steps.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[SK_COUNT] = {
	[SK_ENTRY] = "entry",
	[SK_EXIT] = "exit",
	[SK_BLOCK] = "block",
	[SK_CALL] = "call",
	[SK_RETSITE] = "return-site",
	[SK_SUMMARY] = "summary",
	[SK_SURR_ENTRY] = "surrogate-entry",
	[SK_CUT_ENTRY] = "cut-entry",
	[SK_RESTART_ENTRY] = "restart-entry",
	[SK_SURR_EXIT] = "surrogate-exit",
	[SK_CUT_EXIT] = "cut-exit",
	[SK_GEXIT] = "gexit",
	[SK_GENTRY] = "gentry",
	[SK_SPLIT] = "split",
	[SK_SPLIT_SURR] = "split-surrogate",
};

const char *step_kind_name(enum step_kind k)
{
	return k < SK_COUNT ? kind_names[k] : "?";
}

void step_ctx_init(struct step_ctx *c, const ipp_fin *fin)
{
	const ipp_graph *g = ipp_fin_graph(fin);
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g);

	c->fin = fin;
	c->g = g;
	c->loop_header = xcalloc(nv, 1);
	for (ipp_id e = 0; (size_t)e < ne; e++)
		if (ipp_graph_is_back_edge(g, e))
			c->loop_header[ipp_edge_dst(g, e)] = 1;
}

void step_ctx_fini(struct step_ctx *c)
{
	free(c->loop_header);
	memset(c, 0, sizeof(*c));
}

/* The kind of Entry_P / GEntry_P followed by the surrogate edge 'out'. */
static enum step_kind surrogate_entry_kind(const struct step_ctx *c, ipp_id out)
{
	ipp_id t = ipp_fin_edst(c->fin, out);
	ipp_id o = ipp_fin_vorigin(c->fin, t);

	if (ipp_fin_is_cut_vertex(c->fin, t))
		return SK_CUT_ENTRY;
	if (o != IPP_NONE && c->loop_header[o])
		return SK_SURR_ENTRY;
	if (o != IPP_NONE && ipp_vertex_is_restart(c->g, o))
		return SK_RESTART_ENTRY;
	return SK_SURR_ENTRY;
}

/* The kind of GExit_P reached through edge 'in'. */
static enum step_kind gexit_kind(const struct step_ctx *c, ipp_id in)
{
	ipp_id origin;

	if (in == IPP_NONE || ipp_fin_ekind(c->fin, in) != IPP_E_SURR_EXIT)
		return SK_GEXIT;
	origin = ipp_fin_eorigin(c->fin, in);
	if (origin != IPP_NONE && ipp_fin_is_cut_vertex(c->fin, ipp_edge_dst(c->g, origin)))
		return SK_CUT_EXIT;
	return SK_SURR_EXIT;
}

static void classify(const struct step_ctx *c, struct step *s, ipp_id in, ipp_id out)
{
	ipp_id v = s->vertex;
	enum ipp_ekind ok = out != IPP_NONE ? ipp_fin_ekind(c->fin, out) : IPP_E_KIND_COUNT;

	switch (ipp_fin_vkind(c->fin, v)) {
	case IPP_V_ENTRY:
		s->kind = ok == IPP_E_SURR_ENTRY ? surrogate_entry_kind(c, out) : SK_ENTRY;
		break;
	case IPP_V_GENTRY:
		s->kind = ok == IPP_E_SURR_ENTRY ? surrogate_entry_kind(c, out) : SK_GENTRY;
		break;
	case IPP_V_EXIT:
		s->kind = SK_EXIT;
		s->returns = ok == IPP_E_RETURN;
		break;
	case IPP_V_GEXIT:
		s->kind = gexit_kind(c, in);
		break;
	case IPP_V_CALL:
		s->why = ipp_fin_call_summary(c->fin, s->origin);
		s->kind = s->why == IPP_SUM_NONE ? SK_CALL : SK_SUMMARY;
		s->callee = ipp_call_callee(c->g, s->origin);
		s->callee_name = ipp_call_target_name(c->g, s->origin);
		break;
	case IPP_V_RETSITE:
		s->kind = SK_RETSITE;
		break;
	case IPP_V_SPLIT:
		s->kind = in != IPP_NONE && ipp_fin_ekind(c->fin, in) == IPP_E_SPLIT_SURR ?
			SK_SPLIT_SURR : SK_SPLIT;
		break;
	default:
		s->kind = SK_BLOCK;
		break;
	}
}

int steps_build(const struct step_ctx *c, const ipp_path *path, bool partial,
		struct steps *out, char *err, size_t errlen)
{
	size_t ne = ipp_fin_nedges(c->fin), cap = 0;

	memset(out, 0, sizeof(*out));
	out->partial = partial;
	for (size_t i = 0; i <= path->nedges; i++) {
		/* vertex i: the source of edge 0, then the target of edge i-1 */
		ipp_id in = i > 0 ? path->edges[i - 1] : IPP_NONE;
		ipp_id outedge = i < path->nedges ? path->edges[i] : IPP_NONE;
		ipp_id v;
		enum ipp_vkind vk;
		struct step *s;

		if ((in != IPP_NONE && (in < 0 || (size_t)in >= ne)) ||
		    (outedge != IPP_NONE && (outedge < 0 || (size_t)outedge >= ne))) {
			set_err(err, errlen, "the decoded path has an invalid edge id");
			goto fail;
		}
		if (i == path->nedges && i == 0)
			break;
		v = in != IPP_NONE ? ipp_fin_edst(c->fin, in) : ipp_fin_esrc(c->fin, outedge);
		if (outedge != IPP_NONE && ipp_fin_esrc(c->fin, outedge) != v) {
			set_err(err, errlen, "the decoded path is not connected at vertex %" PRId32,
				v);
			goto fail;
		}
		vk = ipp_fin_vkind(c->fin, v);
		if (vk == IPP_V_GLOBAL_ENTRY || vk == IPP_V_GLOBAL_EXIT)
			continue;
		GROW(out->v, out->n, cap);
		s = &out->v[out->n++];
		memset(s, 0, sizeof(*s));
		s->vertex = v;
		s->origin = ipp_fin_vorigin(c->fin, v);
		s->proc = ipp_fin_vproc(c->fin, v);
		s->callee = IPP_NONE;
		s->why = IPP_SUM_NONE;
		classify(c, s, in, outedge);
		if (s->kind == SK_SURR_ENTRY || s->kind == SK_CUT_ENTRY ||
		    s->kind == SK_RESTART_ENTRY || s->kind == SK_SPLIT_SURR)
			out->context = out->n - 1;
	}
	return 0;
fail:
	steps_free(out);
	return -1;
}

void steps_free(struct steps *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
