/* knr_args.c -- calls to unprototyped definitions with other arguments
 * than the definition declares (C allows it; torture 921202-1.c and
 * 921208-2.c do it).
 *
 * A continuing call (context mode) passes the path state after the
 * program's arguments, and the callee's clone takes it after its declared
 * parameters: with g() called as g(1.0, i) the clone read the path number
 * from i's register, and the program crashed or recorded path numbers
 * beyond their region (counts lost).  Such calls are summarized now
 * (plugin/supergraph.cc, call_matches_params).  h(i, 300) still
 * continues: its K&R char parameter is passed as an int, as the call
 * passes 300 (and a prototyped u8 or u16 parameter is too: SQLite has
 * hundreds of such calls).  The arcs below are the calls the loop makes:
 * g 5 + 2 times, h 5 times.
 *
 * main's paths: the entry through i = 0 (1), the loop's iterations with
 * the odd-i call of g() (i = 1, 3: 2) and without (i = 2, 4: 2), the exit
 * (1).  In context mode g's region counts the 5 summarized calls (the
 * other 2 continue main's paths; h always does); a first version of the
 * fix summarized them with no callee, and g's original went
 * uninstrumented (no Entry region): those 5 paths were lost.
 *
 * ipp-expect intra main: 2 2 1 1
 * ipp-expect intra g: 7
 * ipp-expect intra h: 5
 * ipp-expect context main: 2 2 1 1
 * ipp-expect context g: 5
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
