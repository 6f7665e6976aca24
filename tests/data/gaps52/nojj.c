#include <math.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
void kernel(int N, int M, double A[2 * N + 2 * M + 8][2 * N + 2 * M + 8], double B[2 * N + 2 * M + 8][2 * N + 2 * M + 8],
            double C[2 * N + 2 * M + 8][2 * N + 2 * M + 8], double x[2 * N + 2 * M + 8], double y[2 * N + 2 * M + 8],
            float F[2 * N + 2 * M + 8][2 * N + 2 * M + 8], int I[2 * N + 2 * M + 8][2 * N + 2 * M + 8], int z[2 * N + 2 * M + 8],
            double h[2 * N + 2 * M + 8], int hi[2 * N + 2 * M + 8])
{
    double sd0 = 0.0;
    float sf0 = 0.0f;
#pragma scop
    for (int i = N - 1; i >= 0; i--) {
        sf0 += 0.5f * F[i + 2][i];
        for (int j = 0; i + j < N; j++) {
            double s0 = 0.0;
            for (int k = 1; j + k < N; k++) {
                z[k + 3] = (z[k]) / 2 + 1;
                if (k != 2) sf0 += 0.5f * F[k + 4][i + 1];
                s0 += 0.5 * C[i + 4][k + 4];
            }
            A[j + 2][i] += s0;
        }
        for (int j = 2; j < MIN(i + 3, M); j++) {
            I[i + j + 2][j] = (z[i + 1] + I[i][i + 2]) / 2 + 1;
        }
        I[i + 1][i + 2] = (z[i + 1] + z[i + 4]) / 2 + 1;
    }
    for (int i = 1; i < N; i++) {
        for (int j = i; j < N - i; j++) {
            if (i + j < N) sd0 += 0.5 * A[i + 4][i + 3];
        }
    }
    y[0] += sd0;
    y[1] += sf0;

#pragma endscop
}
