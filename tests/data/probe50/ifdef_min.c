/* minimal: an #ifdef that picks the loop header inside a --function region (PARSEC blackscholes bs_thread) */
int n, nT;
float *a, *b;
void f(int tid) {
    int i, r;
    int start = tid * (n / nT);
    int end = start + (n / nT);
    for (r = 0; r < 10; r++) {
#ifdef ENABLE_OPENMP
#pragma omp parallel for private(i)
        for (i = 0; i < n; i++) {
#else
        for (i = start; i < end; i++) {
#endif
            a[i] = a[i] + 2.0f * b[i];
        }
    }
}
