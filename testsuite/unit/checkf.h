/* checkf.h -- CHECKF, CU_ASSERT with a message printed when it fails,
 * for the unit tests that check many generated cases (test_props,
 * test_derive, test_decode64): the message names the case to reproduce.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_TEST_CHECKF_H
#define IPP_TEST_CHECKF_H

#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>

/* The message's arguments are evaluated only when cond is false. */
#define CHECKF(cond, ...)                                                     \
	do {                                                                  \
		bool ok_ = (cond);                                            \
		if (!ok_) {                                                   \
			printf("\nFAIL ");                                    \
			printf(__VA_ARGS__);                                  \
			printf("\n");                                         \
		}                                                             \
		CU_ASSERT(ok_);                                               \
	} while (0)

#endif /* IPP_TEST_CHECKF_H */
