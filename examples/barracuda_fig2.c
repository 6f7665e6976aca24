// sizes: E=4 N=10 | E=3 N=7
// region: pragma
/* Barracuda (Nelson et al.), Figure 2: V[i j k] += A[l k] B[m j] C[n i] U[l m n] for a batch of
 * E elements, written as the three-statement strength-reduced form with temporaries T1, T2:
 *   T1[n m k] = sum_l A[l k] U[l m n];  T2[n j k] = sum_m B[m j] T1[n m k];
 *   V[i j k] += sum_n C[n i] T2[n j k]
 * (N^4 work per statement instead of N^6).  looptx keeps E and N symbolic; fix N with
 * --define N=10 or `known` in a recipe to unroll the contractions fully. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef E
#define E 2000
#endif
#ifndef N
#define N 10
#endif

static double A[N][N], B[N][N], C[N][N];
static double U[E][N][N][N], V[E][N][N][N], T1[E][N][N][N], T2[E][N][N][N];

static void fig2(void)
{
    int e, i, j, k, l, m, n;
#pragma scop
    for (e = 0; e < E; e++)
        for (n = 0; n < N; n++)
            for (m = 0; m < N; m++)
                for (k = 0; k < N; k++)
                    for (l = 0; l < N; l++)
                        T1[e][n][m][k] += A[l][k] * U[e][l][m][n];
    for (e = 0; e < E; e++)
        for (n = 0; n < N; n++)
            for (j = 0; j < N; j++)
                for (k = 0; k < N; k++)
                    for (m = 0; m < N; m++)
                        T2[e][n][j][k] += B[m][j] * T1[e][n][m][k];
    for (e = 0; e < E; e++)
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                for (k = 0; k < N; k++)
                    for (n = 0; n < N; n++)
                        V[e][i][j][k] += C[n][i] * T2[e][n][j][k];
#pragma endscop
}

static uint64_t state = 0x9E3779B97F4A7C15ULL;
static double rnd(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return 0.5 + (double)(state >> 11) / 9007199254740992.0;
}

static void dump(const char *name, const void *p, size_t bytes)
{
    const unsigned char *c = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t q = 0; q < bytes; q++) { h ^= c[q]; h *= 1099511628211ULL; }
    printf("%s %016llx\n", name, (unsigned long long)h);
}

int main(void)
{
    double *all[] = {&A[0][0], &B[0][0], &C[0][0]};
    for (int a = 0; a < 3; a++)
        for (int q = 0; q < N * N; q++) all[a][q] = rnd();
    for (size_t q = 0; q < (size_t)E * N * N * N; q++) {
        (&U[0][0][0][0])[q] = rnd();
        (&V[0][0][0][0])[q] = rnd();
    }
    memset(T1, 0, sizeof T1);
    memset(T2, 0, sizeof T2);
    fig2();
    dump("V", V, sizeof V);
    dump("T2", T2, sizeof T2);
    return 0;
}
