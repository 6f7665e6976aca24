#define LEN2 256
float aa[LEN2][LEN2], bb[LEN2][LEN2];
void s231(void)
{
#pragma scop
	for (int i = 0; i < LEN2; ++i) {
		for (int j = 1; j < LEN2; j++) {
			aa[j][i] = aa[j - 1][i] + bb[j][i];
		}
	}
#pragma endscop
}
