/* spin-return.c -- branches after a call to a function that never returns.
 *
 * spin loops forever, so no path from spin's Entry reaches its Exit: the
 * call in f counts psi_Entry_spin = <0, 2>, whatever follows it.  f's
 * region has a few paths, but the return site of the call has 2^70 after
 * it, a number the plugin emits at the call (the value pushed for spin).
 * The cut chooser bounded only what a path from Entry_f counts, and the
 * plugin stopped with an internal error in lin_val (context mode, -O0 and
 * -O2).  Now every vertex is held to the limit: f is cut after the call.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

/* ipp-expect-instrumented: f */
/* ipp-expect-instrumented: spin */

#define B(i) if (a[i]) s += i;
#define B10(i) B(i) B(i + 1) B(i + 2) B(i + 3) B(i + 4) B(i + 5) B(i + 6) B(i + 7) \
	B(i + 8) B(i + 9)

static void spin(volatile int *p)
{
	for (;;)
		(*p)++;
}

int f(int x, const int *a, volatile int *p)
{
	int s = 0;
	if (x < 0) {
		spin(p);
		B10(0) B10(10) B10(20) B10(30) B10(40) B10(50) B10(60)
	}
	return s;
}
