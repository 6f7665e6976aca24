#define LEN 32000
float a[LEN], b[LEN], c[LEN], d[LEN];

void s221(void)
{
#pragma scop
	for (int i = 1; i < LEN; i++) {
		a[i] += c[i] * d[i];
		b[i] = b[i - 1] + a[i] + d[i];
	}
#pragma endscop
}
