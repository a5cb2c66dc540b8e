/* SIGFPE (an integer division by zero) at recursion depth 3: f(3) calls
 * f(2), f(1), f(0), which divides by zero.  Four activations of f are
 * pending (three at the recursive call, the innermost at its entry).
 *
 * ipp-end: signal FPE
 * ipp-entries: f 4, main 1
 * ipp-calls: f -> f 3, main -> f 1
 */
static volatile int zero, one = 1;

int f(int n)
{
	if (n == 0)
		return one / zero;
	return f(n - 1) + 1;
}

int main(void)
{
	return f(3) & 1;
}
