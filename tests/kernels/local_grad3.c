// sizes: N=8 E=16 | N=9 E=11
// region: pragma
/* Nekbone local_grad3 over E elements: the reference-space gradient of u on each element,
 *   ur(i,j,k) = sum_l D(i,l)  u(l,j,k)      (mxm(D, m1, u, m1, ur, m2))
 *   us(i,j,k) = sum_l u(i,l,k) Dt(l,j)      (mxm(u(.,.,k), m1, Dt, m1, us(.,.,k), m1))
 *   ut(i,j,k) = sum_l u(i,j,l) Dt(l,k)      (mxm(u, m2, Dt, m1, ut, m1))
 * written with C arrays indexed [e][k][j][i] (i fastest, as in Nekbone's storage) and the
 * matrices indexed in mathematical order, D[i][l]. mxm overwrites, hence the zeroing
 * statements. N is the polynomial order + 1; Dt holds the transpose of D. */
#include "harness.h"

#ifndef N
#define N 8
#endif
#ifndef E
#define E 16
#endif

static double u[E][N][N][N];
static double ur[E][N][N][N];
static double us[E][N][N][N];
static double ut[E][N][N][N];
static double D[N][N];
static double Dt[N][N];

static void local_grad3(void)
{
    int e, i, j, k, l;
#pragma scop
    for (e = 0; e < E; e++) {
        for (k = 0; k < N; k++)
            for (j = 0; j < N; j++)
                for (i = 0; i < N; i++) {
                    ur[e][k][j][i] = 0.0;
                    for (l = 0; l < N; l++)
                        ur[e][k][j][i] += D[i][l] * u[e][k][j][l];
                }
        for (k = 0; k < N; k++)
            for (j = 0; j < N; j++)
                for (i = 0; i < N; i++) {
                    us[e][k][j][i] = 0.0;
                    for (l = 0; l < N; l++)
                        us[e][k][j][i] += u[e][k][l][i] * Dt[l][j];
                }
        for (k = 0; k < N; k++)
            for (j = 0; j < N; j++)
                for (i = 0; i < N; i++) {
                    ut[e][k][j][i] = 0.0;
                    for (l = 0; l < N; l++)
                        ut[e][k][j][i] += u[e][l][j][i] * Dt[l][k];
                }
    }
#pragma endscop
}

int main(void)
{
    int i, j;
    lx_seed(121);
    lx_fill_double(&u[0][0][0][0], (size_t)E * N * N * N);
    lx_fill_double(&ur[0][0][0][0], (size_t)E * N * N * N);
    lx_fill_double(&us[0][0][0][0], (size_t)E * N * N * N);
    lx_fill_double(&ut[0][0][0][0], (size_t)E * N * N * N);
    lx_fill_double(&D[0][0], (size_t)N * N);
    lx_fill_double(&Dt[0][0], (size_t)N * N);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            Dt[i][j] = D[j][i];
    local_grad3();
    lx_dump("ur", ur, sizeof ur);
    lx_dump("us", us, sizeof us);
    lx_dump("ut", ut, sizeof ut);
    return 0;
}
