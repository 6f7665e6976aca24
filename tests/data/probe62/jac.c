/*@ begin PerfTuning (
  def build
  {
    arg build_command = 'gcc -O2';
    arg libs = '-lm';
  }

  def performance_counter
  {
    arg repetitions = 3;
  }

  def performance_params
  {
    param T2_I[] = [1,16,32];
    param T2_J[] = [1,16,32];
    param U2_I[]  = range(1,4);
    param U2_J[]  = range(1,4);
    param SCR[]  = [False,True];

    constraint unroll_limit = ((U2_I == 1) or (U2_J == 1));
  }

  def input_params
  {
    param T[] = [40];
    param N[] = [50];
  }

  def input_vars
  {
    decl static double a[T][N] = random;
  }

  def search
  {
    arg algorithm = 'Randomsearch';
    arg total_runs = 6;
  }
) @*/

int i,j, k,t;
int it, jt, kt;
int ii, jj, kk;
int iii, jjj, kkk;

#define max(x,y)    ((x) > (y)? (x) : (y))
#define min(x,y)    ((x) < (y)? (x) : (y))
/*@ begin Loop(
transform Composite(
      tile = [('i',T2_I,'ii'),('j',T2_J,'jj')],
      unrolljam = (['i','j'],[U2_I,U2_J]),
      scalarreplace = (SCR, 'double')
)
for (i=1; i<=T-1; i++)
  for (j=1; j<=N-2; j++)
    a[i][j] = 0.333 * (a[i-1][j-1] + a[i-1][j] + a[i-1][j+1]);

) @*/

/*@ end @*/
/*@ end @*/
