/* abi.cc -- the runtime ABI as GCC trees.
 *
 * The types (struct ipp_rt_frame, ipp_rt_region, ipp_rt_module), the
 * thread-local variables and the runtime functions instrumented code uses
 * are built from runtime/ipp_abi.def, the one list both sides include, and
 * each structure's size and each field's offset is checked against the C
 * structs of runtime/ipp_abi.h (the plugin is built for the host it runs
 * on, which is the target: x86-64 GNU/Linux), so the two layouts cannot
 * drift apart unnoticed.  Also the unit's static module and region array.
 *
 * Lifetime of the trees: they are built once per unit (ipp_abi_init, from
 * the pass) and referenced from the unit's GIMPLE, but the pointers kept
 * here live in ipp_abi_trees[], which plugin_init registers as a GGC root
 * table, so a collection between passes never leaves them dangling.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#define IPP_ABI_TYPES_ONLY
#include "ipp_abi.h"

tree ipp_abi_trees[IPP_ABI_NTREES];

/* Per region of the unit: the offset of its single-threaded counters in
 * the unit's array, or UINT64_MAX (a hash region). */
static uint64_t *gc_offset;
static ipp_id gc_first;	/* the region at offset 0, if any */
/* ... and its slot in the unit's hash-table slots (0: an array region),
 * of nhslots - 1 hash regions. */
static unsigned *hslot_of;
static unsigned nhslots;

/* The module's initializer, finished by ipp_abi_module_callees. */
static vec<constructor_elt, va_gc> *module_init;

/* The unit's site caches made so far, by call vertex: the original and
 * its continuing clone make the same call, and share its cache.  Reset by
 * ipp_abi_module_data; trees the varpool holds. */
static vec<tree> arc_caches;

/* The entries table, set by ipp_abi_module_entries: its fields come after
 * the callees' in the module (a CONSTRUCTOR lists fields in order). */
static tree entries_var;
static size_t nentries;
/* ... and the copies table, set by ipp_abi_module_copies. */
static tree copies_var;
static size_t ncopies;
/* ... and the offsets table, set by ipp_abi_module_offsets. */
static tree offsets_var;
static size_t noffsets;
/* ... and the restarts table, set by ipp_abi_module_restarts. */
static tree restarts_var;
static size_t nrestarts;
/* ... and the slots table, set by ipp_abi_module_slots. */
static tree slots_var;
static size_t nslots;

const struct ggc_root_tab ipp_abi_gc_roots[] = {
	{ &ipp_abi_trees[0], IPP_ABI_NTREES, sizeof(ipp_abi_trees[0]),
	  &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

/* The type names runtime/ipp_abi.def uses for its TREE column. */
static tree ipp_t_ptr, ipp_t_cptr, ipp_t_u64, ipp_t_i32, ipp_t_u32, ipp_t_int,
	ipp_t_unsigned, ipp_t_void, ipp_t_u64_ptr, ipp_t_cu64_ptr, ipp_t_frame_ptr,
	ipp_t_region_ptr, ipp_t_module_ptr, ipp_t_rows_ptr, ipp_t_callee_ptr, ipp_t_entry_ptr,
	ipp_t_copy_ptr, ipp_t_offset_ptr, ipp_t_restart_ptr,
	ipp_t_slot_ptr;

static tree add_field(tree type, const char *name, tree ftype, tree *chain)
{
	tree f = build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(name), ftype);
	DECL_CONTEXT(f) = type;
	DECL_CHAIN(f) = *chain;
	*chain = f;
	return f;
}

/* extern __thread TYPE NAME;  (defined in the runtime)
 *
 * In an executable the runtime is part of the program (ipp-gcc links
 * libipprt.a into it), so its thread-locals sit at a fixed offset from
 * the thread pointer: local-exec, `%fs:OFFSET` in the instruction itself,
 * where initial-exec loads the offset into a register first (the linker
 * relaxes the GOT load to an immediate, but the register stays, often held
 * across the body: a push and a pop more).  A shared object (-fPIC without
 * -fpie: flag_shlib) keeps GCC's default model, which works under dlopen.
 * An object built for an executable and linked into a shared library
 * anyway gets the linker's error (R_X86_64_TPOFF32 cannot be used when
 * making a shared object), never a wrong address. */
static tree tls_var(const char *name, tree type)
{
	tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
	TREE_PUBLIC(v) = 1;
	DECL_EXTERNAL(v) = 1;
	DECL_ARTIFICIAL(v) = 1;
	TREE_USED(v) = 1;
	set_decl_tls_model(v, flag_shlib ? decl_default_tls_model(v) : TLS_MODEL_LOCAL_EXEC);
	varpool_node::get_create(v);
	return v;
}

/* static TYPE NAME = INIT;  (const when INIT is given; zero otherwise) --
 * one of the unit's own variables: artificial, local, addressable, and
 * kept by the varpool. */
static tree static_var(const char *name, tree type, tree init)
{
	tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
	TREE_STATIC(v) = 1;
	TREE_PUBLIC(v) = 0;
	TREE_READONLY(v) = init != NULL_TREE;
	DECL_ARTIFICIAL(v) = 1;
	TREE_USED(v) = 1;
	TREE_ADDRESSABLE(v) = 1;
	DECL_INITIAL(v) = init;
	varpool_node::finalize_decl(v);
	return v;
}

/* A module's table: the static array "__ipp_WHAT_CHECKSUM" of n elements of
 * type elt, initialized by elts. */
static tree table_var(tree elt, vec<constructor_elt, va_gc> *elts, size_t n, const char *what,
		      const char *checksum)
{
	tree type = build_array_type(elt, build_index_type(size_int(n - 1)));
	char name[64];
	snprintf(name, sizeof(name), "__ipp_%s_%s", what, checksum);
	return static_var(name, type, build_constructor(type, elts));
}

/* &ARR[0]: a pointer to the array's element type, as a C array decays. */
static tree elt0_addr(tree arr)
{
	return build_fold_addr_expr(build4(ARRAY_REF, TREE_TYPE(TREE_TYPE(arr)), arr,
					   size_int(0), NULL_TREE, NULL_TREE));
}

/* A runtime function: leaf (it never calls back into the unit), nothrow. */
static tree rt_fn(const char *name, tree type)
{
	tree f = build_fn_decl(name, type);
	DECL_ATTRIBUTES(f) = tree_cons(get_identifier("leaf"), NULL_TREE, NULL_TREE);
	TREE_NOTHROW(f) = 1;	/* the runtime is C: it never throws */
	return f;
}

/* Checks one field's tree against the C struct: the same offset and size. */
static bool check_field(const char *sname, tree field, size_t c_off, size_t c_size)
{
	unsigned HOST_WIDE_INT off = int_byte_position(field);
	unsigned HOST_WIDE_INT size = tree_to_uhwi(DECL_SIZE_UNIT(field));
	if (off == c_off && size == c_size)
		return true;
	error("ipp: runtime ABI mismatch: %s.%s is at offset %wu (size %wu) in the plugin%'s "
	      "tree but at %wu (size %wu) in %<runtime/ipp_abi.h%>; the two were built from "
	      "different ABI definitions",
	      sname, IDENTIFIER_POINTER(DECL_NAME(field)), off, size, (unsigned HOST_WIDE_INT)c_off,
	      (unsigned HOST_WIDE_INT)c_size);
	return false;
}

static bool check_struct(const char *sname, tree type, size_t c_size)
{
	unsigned HOST_WIDE_INT size = tree_to_uhwi(TYPE_SIZE_UNIT(type));
	if (size == c_size)
		return true;
	error("ipp: runtime ABI mismatch: %s is %wu bytes in the plugin%'s tree but %wu in "
	      "%<runtime/ipp_abi.h%>", sname, size, (unsigned HOST_WIDE_INT)c_size);
	return false;
}

bool ipp_abi_init(void)
{
	tree fields;
	bool ok = true;

	ipp_t_ptr = ptr_type_node;
	ipp_t_cptr = const_ptr_type_node;
	ipp_t_u64 = long_long_unsigned_type_node;
	ipp_t_i32 = integer_type_node;
	ipp_t_u32 = unsigned_type_node;
	ipp_t_int = integer_type_node;
	ipp_t_unsigned = unsigned_type_node;
	ipp_t_void = void_type_node;
	ipp_t_u64_ptr = build_pointer_type(ipp_t_u64);
	ipp_t_cu64_ptr = build_pointer_type(build_qualified_type(ipp_t_u64, TYPE_QUAL_CONST));
	ABI_TYPE(FRAME) = make_node(RECORD_TYPE);
	ABI_TYPE(REGION) = make_node(RECORD_TYPE);
	ABI_TYPE(MODULE) = make_node(RECORD_TYPE);
	ABI_TYPE(ROWS) = make_node(RECORD_TYPE);
	ABI_TYPE(CALLEE) = make_node(RECORD_TYPE);
	ABI_TYPE(ENTRY) = make_node(RECORD_TYPE);
	ABI_TYPE(COPY) = make_node(RECORD_TYPE);
	ABI_TYPE(OFFSET) = make_node(RECORD_TYPE);
	ABI_TYPE(RESTART) = make_node(RECORD_TYPE);
	ABI_TYPE(SLOT) = make_node(RECORD_TYPE);
	ipp_t_frame_ptr = build_pointer_type(ABI_TYPE(FRAME));
	ipp_t_region_ptr = build_pointer_type(ABI_TYPE(REGION));
	ipp_t_module_ptr = build_pointer_type(ABI_TYPE(MODULE));
	ipp_t_rows_ptr = build_pointer_type(build_qualified_type(ABI_TYPE(ROWS), TYPE_QUAL_CONST));
	ipp_t_callee_ptr = build_pointer_type(build_qualified_type(ABI_TYPE(CALLEE), TYPE_QUAL_CONST));
	ipp_t_entry_ptr = build_pointer_type(build_qualified_type(ABI_TYPE(ENTRY), TYPE_QUAL_CONST));
	ipp_t_copy_ptr = build_pointer_type(build_qualified_type(ABI_TYPE(COPY), TYPE_QUAL_CONST));
	ipp_t_offset_ptr = build_pointer_type(build_qualified_type(ABI_TYPE(OFFSET), TYPE_QUAL_CONST));
	ipp_t_restart_ptr = build_pointer_type(build_qualified_type(ABI_TYPE(RESTART), TYPE_QUAL_CONST));
	ipp_t_slot_ptr = build_pointer_type(build_qualified_type(ABI_TYPE(SLOT), TYPE_QUAL_CONST));

	/* add_field prepends, and finish_builtin_struct reverses the chain:
	 * the fields go in in ipp_abi.def's (declaration) order. */
	fields = NULL_TREE;
#define IPP_ABI_FRAME_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(FRAME, NAME) = add_field(ABI_TYPE(FRAME), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(FRAME), "ipp_rt_frame", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_REGION_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(REGION, NAME) = add_field(ABI_TYPE(REGION), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(REGION), "ipp_rt_region", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_MODULE_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(MODULE, NAME) = add_field(ABI_TYPE(MODULE), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(MODULE), "ipp_rt_module", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_CALLEE_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(CALLEE, NAME) = add_field(ABI_TYPE(CALLEE), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(CALLEE), "ipp_rt_callee", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_ENTRY_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(ENTRY, NAME) = add_field(ABI_TYPE(ENTRY), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(ENTRY), "ipp_rt_entry", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_COPY_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(COPY, NAME) = add_field(ABI_TYPE(COPY), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(COPY), "ipp_rt_copy", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_OFFSET_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(OFFSET, NAME) = add_field(ABI_TYPE(OFFSET), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(OFFSET), "ipp_rt_offset", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_RESTART_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(RESTART, NAME) = add_field(ABI_TYPE(RESTART), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(RESTART), "ipp_rt_restart", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_SLOT_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(SLOT, NAME) = add_field(ABI_TYPE(SLOT), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(SLOT), "ipp_rt_slot", fields, NULL_TREE);

	fields = NULL_TREE;
#define IPP_ABI_ROWS_FIELD(CTYPE, TREE, NAME) \
	ABI_FIELD(ROWS, NAME) = add_field(ABI_TYPE(ROWS), #NAME, TREE, &fields);
#include "ipp_abi.def"
	finish_builtin_struct(ABI_TYPE(ROWS), "ipp_rt_rows", fields, NULL_TREE);

#define IPP_ABI_TLS(CTYPE, TREE, NAME) ABI_TLS(NAME) = tls_var(#NAME, TREE);
#include "ipp_abi.def"
	/* Volatile, like the frame: a fatal-signal handler walks the list at
	 * any instruction, so a push must neither be deleted (GCC drops the
	 * store as dead when an inlined callee's pop or a trap follows it
	 * without a call between) nor be moved before the stores that fill
	 * the frame. */
	TREE_THIS_VOLATILE(ABI_TLS(__ipp_top)) = 1;
	TREE_SIDE_EFFECTS(ABI_TLS(__ipp_top)) = 1;

/* TPARAMS is a parenthesized list, possibly empty: each parameter's tree
 * followed by a comma. */
#define IPP_ABI_EXPAND(...) __VA_ARGS__ __VA_OPT__(,)
#define IPP_ABI_FUNCTION(CRET, TRET, NAME, CPARAMS, TPARAMS) \
	ABI_FN(NAME) = rt_fn(#NAME, build_function_type_list(TRET, IPP_ABI_EXPAND TPARAMS NULL_TREE));
#include "ipp_abi.def"
#undef IPP_ABI_EXPAND

	/* glibc (2.32 and later): true while the process has one thread;
	 * false for good once glibc has created another (never reset,
	 * except in a fork child). */
	{
		tree v = build_decl(BUILTINS_LOCATION, VAR_DECL,
				    get_identifier("__libc_single_threaded"), char_type_node);
		TREE_PUBLIC(v) = 1;
		DECL_EXTERNAL(v) = 1;
		DECL_ARTIFICIAL(v) = 1;
		TREE_USED(v) = 1;
		varpool_node::get_create(v);
		ipp_abi_trees[IPP_ABI_SINGLE_THREADED] = v;
	}

	/* The layouts, field by field, against the runtime's C structs. */
	ok &= check_struct("struct ipp_rt_frame", ABI_TYPE(FRAME), sizeof(struct ipp_rt_frame));
	ok &= check_struct("struct ipp_rt_region", ABI_TYPE(REGION), sizeof(struct ipp_rt_region));
	ok &= check_struct("struct ipp_rt_module", ABI_TYPE(MODULE), sizeof(struct ipp_rt_module));
	ok &= check_struct("struct ipp_rt_rows", ABI_TYPE(ROWS), sizeof(struct ipp_rt_rows));
	ok &= check_struct("struct ipp_rt_callee", ABI_TYPE(CALLEE), sizeof(struct ipp_rt_callee));
	ok &= check_struct("struct ipp_rt_entry", ABI_TYPE(ENTRY), sizeof(struct ipp_rt_entry));
	ok &= check_struct("struct ipp_rt_copy", ABI_TYPE(COPY), sizeof(struct ipp_rt_copy));
	ok &= check_struct("struct ipp_rt_offset", ABI_TYPE(OFFSET), sizeof(struct ipp_rt_offset));
	ok &= check_struct("struct ipp_rt_restart", ABI_TYPE(RESTART), sizeof(struct ipp_rt_restart));
	ok &= check_struct("struct ipp_rt_slot", ABI_TYPE(SLOT), sizeof(struct ipp_rt_slot));
#define IPP_ABI_FRAME_FIELD(CTYPE, TREE, NAME)                                              \
	ok &= check_field("struct ipp_rt_frame", ABI_FIELD(FRAME, NAME),                    \
			  offsetof(struct ipp_rt_frame, NAME), sizeof(CTYPE));
#define IPP_ABI_REGION_FIELD(CTYPE, TREE, NAME)                                             \
	ok &= check_field("struct ipp_rt_region", ABI_FIELD(REGION, NAME),                  \
			  offsetof(struct ipp_rt_region, NAME), sizeof(CTYPE));
#define IPP_ABI_MODULE_FIELD(CTYPE, TREE, NAME)                                             \
	ok &= check_field("struct ipp_rt_module", ABI_FIELD(MODULE, NAME),                  \
			  offsetof(struct ipp_rt_module, NAME), sizeof(CTYPE));
#define IPP_ABI_ROWS_FIELD(CTYPE, TREE, NAME)                                               \
	ok &= check_field("struct ipp_rt_rows", ABI_FIELD(ROWS, NAME),                      \
			  offsetof(struct ipp_rt_rows, NAME), sizeof(CTYPE));
#define IPP_ABI_CALLEE_FIELD(CTYPE, TREE, NAME)                                             \
	ok &= check_field("struct ipp_rt_callee", ABI_FIELD(CALLEE, NAME),                  \
			  offsetof(struct ipp_rt_callee, NAME), sizeof(CTYPE));
#define IPP_ABI_ENTRY_FIELD(CTYPE, TREE, NAME)                                              \
	ok &= check_field("struct ipp_rt_entry", ABI_FIELD(ENTRY, NAME),                    \
			  offsetof(struct ipp_rt_entry, NAME), sizeof(CTYPE));
#define IPP_ABI_COPY_FIELD(CTYPE, TREE, NAME)                                               \
	ok &= check_field("struct ipp_rt_copy", ABI_FIELD(COPY, NAME),                      \
			  offsetof(struct ipp_rt_copy, NAME), sizeof(CTYPE));
#define IPP_ABI_OFFSET_FIELD(CTYPE, TREE, NAME)                                             \
	ok &= check_field("struct ipp_rt_offset", ABI_FIELD(OFFSET, NAME),                  \
			  offsetof(struct ipp_rt_offset, NAME), sizeof(CTYPE));
#define IPP_ABI_RESTART_FIELD(CTYPE, TREE, NAME)                                            \
	ok &= check_field("struct ipp_rt_restart", ABI_FIELD(RESTART, NAME),                \
			  offsetof(struct ipp_rt_restart, NAME), sizeof(CTYPE));
#define IPP_ABI_SLOT_FIELD(CTYPE, TREE, NAME)                                               \
	ok &= check_field("struct ipp_rt_slot", ABI_FIELD(SLOT, NAME),                      \
			  offsetof(struct ipp_rt_slot, NAME), sizeof(CTYPE));
#include "ipp_abi.def"
	return ok;
}

/* The address of a new static const char[] holding s.  Not a string
 * literal: GCC lays a literal's variable out when it outputs it, after the
 * pass, where -Wlarger-than would report it (pass.cc, execute_ipp). */
static tree str_var(const char *s)
{
	static unsigned count;
	char name[32];
	size_t len = strlen(s) + 1;
	tree type = build_array_type_nelts(char_type_node, len);
	tree str = build_string(len, s);

	TREE_TYPE(str) = type;
	snprintf(name, sizeof(name), "__ipp_str_%u", count++);
	return elt0_addr(static_var(name, type, str));
}

/* CONSTRUCTOR_APPEND_ELT for a field of a struct being initialized. */
#define INIT(elts, S, NAME, value) CONSTRUCTOR_APPEND_ELT(elts, ABI_FIELD(S, NAME), value)

void ipp_abi_module_data(const ipp_fin *fin, const char *module, const char *checksum)
{
	size_t nr = ipp_fin_nregions(fin);
	char name[64];
	tree region_type = ABI_TYPE(REGION), module_type = ABI_TYPE(MODULE);
	tree arr_type = build_array_type(region_type, build_index_type(size_int(nr ? nr - 1 : 0)));
	tree regions_var, module_var;
	vec<constructor_elt, va_gc> *elts = NULL, *me = NULL;
	mpz_t t;

	snprintf(name, sizeof(name), "__ipp_regions_%s", checksum);
	regions_var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), arr_type);
	snprintf(name, sizeof(name), "__ipp_module_%s", checksum);
	module_var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), module_type);
	ipp_abi_trees[IPP_ABI_REGIONS_VAR] = regions_var;
	ipp_abi_trees[IPP_ABI_MODULE_VAR] = module_var;
	tree both[2] = { regions_var, module_var };
	for (int k = 0; k < 2; k++) {
		tree v = both[k];
		TREE_STATIC(v) = 1;
		TREE_PUBLIC(v) = 0;
		DECL_ARTIFICIAL(v) = 1;
		TREE_USED(v) = 1;
		TREE_ADDRESSABLE(v) = 1;
	}

	/* The single-threaded counters of the array regions, one .bss array
	 * for the unit: region r's at gc_offset[r]. */
	uint64_t total = 0;
	mpz_init(t);
	gc_offset = XRESIZEVEC(uint64_t, gc_offset, nr ? nr : 1);
	gc_first = IPP_NONE;
	hslot_of = XRESIZEVEC(unsigned, hslot_of, nr ? nr : 1);
	nhslots = 1;
	for (size_t r = 0; r < nr; r++) {
		ipp_fin_region_total(fin, (ipp_id)r, t);
		gc_offset[r] = mpz_cmp_ui(t, IPP_ARRAY_MAX) <= 0 ? total : UINT64_MAX;
		if (gc_offset[r] == 0 && gc_first == IPP_NONE)
			gc_first = (ipp_id)r;
		hslot_of[r] = gc_offset[r] == UINT64_MAX ? nhslots++ : 0;
		if (gc_offset[r] != UINT64_MAX)
			total += mpz_get_ui(t);
	}
	ipp_abi_trees[IPP_ABI_GCOUNTS_VAR] = NULL_TREE;
	ipp_abi_trees[IPP_ABI_ARC_NONE_VAR] = NULL_TREE;
	ipp_abi_trees[IPP_ABI_HSLOTS_VAR] = NULL_TREE;
	ipp_abi_trees[IPP_ABI_TCOUNTS_VAR] = NULL_TREE;
	arc_caches.release();
	if (total) {
		tree gtype = build_array_type(ipp_t_u64, build_index_type(size_int(total - 1)));
		tree gv;
		snprintf(name, sizeof(name), "__ipp_gcounts_%s", checksum);
		gv = static_var(name, gtype, NULL_TREE);
		ipp_abi_trees[IPP_ABI_GCOUNTS_VAR] = gv;
	}

	/* Fields not initialized here are zero (runtime-private). */
	for (size_t r = 0; r < nr; r++) {
		ipp_region_info ri;
		vec<constructor_elt, va_gc> *fe = NULL;
		ipp_fin_region(fin, (ipp_id)r, &ri);
		ipp_fin_region_total(fin, (ipp_id)r, t);
		INIT(fe, REGION, name, str_var(ri.name));
		INIT(fe, REGION, npaths, build_int_cstu(ipp_t_u64, mpz_get_ui(t)));
		INIT(fe, REGION, module, build_fold_addr_expr(module_var));
		if (gc_offset[r] != UINT64_MAX)
			INIT(fe, REGION, gcounts, ipp_abi_region_gcounts((ipp_id)r));
		if (hslot_of[r])
			INIT(fe, REGION, hslot, build_int_cstu(ipp_t_u64, hslot_of[r]));
		CONSTRUCTOR_APPEND_ELT(elts, size_int(r), build_constructor(region_type, fe));
	}
	mpz_clear(t);
	DECL_INITIAL(regions_var) = build_constructor(arr_type, elts);

	INIT(me, MODULE, abi_version, build_int_cst(ipp_t_u32, IPP_ABI_VERSION));
	INIT(me, MODULE, nregions, build_int_cst(ipp_t_u32, nr));
	INIT(me, MODULE, name, str_var(module));
	INIT(me, MODULE, checksum, str_var(checksum));
	INIT(me, MODULE, mode, str_var(ipp_mode_name(ipp_fin_mode(fin))));
	INIT(me, MODULE, regions, fold_convert(ipp_t_region_ptr, build_fold_addr_expr(regions_var)));
	/* the callees table comes last (ipp_abi_module_callees) */
	module_init = me;
	varpool_node::finalize_decl(regions_var);
}

static int cmp_site(const void *a, const void *b)
{
	const struct ipp_callee_site *x = (const struct ipp_callee_site *)a;
	const struct ipp_callee_site *y = (const struct ipp_callee_site *)b;
	return (x->call > y->call) - (x->call < y->call);
}

void ipp_abi_module_callees(struct ipp_callee_site *sites, size_t n, const char *checksum)
{
	tree module_var = ipp_abi_trees[IPP_ABI_MODULE_VAR];
	vec<constructor_elt, va_gc> *me = module_init;
	if (n) {
		vec<constructor_elt, va_gc> *elts = NULL;
		tree var;
		qsort(sites, n, sizeof(sites[0]), cmp_site);
		for (size_t i = 0; i < n; i++) {
			vec<constructor_elt, va_gc> *fe = NULL;
			INIT(fe, CALLEE, call, build_int_cst(ipp_t_i32, sites[i].call));
			INIT(fe, CALLEE, entry, build_int_cst(ipp_t_i32, sites[i].entry));
			if (sites[i].fresh_region != IPP_NONE)
				INIT(fe, CALLEE, fresh, ipp_abi_region_addr(sites[i].fresh_region));
			CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_constructor(ABI_TYPE(CALLEE), fe));
		}
		var = table_var(ABI_TYPE(CALLEE), elts, n, "callees", checksum);
		INIT(me, MODULE, ncallees, build_int_cst(ipp_t_u32, n));
		INIT(me, MODULE, callees, elt0_addr(var));
	}
	/* in the fields' order (a CONSTRUCTOR lists them in order) */
	if (entries_var)
		INIT(me, MODULE, nentries, build_int_cst(ipp_t_u32, nentries));
	if (copies_var)
		INIT(me, MODULE, ncopies, build_int_cst(ipp_t_u32, ncopies));
	if (entries_var)
		INIT(me, MODULE, entries,
		     elt0_addr(entries_var));
	if (copies_var)
		INIT(me, MODULE, copies,
		     elt0_addr(copies_var));
	if (offsets_var) {
		INIT(me, MODULE, noffsets, build_int_cst(ipp_t_u32, noffsets));
		INIT(me, MODULE, offsets,
		     elt0_addr(offsets_var));
	}
	if (restarts_var) {
		INIT(me, MODULE, nrestarts, build_int_cst(ipp_t_u32, nrestarts));
		INIT(me, MODULE, restarts,
		     elt0_addr(restarts_var));
	}
	if (slots_var) {
		INIT(me, MODULE, nslots, build_int_cst(ipp_t_u32, nslots));
		INIT(me, MODULE, slots, elt0_addr(slots_var));
	}
	entries_var = copies_var = offsets_var = restarts_var = slots_var = NULL_TREE;
	nentries = ncopies = noffsets = nrestarts = nslots = 0;
	DECL_INITIAL(module_var) = build_constructor(ABI_TYPE(MODULE), me);
	varpool_node::finalize_decl(module_var);
	module_init = NULL;
}

uint64_t ipp_abi_region_goffset(ipp_id r)
{
	return ipp_abi_trees[IPP_ABI_GCOUNTS_VAR] ? gc_offset[r] : UINT64_MAX;
}

tree ipp_abi_region_gcounts(ipp_id r)
{
	tree gv = ipp_abi_trees[IPP_ABI_GCOUNTS_VAR];
	if (!gv || gc_offset[r] == UINT64_MAX)
		return NULL_TREE;
	return build_fold_addr_expr(build4(ARRAY_REF, ipp_t_u64, gv, size_int(gc_offset[r]),
					   NULL_TREE, NULL_TREE));
}

void ipp_abi_register_ctor(void)
{
	tree body = NULL_TREE;
	append_to_statement_list(build_call_expr(ABI_FN(__ipp_register), 1,
						 build_fold_addr_expr(ipp_abi_trees[IPP_ABI_MODULE_VAR])),
				 &body);
	/* as gcov's constructor: the last reserved priority, before every
	 * user constructor */
	cgraph_build_static_cdtor('I', body, MAX_RESERVED_INIT_PRIORITY);
}

tree ipp_abi_frame_head(tree reg, int vertex, unsigned flags)
{
	static unsigned count;
	tree rf = ABI_FIELD(FRAME, region), vf = ABI_FIELD(FRAME, vertex);
	tree ff = ABI_FIELD(FRAME, flags), type = ABI_TYPE(HEAD), fields, f, init;
	vec<constructor_elt, va_gc> *elts = NULL;
	char name[48];
	if (BYTES_BIG_ENDIAN || int_size_in_bytes(TREE_TYPE(rf)) != 8 ||
	    int_byte_position(vf) != int_byte_position(rf) + 8 ||
	    int_byte_position(ff) != int_byte_position(vf) + 4)
		return NULL_TREE;
	if (!type) {
		type = ABI_TYPE(HEAD) = make_node(RECORD_TYPE);
		fields = NULL_TREE;
		add_field(type, "region", ipp_t_region_ptr, &fields);
		add_field(type, "vertex_flags", ipp_t_u64, &fields);
		finish_builtin_struct(type, "ipp_frame_head", fields, NULL_TREE);
	}
	f = TYPE_FIELDS(type);
	CONSTRUCTOR_APPEND_ELT(elts, f, unshare_expr(reg));
	CONSTRUCTOR_APPEND_ELT(elts, DECL_CHAIN(f),
			       build_int_cstu(ipp_t_u64, (uint64_t)(uint32_t)vertex |
							 (uint64_t)flags << 32));
	init = build_constructor(type, elts);
	snprintf(name, sizeof(name), "__ipp_head_%u", count++);
	return static_var(name, type, init);
}

tree ipp_abi_region_addr(ipp_id r)
{
	tree regions_var = ipp_abi_trees[IPP_ABI_REGIONS_VAR];
	tree ref = build4(ARRAY_REF, ABI_TYPE(REGION), regions_var, size_int(r), NULL_TREE,
			  NULL_TREE);
	return build_fold_addr_expr(ref);
}

/* static __thread TYPE NAME = INIT;  -- one of the unit's own
 * thread-locals, in the TLS model of the runtime's (tls_var). */
static tree tls_static_var(const char *name, tree type, tree init)
{
	tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
	TREE_STATIC(v) = 1;
	TREE_PUBLIC(v) = 0;
	DECL_ARTIFICIAL(v) = 1;
	TREE_USED(v) = 1;
	TREE_ADDRESSABLE(v) = 1;
	DECL_INITIAL(v) = init;
	set_decl_tls_model(v, flag_shlib ? decl_default_tls_model(v) : TLS_MODEL_LOCAL_EXEC);
	varpool_node::finalize_decl(v);
	return v;
}

/* A static const uint64_t array with the given values. */
static tree u64_array(const char *name, const uint64_t *v, uint64_t n)
{
	tree elt = build_qualified_type(ipp_t_u64, TYPE_QUAL_CONST);
	tree type = build_array_type(elt, build_index_type(size_int(n - 1)));
	vec<constructor_elt, va_gc> *elts = NULL;
	for (uint64_t i = 0; i < n; i++)
		CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_int_cstu(ipp_t_u64, v[i]));
	return static_var(name, type, build_constructor(type, elts));
}

tree ipp_abi_rows(const ipp_local *l, const char *checksum, ipp_id proc, tree *a_out, tree *b_out)
{
	uint64_t n = ipp_local_nentry(l);
	uint64_t *a = XNEWVEC(uint64_t, n), *b = XNEWVEC(uint64_t, n);
	char name[96];
	tree av, bv, var;
	vec<constructor_elt, va_gc> *fe = NULL;
	mpz_t ma, mb;

	mpz_inits(ma, mb, NULL);
	for (uint64_t i = 0; i < n; i++) {
		ipp_local_ab(l, i, ma, mb);
		gcc_assert(mpz_sizeinbase(ma, 2) <= 64 && mpz_sizeinbase(mb, 2) <= 64);
		a[i] = mpz_get_ui(ma);
		b[i] = mpz_get_ui(mb);
	}
	mpz_clears(ma, mb, NULL);
	snprintf(name, sizeof(name), "__ipp_rows_a_%s_%d", checksum, (int)proc);
	av = u64_array(name, a, n);
	snprintf(name, sizeof(name), "__ipp_rows_b_%s_%d", checksum, (int)proc);
	bv = u64_array(name, b, n);
	XDELETEVEC(a);
	XDELETEVEC(b);
	*a_out = av;
	*b_out = bv;

	snprintf(name, sizeof(name), "__ipp_rows_%s_%d", checksum, (int)proc);
	INIT(fe, ROWS, n, build_int_cstu(ipp_t_u64, n));
	INIT(fe, ROWS, a, elt0_addr(av));
	INIT(fe, ROWS, b, elt0_addr(bv));
	var = static_var(name, ABI_TYPE(ROWS), build_constructor(ABI_TYPE(ROWS), fe));
	/* read-only data; its address is a GIMPLE invariant, as the call
	 * argument needs (a conversion would not be one) */
	return build_fold_addr_expr(var);
}

/* The unit's constant for the arc caches, made at the first cache: an arc
 * whose target is IPP_ARC_TARGET_NONE, no function's address. */
static tree arc_none(const char *checksum)
{
	char name[64];
	uint64_t arc[sizeof(struct ipp_rt_arc) / 8];

	if (!ipp_abi_trees[IPP_ABI_ARC_NONE_VAR]) {
		memset(arc, 0, sizeof(arc));
		arc[offsetof(struct ipp_rt_arc, target) / 8] = (uint64_t)(uintptr_t)IPP_ARC_TARGET_NONE;
		snprintf(name, sizeof(name), "__ipp_arc_none_%s", checksum);
		ipp_abi_trees[IPP_ABI_ARC_NONE_VAR] = u64_array(name, arc, sizeof(arc) / 8);
	}
	return elt0_addr(ipp_abi_trees[IPP_ABI_ARC_NONE_VAR]);
}

unsigned ipp_abi_region_hslot(ipp_id r)
{
	return hslot_of[r];
}

/* The table of a thread that has none in the unit's slots: struct
 * ipp_rt_htab { cap 2, used 0, shift 63, three empty entries }, so a
 * probe reads e[0] or e[1] and finds no key. */
tree ipp_abi_hslots(const char *checksum)
{
	char name[64];
	tree none, type, v;
	uint64_t empty[3 + 2 * 3] = { 2, 0, 63 };
	vec<constructor_elt, va_gc> *elts = NULL;

	if (ipp_abi_trees[IPP_ABI_HSLOTS_VAR])
		return ipp_abi_trees[IPP_ABI_HSLOTS_VAR];
	gcc_checking_assert(offsetof(struct ipp_rt_htab, e) == 3 * 8 &&
			    sizeof(struct ipp_rt_hent) == 2 * 8);
	snprintf(name, sizeof(name), "__ipp_hnone_%s", checksum);
	none = fold_convert(ptr_type_node, elt0_addr(u64_array(name, empty, 9)));
	snprintf(name, sizeof(name), "__ipp_hslots_%s", checksum);
	type = build_array_type(ptr_type_node, build_index_type(size_int(nhslots - 1)));
	for (unsigned k = 0; k < nhslots; k++)
		CONSTRUCTOR_APPEND_ELT(elts, size_int(k), none);
	v = tls_static_var(name, type, build_constructor(type, elts));
	ipp_abi_trees[IPP_ABI_HSLOTS_VAR] = v;
	return v;
}

/* Code for an executable, of a unit with array regions: it has the
 * thread-local below. */
bool ipp_abi_tcounts_ok(void)
{
	return !flag_shlib && ipp_abi_trees[IPP_ABI_GCOUNTS_VAR];
}

/* static __thread uint64_t *__ipp_tcounts_<checksum>: the calling
 * thread's counters of the unit (the counters of its first array region,
 * *first, which gcounts lays out at offset 0), NULL until the thread's
 * first __ipp_counts_tls for the unit stores them (ipp_abi.h).  Only in
 * code for an executable, whose thread-locals are one %fs-relative load
 * away (local-exec): a shared object keeps the select on
 * __libc_single_threaded, whose thread-locals may need __tls_get_addr.
 * NULL_TREE where there is none. */
tree ipp_abi_tcounts(const char *checksum, ipp_id *first)
{
	char name[64];
	if (!ipp_abi_tcounts_ok())
		return NULL_TREE;
	*first = gc_first;
	if (!ipp_abi_trees[IPP_ABI_TCOUNTS_VAR]) {
		snprintf(name, sizeof(name), "__ipp_tcounts_%s", checksum);
		ipp_abi_trees[IPP_ABI_TCOUNTS_VAR] =
			tls_static_var(name, build_pointer_type(ipp_t_u64), NULL_TREE);
	}
	return ipp_abi_trees[IPP_ABI_TCOUNTS_VAR];
}

tree ipp_abi_arc_cache(const char *checksum, ipp_id site)
{
	char name[96];
	tree none = arc_none(checksum), v;

	if ((unsigned)site < arc_caches.length() && arc_caches[site])
		return arc_caches[site];
	snprintf(name, sizeof(name), "__ipp_arc_cache_%s_%d", checksum, (int)site);
	tree type = build_array_type(TREE_TYPE(none), build_index_type(size_int(1)));
	vec<constructor_elt, va_gc> *elts = NULL;
	for (int k = 0; k < 2; k++)
		CONSTRUCTOR_APPEND_ELT(elts, size_int(k), none);
	v = tls_static_var(name, type, build_constructor(type, elts));
	if ((unsigned)site >= arc_caches.length())
		arc_caches.safe_grow_cleared(site + 1);
	arc_caches[site] = v;
	return v;
}

void ipp_abi_module_entries(const struct ipp_entry *e, size_t n, const char *checksum)
{
	vec<constructor_elt, va_gc> *elts = NULL;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		vec<constructor_elt, va_gc> *fe = NULL;
		INIT(fe, ENTRY, fn, fold_convert(ipp_t_cptr, build_fold_addr_expr(e[i].decl)));
		INIT(fe, ENTRY, region, ipp_abi_region_addr(e[i].region));
		CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_constructor(ABI_TYPE(ENTRY), fe));
	}
	entries_var = table_var(ABI_TYPE(ENTRY), elts, n, "entries", checksum);
	nentries = n;
}

void ipp_abi_module_offsets(const struct ipp_offset_run *runs, size_t n, const char *checksum)
{
	vec<constructor_elt, va_gc> *elts = NULL;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		vec<constructor_elt, va_gc> *fe = NULL;
		gcc_assert(runs[i].first <= runs[i].last &&
			   (i == 0 || runs[i].first > runs[i - 1].last));
		INIT(fe, OFFSET, first, build_int_cst(ipp_t_i32, runs[i].first));
		INIT(fe, OFFSET, last, build_int_cst(ipp_t_i32, runs[i].last));
		INIT(fe, OFFSET, offset, build_int_cstu(ipp_t_u64, runs[i].offset));
		CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_constructor(ABI_TYPE(OFFSET), fe));
	}
	offsets_var = table_var(ABI_TYPE(OFFSET), elts, n, "offsets", checksum);
	noffsets = n;
}

void ipp_abi_module_restarts(const struct ipp_restart_point *pts, size_t n, const char *checksum)
{
	vec<constructor_elt, va_gc> *elts = NULL;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		vec<constructor_elt, va_gc> *fe = NULL;
		gcc_assert(i == 0 || pts[i].vertex > pts[i - 1].vertex);
		INIT(fe, RESTART, vertex, build_int_cst(ipp_t_i32, pts[i].vertex));
		INIT(fe, RESTART, reserved, build_int_cst(ipp_t_u32, 0));
		INIT(fe, RESTART, number, build_int_cstu(ipp_t_u64, pts[i].number));
		CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_constructor(ABI_TYPE(RESTART), fe));
	}
	restarts_var = table_var(ABI_TYPE(RESTART), elts, n, "restarts", checksum);
	nrestarts = n;
}

void ipp_abi_module_slots(const struct ipp_slot_point *pts, size_t n, const char *checksum)
{
	vec<constructor_elt, va_gc> *elts = NULL;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		vec<constructor_elt, va_gc> *fe = NULL;
		gcc_assert(i == 0 || pts[i].call > pts[i - 1].call);
		gcc_assert(pts[i].slot >= 1 && pts[i].slot <= IPP_FRAME_SLOT_MAX);
		INIT(fe, SLOT, call, build_int_cst(ipp_t_i32, pts[i].call));
		INIT(fe, SLOT, slot, build_int_cst(ipp_t_u32, pts[i].slot));
		INIT(fe, SLOT, region, ipp_abi_region_addr(pts[i].region));
		CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_constructor(ABI_TYPE(SLOT), fe));
	}
	slots_var = table_var(ABI_TYPE(SLOT), elts, n, "slots", checksum);
	nslots = n;
}

void ipp_abi_module_copies(const struct ipp_copy_run *runs, size_t n, const char *checksum)
{
	vec<constructor_elt, va_gc> *elts = NULL;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		vec<constructor_elt, va_gc> *fe = NULL;
		INIT(fe, COPY, first, build_int_cst(ipp_t_i32, runs[i].first));
		INIT(fe, COPY, last, build_int_cst(ipp_t_i32, runs[i].last));
		INIT(fe, COPY, call, build_int_cst(ipp_t_i32, runs[i].call));
		CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_constructor(ABI_TYPE(COPY), fe));
	}
	copies_var = table_var(ABI_TYPE(COPY), elts, n, "copies", checksum);
	ncopies = n;
}
