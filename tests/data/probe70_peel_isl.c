#ifndef N
#define N 12
#endif
#ifndef M
#define M 8
#endif
double C[40][40];
int z[40];
void kernel(void)
{
#pragma scop
    for (int i = N - 1; i >= 2; i--) {
    }
    for (int i = 0; i < M; i += 2) {
        z[i + 2] += z[i + 1] % 7;
        for (int j = 0; j < N - i; j++)
            for (int k = j; k < M; k++)
                for (int l = k + 1; l < (k + 3 < M ? k + 3 : M); l++)
                    C[j][l] = 2.0;
    }
#pragma endscop
}
