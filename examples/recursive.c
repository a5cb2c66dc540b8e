/* recursive.c -- direct and mutual recursion.
 *
 * fib(n) recurses directly; is_even/is_odd recurse mutually.  In context
 * mode the recursive call sites are summarized (Transformation 3): each
 * recursive activation starts a fresh path in its callee's region.
 *
 *   fib(10) = 55 in 177 calls: calls(n) = 1 + calls(n-1) + calls(n-2) with
 *   calls(0) = calls(1) = 1, i.e. 2*fib(n+1) - 1 = 2*89 - 1;
 *   is_even(7) = 0 in 8 calls: is_even(7, 5, 3, 1) and is_odd(6, 4, 2, 0).
 */
#include <stdio.h>

static int is_odd(int n);

static int fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static int is_even(int n)
{
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

static int is_odd(int n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

int main(void)
{
	printf("fib(10) = %d\n", fib(10));
	printf("is_even(7) = %d\n", is_even(7));
	return 0;
}
