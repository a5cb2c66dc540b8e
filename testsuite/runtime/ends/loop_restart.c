/* A fault in a loop body after several back edges: scan() reads
 * through p[i] for i = 0, 1, 2, 3 and p[3] is null.  Its paths of
 * iterations 0-2 are recorded at the back edge; the path of iteration 3
 * starts at the loop header (a restart: the frame's checkpoint), calls
 * note() (a summarized call: the checkpoint moves to it) and faults.
 *
 * ipp-end: signal SEGV
 * ipp-entries: note 4, scan 1, main 1
 * ipp-calls: scan -> note 4, main -> scan 1
 */
#include <stddef.h>

static int a = 1, b = 2, c = 3;
static volatile int *p[4] = { &a, &b, &c, NULL };
volatile int sink;

__attribute__((noinline)) void note(int i)
{
	sink = i;
}

__attribute__((noinline)) int scan(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		note(i);
		if (i & 1)
			s += 2;
		s += *p[i];
	}
	return s;
}

int main(void)
{
	return scan(4) & 1;
}
