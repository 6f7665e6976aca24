/*@ begin PerfTuning (
  def performance_params {
    param U[] = [1,2,4,8];
    param OMP[] = [True];
  }
  def input_params { param N[] = [1]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double y[N] = 0;
  }
) @*/
int i, j;
/*@ begin Loop(
  transform Composite(
    unrolljam = (['i','j'],[U,U]),
    openmp = (OMP, 'omp parallel for private(i,j)')
  )
  for (i=0; i<=N-1; i++)
    for (j=0; j<=N-1; j++)
      y[i] = y[i] + A[i][j];
) @*/
for (i=0; i<=N-1; i++)
  for (j=0; j<=N-1; j++)
    y[i] = y[i] + A[i][j];
/*@ end @*/
/*@ end @*/
