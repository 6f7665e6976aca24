/* minimal: an nvcc build_command that uses @CFLAGS; the C backend warns that CFLAGS is used by no build command */
void axpy(double *x, double *y, double a, int n) {
  int i;
  /*@ begin PerfTuning (
        def performance_params {
          param TC[] = [32];
          param CFLAGS[] = ['-O0', '-O3'];
        }
        def input_params { param N[] = [100]; }
        def input_vars {
          decl static double x[N] = random;
          decl static double y[N] = random;
          decl double a = random;
        }
        def build { arg build_command = 'nvcc -arch=sm_75 @CFLAGS'; }
  ) @*/
  int nn = N;
  /*@ begin Loop(transform CUDA(threadCount=TC)
  for (i = 0; i <= nn-1; i++)
    y[i] = y[i] + a*x[i];
  ) @*/
  for (i = 0; i <= nn-1; i++)
    y[i] = y[i] + a*x[i];
  /*@ end @*/
  /*@ end @*/
}
