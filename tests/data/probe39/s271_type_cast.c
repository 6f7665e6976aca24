#include <stdio.h>
#ifndef TYPE
#define TYPE float
#endif
#define LEN 8
TYPE a[LEN], b[LEN], c[LEN];

void s271(void)
{
#pragma scop
	for (int i = 0; i < LEN; i++) {
		if (b[i] > (TYPE)0.1) {
			a[i] += b[i] * c[i];
		}
		c[i] = (TYPE)2. * c[i];
	}
#pragma endscop
}

int main(void)
{
	for (int i = 0; i < LEN; i++) { a[i] = 0; b[i] = (TYPE)0.1000000005; c[i] = 1; }
	s271();
	printf("%g\n", (double)a[0]);
	return 0;
}
