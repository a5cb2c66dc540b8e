/* A fault right after a continuing callee returned (context mode): spin()
 * is static and continues main's path, and its loop restarts that path
 * (the back edge records main's path so far); main then faults without
 * another call.  The frame's checkpoint is spin's return site, on the path
 * spin restarted, not main's call vertex on the path already recorded.
 *
 * ipp-end: signal SEGV
 * ipp-entries: spin 2, main 1
 * ipp-calls: main -> spin 2
 */
static volatile int *volatile bad;
volatile int sink;

static int spin(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i;
	return s;
}

int main(void)
{
	int s = spin(3);
	sink = s;
	s += spin(5);
	if (s > 0)
		s += *bad;
	return s & 1;
}
