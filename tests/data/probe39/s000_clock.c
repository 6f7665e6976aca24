#include <stdio.h>
#include <time.h>
#define LEN 32000
float a[LEN], b[LEN];

int s000()
{
	clock_t start_t, end_t;
	start_t = clock();
	for (int i = 0; i < LEN; i++) {
		a[i] = b[i] + 1;
	}
	end_t = clock();
	printf("S000\t %.2f\n", (double)(end_t - start_t) / CLOCKS_PER_SEC);
	return 0;
}
