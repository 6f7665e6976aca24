/* how-to-optimize-gemm's column-major MMult0 nest (A(i,j) macros, lda/ldb/ldc) in a SPAPT-style
   Orio Loop annotation: two-level tiling, unroll-and-jam, scalar replacement. */
#define A(i,j) a[ (j)*lda + (i) ]
#define B(i,j) b[ (j)*ldb + (i) ]
#define C(i,j) c[ (j)*ldc + (i) ]

/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param T1_J[] = [1, 8];
    param T1_P[] = [1, 16];
    param T2_J[] = [1, 32];
    param U_I[] = [1, 2, 4];
    param U_J[] = [1, 3];
    param SCREP[] = [False, True];
    constraint tileJ = ((T2_J == 1) or (T2_J % T1_J == 0));
  }
  def input_params { param m = 61; param n = 43; param k = 29; param lda = 64; param ldb = 29; param ldc = 61; }
  def input_vars {
    decl dynamic double a[lda * k] = random;
    decl dynamic double b[ldb * n] = random;
    decl dynamic double c[ldc * n] = 0;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 6; arg seed = 5; }
) @*/
int i, j, p;
int ii, jj, pp, jjj;

/*@ begin Loop(
  transform Composite(
    tile = [('j',T1_J,'jj'),('p',T1_P,'pp'),(('jj','j'),T2_J,'jjj')],
    unrolljam = (['i','j'],[U_I,U_J]),
    scalarreplace = (SCREP, 'double', 'scv_')
  )
  for ( j=0; j<=n-1; j++ )
    for ( p=0; p<=k-1; p++ )
      for ( i=0; i<=m-1; i++ )
        C( i,j ) = C( i,j ) +  A( i,p ) * B( p,j );
) @*/
for ( j=0; j<=n-1; j++ )
  for ( p=0; p<=k-1; p++ )
    for ( i=0; i<=m-1; i++ )
      C( i,j ) = C( i,j ) +  A( i,p ) * B( p,j );
/*@ end @*/
/*@ end @*/
