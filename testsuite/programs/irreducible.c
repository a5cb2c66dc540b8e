/* An irreducible loop: the cycle {A, B} is entered at B (argc odd) or at A
 * (argc even).  GCC lists an if's true edge first, so the DFS from the
 * entry reaches B before A, and the fall-through A -> B is the DFS back
 * edge.  With argc = 1: entry, B (n = 2), A (n = 3), then A -> B ends the
 * first path; the second starts at B (n = 5), A (n = 6), done, return.
 *
 * ipp-expect intra main: 1 1
 * ipp-expect context main: 1 1
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	int n = 0;
	(void)argv;
	if (argc & 1)
		goto B;
A:	n += 1;
	if (n > 5)
		goto done;
B:	n += 2;
	if (n < 9)
		goto A;
done:
	printf("%d\n", n);
	return 0;
}
