/*@ begin PerfTuning (
  def performance_params { param U[] = [1,2]; }
  def input_params {
    param MV[] = [10,20];
    param NV[] = [10,20];
    constraint square = (MV == NV);
  }
  def input_vars {
    decl int M = MV;
    decl int N = NV;
    decl dynamic double X[MV][NV] = random;
  }
) @*/
int i, j;
/*@ begin Loop (
transform Unroll(ufactor=U)
for (i = 0; i <= M-1; i++)
  for (j = 0; j <= N-1; j++)
    X[i][j] = X[i][j] * 2.0;
) @*/
/*@ end @*/
/*@ end @*/
