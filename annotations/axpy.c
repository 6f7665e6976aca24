/* axpy2: y += a1*x1 + a2*x2.  The tuning specification lives in axpy.spec next to this file. */
/*@ begin PerfTuning ( import spec axpy; ) @*/
int i;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  unroll(0,"i",UF)
) @*/
for (i = 0; i < N; i++)
  y[i] = y[i] + a1 * x1[i] + a2 * x2[i];
/*@ end @*/
/*@ end @*/
