/* A fault in the second of two calls of one basic block: main calls
 * work(i) for i = 0..4; work takes one of two arms (odd i call pick_a),
 * then, in the block where the arms meet, calls note() and boom(): two
 * checkpoints of one block, with the return site's between them.  (A
 * checkpoint before boom() that stored only its vertex would do: nothing
 * between the calls changes the number.  Measured on SQLite, it saved
 * 70k of 195M instructions, and was not kept.)
 * boom(2) faults; work's pending path must be the even arm's, so the
 * calls derived from the profile count work -> pick_a once (i = 1).  (A
 * checkpoint that kept the number from work's entry instead made it
 * twice, and a profile `ipp check` rejects, in intra mode.)
 *
 * ipp-end: signal SEGV
 * ipp-entries: work 3, pick_a 1, note 3, boom 3, main 1
 * ipp-calls: main -> work 3, work -> pick_a 1, work -> note 3, work -> boom 3
 */
#include <stdio.h>

static volatile int *volatile bad;
volatile int sink;

__attribute__((noinline)) int pick_a(int i)
{
	return i * 3;
}

__attribute__((noinline)) void note(int v)
{
	sink += v;
}

__attribute__((noinline)) void boom(int v)
{
	if (v == 2)
		sink += *bad;
	sink += v;
}

__attribute__((noinline)) int work(int i)
{
	int s;
	if (i & 1)
		s = pick_a(i);
	else
		s = i + 7;
	note(s);
	boom(i);
	return s;
}

int main(void)
{
	int t = 0;
	for (int i = 0; i < 5; i++)
		t += work(i);
	printf("%d\n", t);
	return t & 1;
}
