#define LEN2 256
float aa[LEN2][LEN2], b[LEN2], c[LEN2];

int s132()
{
//	global data flow analysis
//	loop with multiple dimension ambiguous subscripts
	int m = 0;
	int j = m;
	int k = m+1;
#pragma scop
	for (int i= 1; i < LEN2; i++) {
		aa[j][i] = aa[k][i-1] + b[i] * c[1];
	}
#pragma endscop
	return 0;
}
