/* SIGFPE (an integer division by zero) at recursion depth 3: f(3) calls
 * f(2), f(1), f(0), which divides by zero.  Four activations of f are
 * pending (three at the recursive call, the innermost at its entry).
 *
 * Context mode instruments after GCC's early passes: the result is
 * combined with ^, which tail recursion elimination does not turn into a
 * loop (it does with + or *), and f is noinline, which keeps it whole
 * (else -O2 inlines it once into main and splits it, f.part.0): the
 * recursion stays one to test.
 *
 * ipp-end: signal FPE
 * ipp-entries: f 4, main 1
 * ipp-calls: f -> f 3, main -> f 1
 */
static volatile int zero, one = 1;

__attribute__((noinline)) int f(int n)
{
	if (n == 0)
		return one / zero;
	return f(n - 1) ^ n;
}

int main(void)
{
	return f(3) & 1;
}
