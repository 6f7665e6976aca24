/* Orio's own transformation language: a SPAPT-style matrix multiply.  The Loop annotation holds
   the loop nest and a `transform Composite(...)` directive (two-level tiling, unroll-and-jam,
   scalar replacement, a vectorization hint); the nest is repeated between the markers, as
   older Orio files do, so the file also compiles as plain C. */
/*@ begin PerfTuning (
  def build
  {
    arg build_command = 'gcc -O2';
  }
  def performance_counter
  {
    arg repetitions = 3;
  }
  def performance_params
  {
    param T1_I[] = [1,16];
    param T1_J[] = [1,8];
    param T1_Ia[] = [1,32];
    param U_I[] = [1,2,3];
    param U_K[] = [1,2];
    param SCREP[] = [False,True];
    param VEC[] = [False,True];
    constraint tileI = ((T1_Ia == 1) or (T1_Ia % T1_I == 0));
    constraint unroll_limit = ((U_I == 1) or (U_K == 1));
  }
  def search
  {
    arg algorithm = 'Randomsearch';
    arg total_runs = 10;
  }
  def input_params
  {
    param M = 61;
    param N = 40;
    param K = 29;
  }
  def input_vars
  {
    decl static double A[M][K] = random;
    decl static double B[K][N] = random;
    decl static double C[M][N] = 0;
  }
) @*/

int i, j, k;
int ii, jj, kk;
int iii, jjj, kkk;

/*@ begin Loop(
  transform Composite(
    tile = [('i',T1_I,'ii'),('j',T1_J,'jj'),
            (('ii','i'),T1_Ia,'iii')],
    unrolljam = (['i','k'],[U_I,U_K]),
    scalarreplace = (SCREP, 'double', 'scv_'),
    vector = (VEC, ['ivdep','vector always'])
  )
  for(i=0; i<=M-1; i++)
    for(j=0; j<=N-1; j++)
      for(k=0; k<=K-1; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
) @*/

for(i=0; i<=M-1; i++)
  for(j=0; j<=N-1; j++)
    for(k=0; k<=K-1; k++)
      C[i][j] = C[i][j] + A[i][k] * B[k][j];

/*@ end @*/
/*@ end @*/
