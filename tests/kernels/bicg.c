// sizes: N=32 M=48 | N=37 M=41
// region: function kernel_bicg
/* bicg (PolyBench 4.2): s = A^T * r and q = A * p in one sweep. No marker: the whole body of
 * kernel_bicg is the region. */
#include "harness.h"

#ifndef N
#define N 32
#endif
#ifndef M
#define M 48
#endif

static double A[N][M];
static double s[M];
static double q[N];
static double p[M];
static double r[N];

static void kernel_bicg(void)
{
    for (int i = 0; i < M; i++)
        s[i] = 0;
    for (int i = 0; i < N; i++) {
        q[i] = 0.0;
        for (int j = 0; j < M; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
}

int main(void)
{
    lx_seed(108);
    lx_fill_double(&A[0][0], (size_t)N * M);
    lx_fill_double(s, M);
    lx_fill_double(q, N);
    lx_fill_double(p, M);
    lx_fill_double(r, N);
    kernel_bicg();
    lx_dump("s", s, sizeof s);
    lx_dump("q", q, sizeof q);
    return 0;
}
