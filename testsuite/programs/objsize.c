/* __builtin_object_size in a continuing clone (context mode).  pick() is
 * externally visible and called once, with x = 6: in the plain build GCC
 * cannot assume its callers (-fipa-cp-clone is off at -O2), so
 * __builtin_object_size (r, 1) is the maximum over both branches: 9 bytes
 * after &w[2].a[1], not the 4 after &a.a[6].  main's call enters pick's
 * continuing clone, which is local; unless clone.cc keeps it as unknown to
 * IPA as the original, IPA-CP specializes it for x = 6 and it answers 4
 * (gcc.dg/builtin-object-size-1..4.c aborted so).  run.sh compares the
 * output with the plain build's at -O0 and -O2: 9, then 168 160 40 at
 * -O2.
 *
 * ipp-expect intra pick: 1
 * ipp-expect intra span: 3
 * ipp-expect intra main: 1
 * ipp-expect context main: 1
 */
#include <stddef.h>
#include <stdio.h>

struct A {
	char a[10];
	int b;
	char c[10];
} w[4];

__attribute__((noinline)) size_t pick(int x)
{
	struct A a;
	char *r;
	if (x < 6)
		r = &w[2].a[1];
	else
		r = &a.a[6];
	return __builtin_object_size(r, 1);
}

/* The size of what p points to, from the access attribute: n ints.
 * Called with three sizes, it is specialized in no build; but its clone
 * took three constant parameters more, IPA-CP versioned it to remove
 * them, and the version, without its unused n, lost the attribute:
 * __builtin_dynamic_object_size answered (size_t) -1
 * (gcc.dg/builtin-dynamic-object-size-0.c). */
__attribute__((noinline, access(read_write, 1, 2))) size_t span(int *p, size_t n)
{
	return __builtin_dynamic_object_size(p, 0);
}

int main(void)
{
	int arr[42];
	printf("%zu\n", pick(6));
	printf("%zu %zu %zu\n", span(arr, 42), span(arr, 40), span(arr, 10));
	return 0;
}
