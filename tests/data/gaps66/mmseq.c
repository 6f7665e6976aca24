#define N 500
double A[N][N], B[N][N], C[N][N], D[N][N], E[N][N];
int main() {
int i, j, k;
#pragma scop
for (i=0; i<N; i++)
    for (j=0; j<N; j++)
        for (k=0; k<N; k++)
            C[i][j] = C[i][j] + A[i][k]*B[k][j];
for (i=0; i<N; i++)
    for (j=0; j<N; j++)
        for (k=0; k<N; k++)
            D[i][j] = D[i][j] + C[i][k]*E[k][j];
#pragma endscop
return 0;
}
