/* rle.c -- decodes run-length encoded text: "3a2b" prints "aaabb".
 *
 * The example of examples/divergence/README: it has an input-dependent
 * bug.  Runs of 1 to 9 characters decode right; a run of 10 or more, whose
 * count has two digits, does not.
 *
 * Usage: rle ENCODED...   (each argument decoded on a line of its own)
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <ctype.h>
#include <stdio.h>

/* Reads the count of a run (one or two digits) at *p and moves past it. */
static int read_count(const char **p)
{
	int n = **p - '0';

	(*p)++;
	if (isdigit((unsigned char)**p)) {	/* divergence: the second digit */
		n = n * 10 + **p;	/* the bug: the digit's character code, not its value */
		(*p)++;
	}
	return n;
}

/* Prints the decoded text of one encoded string; returns its length, or -1
 * if the input is malformed. */
static int decode(const char *s)
{
	int len = 0;

	while (*s != '\0') {
		int n;

		if (!isdigit((unsigned char)*s))
			return -1;
		n = read_count(&s);
		if (*s == '\0')
			return -1;
		for (int i = 0; i < n; i++)
			putchar(*s);
		len += n;
		s++;
	}
	putchar('\n');
	return len;
}

int main(int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++)
		if (decode(argv[i]) < 0) {
			fprintf(stderr, "rle: malformed input '%s'\n", argv[i]);
			status = 1;
		}
	return status;
}
