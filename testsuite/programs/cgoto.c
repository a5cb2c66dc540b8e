/* Computed goto: a tiny threaded interpreter over "0001012" (0 = inc,
 * 1 = dec, 2 = out).  run's paths: from the entry to the first goto (1);
 * restarting at inc, 4 times (reached from the entry's goto, inc, inc,
 * dec); at dec, twice; at out, once (to the return).
 *
 * ipp-expect intra run: 1 4 2 1
 * ipp-expect intra main: 1
 */
#include <stdio.h>

int run(const char *prog)
{
	static void *tab[] = { &&inc, &&dec, &&out };
	int acc = 0;
	const char *pc = prog;
	goto *tab[*pc - '0'];
inc:	acc++;
	pc++;
	goto *tab[*pc - '0'];
dec:	acc--;
	pc++;
	goto *tab[*pc - '0'];
out:	return acc;
}

int main(void)
{
	printf("%d\n", run("0001012"));
	return 0;
}
