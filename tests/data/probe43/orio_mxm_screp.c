/* Orio-annotated Nek5000 mxm: c(n1,n3) = a(n1,n2) b(n2,n3), column-major, fixed small sizes */
/*@ begin PerfTuning (
  def build {
    arg build_command = 'gcc -O3';
  }
  def performance_counter {
    arg repetitions = 1;
  }
  def performance_params {
    param U_J[] = [1, 2, 4];
    param U_I[] = [1, 2, 4, 8];
    param U_K[] = [1, 2, 8];
    param SCREP[] = [False, True];
    constraint reg_pressure = (U_I * U_J <= 16);
  }
  def input_params {
    param N1[] = [8];
    param N2[] = [8];
    param N3[] = [64];
  }
  def input_vars {
    decl static double a[N1*N2] = random;
    decl static double b[N2*N3] = random;
    decl static double c[N1*N3] = 0;
  }
  def search {
    arg algorithm = 'Randomsearch';
    arg total_runs = 6;
  }
) @*/

int i, j, k;

/*@ begin Loop (
  transform Composite(
    unrolljam = (['j','i','k'],[U_J,U_I,U_K]),
    scalarreplace = (SCREP, 'double', 'scv_')
  )
  for (j=0; j<=N3-1; j++)
    for (i=0; i<=N1-1; i++) {
      c[i+N1*j] = 0.0;
      for (k=0; k<=N2-1; k++)
        c[i+N1*j] = c[i+N1*j] + a[i+N1*k]*b[k+N2*j];
    }
) @*/

for (j=0; j<=N3-1; j++)
  for (i=0; i<=N1-1; i++) {
    c[i+N1*j] = 0.0;
    for (k=0; k<=N2-1; k++)
      c[i+N1*j] = c[i+N1*j] + a[i+N1*k]*b[k+N2*j];
  }

/*@ end @*/
/*@ end @*/
