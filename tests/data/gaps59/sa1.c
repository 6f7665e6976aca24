void f(int m, int n, double *X, double *F) {
  int i;
  /*@ begin PerfTuning (
        def performance_params {
          param TC[] = [32];
        }
        def input_params {
          param m = 64;
          param n = 64;
        }
        def input_vars {
          decl dynamic double X[m*n] = random;
          decl dynamic double F[m*n] = 0;
        }
  ) @*/
  int nrows = m*n;
  /*@ begin Loop(transform CUDA(threadCount=TC)
  for (i = 0; i <= nrows-1; i++)
    F[i] = 2.0 * X[i];
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
