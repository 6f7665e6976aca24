#define LEN 32000
float a[LEN], b[LEN], c[LEN], d[LEN], e[LEN];
void s161(void)
{
#pragma scop
	for (int i = 0; i < LEN-1; ++i) {
		if (b[i] < (float)0.) {
			goto L20;
		}
		a[i] = c[i] + d[i] * e[i];
		goto L10;
L20:
		c[i+1] = a[i] + d[i] * d[i];
L10:
		;
	}
#pragma endscop
}
