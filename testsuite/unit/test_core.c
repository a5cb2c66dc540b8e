/* test_core.c -- CUnit driver for the numbering core's directed tests
 * (the paper's figures, numbers past 64 bits, cuts).  Exits non-zero if any
 * assertion fails or the registry cannot be set up.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include <CUnit/Basic.h>
#include "test_core.h"

int main(void)
{
	unsigned failures;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	register_paper_tests();
	register_big_tests();
	CU_basic_set_mode(CU_BRM_VERBOSE);
	if (CU_basic_run_tests() != CUE_SUCCESS) {
		CU_cleanup_registry();
		return 2;
	}
	failures = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
