/* SIGILL from __builtin_trap() (a dead end: the path is recorded before
 * the trap) two calls deep, after a loop: main -> check(5) -> fail().
 *
 * ipp-end: signal ILL
 * ipp-entries: fail 1, check 1, main 1
 * ipp-calls: check -> fail 1, main -> check 1
 */
volatile int sink;

__attribute__((noinline)) void fail(void)
{
	sink = 1;
	__builtin_trap();
}

__attribute__((noinline)) int check(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i;
	if (s == 10)
		fail();
	return s;
}

int main(void)
{
	return check(5) & 1;
}
