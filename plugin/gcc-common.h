/* gcc-common.h -- every GCC header the plugin needs, in one place, and the
 * glue that differs between GCC versions (in the spirit of the Linux
 * kernel's scripts/gcc-plugins/gcc-common.h).  Only GCC 12 is supported
 * and tested today; the rest of the plugin uses the names below, never a
 * version-specific GCC interface, so a new major version gets its #if
 * blocks here and nowhere else.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#ifndef IPP_GCC_COMMON_H
#define IPP_GCC_COMMON_H

#include "gcc-plugin.h"
#include "plugin-version.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "cgraph.h"
#include "gimple-iterator.h"
#include "gimple-pretty-print.h"
#include "tree-cfg.h"
#include "tree-into-ssa.h"
#include "cfganal.h"
#include "stringpool.h"
#include "attribs.h"
#include "varasm.h"
#include "stor-layout.h"
#include "output.h"
#include "diagnostic-core.h"
#include "toplev.h"
#include "langhooks.h"
#include "tree-nested.h"
#include "fold-const.h"
#include "calls.h"
#include "except.h"
#include "context.h"
#include "version.h"
#include "gimplify.h"
#include "ggc.h"
#include "tree-inline.h"
#include "tree-dfa.h"
#include "cfgloop.h"
#include "tree-iterator.h"
/* the inliner's summaries (sizes.cc), in the order GCC's own files include them */
#include "alloc-pool.h"
#include "symbol-summary.h"
#include "sreal.h"
#include "ipa-prop.h"
#include "ipa-fnsummary.h"

#if GCCPLUGIN_VERSION_MAJOR < 12
#error "ipp needs GCC 12 or later"
#endif
#if GCCPLUGIN_VERSION_MAJOR != 12
#warning "ipp is developed and tested with GCC 12 only"
#endif

/* The last statement of a basic block that is not a debug statement, or
 * NULL.  GCC 14 removed last_stmt(); its replacement is
 * last_nondebug_stmt() (GCC 13 has both). */
#if GCCPLUGIN_VERSION_MAJOR >= 14
#define ipp_last_stmt(bb) last_nondebug_stmt(bb)
#else
#define ipp_last_stmt(bb) last_stmt(bb)
#endif

/* Does the target run __ipp_counts_keep's inline-asm call (ipp_abi.h):
 * x86-64, LP64, a code model whose GOT the code reaches with a 32-bit
 * offset?  Target macros of the i386 back end; elsewhere, never. */
#if defined(TARGET_64BIT) && defined(TARGET_LP64) && defined(OPTION_MASK_ISA_64BIT)
#define ipp_counts_keep_ok() \
	(TARGET_64BIT && TARGET_LP64 && ix86_cmodel != CM_LARGE && ix86_cmodel != CM_LARGE_PIC)
#else
#define ipp_counts_keep_ok() false
#endif

#endif
