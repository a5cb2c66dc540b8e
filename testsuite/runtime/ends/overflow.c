/* A stack overflow: deep() recurses without end (its frame is padded so
 * that it comes soon).  The SIGSEGV is handled on the runtime's alternate
 * signal stack; every activation of deep is pending (how many depends on
 * the stack limit: only main's count is known).
 *
 * ipp-end: signal SEGV
 * ipp-entries: main 1
 */
#pragma GCC diagnostic ignored "-Winfinite-recursion"
volatile int sink;

int deep(int n)
{
	volatile char pad[256];
	pad[n & 255] = (char)n;
	return deep(n + 1) + pad[0];
}

int main(void)
{
	sink = 0;
	return deep(0);
}
