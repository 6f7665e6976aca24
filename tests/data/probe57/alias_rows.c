#ifndef LEN2
#define LEN2 16
#endif
typedef double real_t;
real_t aa[LEN2][LEN2], bb[LEN2][LEN2];
int flag[1];

/* flat view of a 2-D array (TSVC's flat_2d_array / f2c-style) used beside the 2-D name */
void cast2d(void)
{
	real_t *p = (real_t *)aa;
	for (int i = 1; i < LEN2; i++)
		for (int j = 0; j < LEN2; j++)
			p[i * LEN2 + j] = aa[i - 1][j] + bb[i][j];
}
void tern(void)
{
	real_t *p = flag[0] ? &aa[0][0] : &bb[0][0];
	for (int i = 1; i < LEN2 * LEN2; i++)
		p[i] = aa[0][i - 1] * 0.5;
}
void stepped(void)
{
	real_t *p = &aa[0][0];
	p += LEN2;
	for (int i = 1; i < LEN2; i++)
		for (int j = 0; j < LEN2; j++)
			p[(i - 1) * LEN2 + j] = aa[i - 1][j] + bb[i][j];
}
#ifdef DRIVER
#define DRV_ARRAYS(X) X(aa, real_t) X(bb, real_t)
#include "drv.h"
#endif
