#define LEN 32000
float a[LEN], b[LEN], c[LEN], d[LEN], e[LEN];

void s211(void)
{
//	statement reordering
//	statement reordering allows vectorization
#pragma scop
	for (int i = 1; i < LEN-1; i++) {
		a[i] = b[i - 1] + c[i] * d[i];
		b[i] = b[i + 1] - e[i] * d[i];
	}
#pragma endscop
}
