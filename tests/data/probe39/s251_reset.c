#define LEN 32000
#define ntimes 10
#define TYPE float
float a[LEN], b[LEN], c[LEN], d[LEN];

int s251()
{
	TYPE s;
	for (int nl = 0; nl < ntimes; nl++) {
		s = (TYPE) 0.;          /* a reset: writes s, reads nothing */
#pragma scop
		for (int i = 0; i < LEN; i++) {
			s = b[i] + c[i] * d[i];
			a[i] = s * s;
		}
#pragma endscop
	}
	return 0;
}
