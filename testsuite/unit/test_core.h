/* test_core.h -- suites of the test_core program. */
#ifndef IPP_TEST_CORE_H
#define IPP_TEST_CORE_H
void register_paper_tests(void);
void register_big_tests(void);
#endif
