/* longjmp out of nested calls.  n = 1: mid(1) returns; n = 2: thrower(3)
 * longjmps out of mid's second call; n = 3: out of mid's first call.
 * intra: thrower returns 3 times (x = 1, 2, 2) and longjmps twice; mid
 * completes once and is abandoned twice (at different calls); main
 * completes twice (the first iteration from the entry, and the last path,
 * from the setjmp restart to the return) and is abandoned twice.
 * context: mid and thrower are static, on main's paths: iteration n = 1
 * from the entry; n = 2 from the header, ending at the longjmp in thrower;
 * n = 3 from the setjmp restart, ending at the longjmp; the last path from
 * the restart to the return: 4 paths, no partial path (each longjmp ends a
 * recorded path).
 * At -O2 mid's second call, thrower(x + 1), is a tail call (docs/
 * PROTOCOL.md, "Tail calls"): mid records its path (intra) or hands its
 * number back (context) before it.
 * intra: mid completes twice (n = 1, and n = 2 before thrower(3)
 * longjmps) and is abandoned once (n = 3, at its first call); thrower and
 * main as at -O0.
 * context: mid makes a tail call, so it starts fresh paths (main's calls
 * of it are summarized) and main's paths are intra mode's: 1, 1 complete,
 * 1, 1 partial.  mid's first call, thrower(x), is followed: mid's path
 * through thrower returning (n = 1, 2: one path, 2) and the one ending at
 * thrower(3)'s longjmp (n = 3): 2, 1.  thrower is called from the tail
 * site, fresh: thrower(2) returns (n = 1), thrower(3) longjmps (n = 2).
 *
 * ipp-expect intra@-O2 thrower: 3 2
 * ipp-expect intra@-O2 mid: 2
 * ipp-expect intra@-O2 main: 1 1
 * ipp-expect-partial intra@-O2 mid: 1
 * ipp-expect-partial intra@-O2 main: 1 1
 * ipp-expect context@-O2 main: 1 1
 * ipp-expect-partial context@-O2 main: 1 1
 * ipp-expect context@-O2 mid: 2 1
 * ipp-expect context@-O2 thrower: 1 1
 *
 * ipp-expect intra thrower: 3 2
 * ipp-expect intra mid: 1
 * ipp-expect intra main: 1 1
 * ipp-expect-partial intra mid: 1 1
 * ipp-expect-partial intra main: 1 1
 * ipp-expect context main: 1 1 1 1
 * ipp-expect-partial context main:
 */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf jb;
static int depth;

static void thrower(int x)
{
	if (x > 2)
		longjmp(jb, x);
	depth++;
}

static void mid(int x)
{
	thrower(x);
	thrower(x + 1);
}

int main(void)
{
	volatile int n = 0;
	int r = setjmp(jb);
	if (r)
		printf("caught %d\n", r);
	while (n < 3) {
		n++;
		mid(n);
	}
	printf("depth %d n %d\n", depth, n);
	return 0;
}
