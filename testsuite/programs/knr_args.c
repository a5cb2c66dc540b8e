/* knr_args.c -- calls to unprototyped definitions with other arguments
 * than the definition declares (C allows it; torture 921202-1.c and
 * 921208-2.c do it).
 *
 * A continuing call (context mode) passes the path state after the
 * program's arguments, and the callee's clone takes it after its declared
 * parameters: with g() called as g(1.0, i) the clone read the path number
 * from i's register, and the program crashed or recorded path numbers
 * beyond their region (counts lost).  Such calls are summarized now
 * (plugin/supergraph.cc, call_matches_params); h(i, 300), whose char
 * parameter gets an int, too.  The arcs below are the calls the loop
 * makes: g 5 + 2 times, h 5 times.
 *
 * ipp-expect-arc intra: main -> g 7
 * ipp-expect-arc intra: main -> h 5
 * ipp-expect-arc intra: main -> printf 1
 * ipp-expect-arc context: main -> g 7
 * ipp-expect-arc context: main -> h 5
 * ipp-expect-arc context: main -> printf 1
 * ipp-cflags: -w
 */
#include <stdio.h>

static int g();

static int h(a, b)
	int a;
	char b;
{
	return a + b;
}

static int g()
{
	static int n;
	return ++n;
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 5; i++) {
		s += g(1.0, i);
		s += h(i, 300);
		if (i & 1)
			s += g();
	}
	printf("%d\n", s);
	return 0;
}
