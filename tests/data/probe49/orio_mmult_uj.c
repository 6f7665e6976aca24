/* flame/how-to-optimize-gemm MMult0.c with an Orio PerfTuning block inside MY_MMult, as Orio's
   own examples annotate a function; the loop nest and macros are the file's own. */
#define A(i,j) a[ (j)*lda + (i) ]
#define B(i,j) b[ (j)*ldb + (i) ]
#define C(i,j) c[ (j)*ldc + (i) ]

/* Routine for computing C = A * B + C */

void MY_MMult( int m, int n, int k, double *a, int lda, 
                                    double *b, int ldb,
                                    double *c, int ldc )
{
  int i, j, p;

/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TI[] = [1, 8, 16, 32];
    param TJ[] = [1, 4, 8];
    param TP[] = [1, 16, 64];
    param UJ[] = [1, 2, 4];
    param UP[] = [1, 2, 3];
    constraint uj_tile = UJ == 1 or TJ % UJ == 0;
  }
  def input_params { param M[] = [67]; param N[] = [45]; param K[] = [53]; }
  def input_vars {
    decl int m = M; decl int n = N; decl int k = K;
    decl int lda = M + 3; decl int ldb = K; decl int ldc = M;
    decl dynamic double a[(M + 3) * K] = random;
    decl dynamic double b[K * N] = random;
    decl dynamic double c[M * N] = 0;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 6; arg seed = 3; }
) @*/
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  tile(0,"j",TJ,"jj")
  tile(0,"p",TP,"pp")
  permute(0,("jj","pp","ii","j","p","i"))
  unroll_jam(0,"j",UJ)
  unroll(0,"p",UP)
) @*/
  for ( i=0; i<m; i++ ){        /* Loop over the rows of C */
    for ( j=0; j<n; j++ ){        /* Loop over the columns of C */
      for ( p=0; p<k; p++ ){        /* Update C( i,j ) with the inner
				       product of the ith row of A and
				       the jth column of B */
	C( i,j ) = C( i,j ) +  A( i,p ) * B( p,j );
      }
    }
  }
/*@ end @*/
/*@ end @*/
}
