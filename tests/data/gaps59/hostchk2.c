void scale(int n, double *A, double *B) {
  int i;
  /*@ begin PerfTuning (
        def performance_params {
          param TC[] = [32];
        }
        def input_params {
          param N = 1000;
        }
        def input_vars {
          decl dynamic double A[N] = random;
          decl dynamic double B[N] = 0;
        }
  ) @*/
  /*@ begin Loop(transform CUDA(threadCount=TC)
  for (i = 0; i <= n-1; i++)
    B[i] = 2.0 * A[i];
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
