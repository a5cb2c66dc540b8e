/* fig4pub.c under -fwhole-program: GCC's visibility pass makes power
 * local, so only main is entered from outside: the paper's whole-program
 * model, 36 paths, Figure 9's counts.
 *
 * ipp-cflags: -fwhole-program
 * ipp-expect-total context: 36
 * ipp-expect context main: 1 9 9 3 3 3 6 3 3 3 5 1
 */
#include "fig4pub.c"
