/* Levenshtein DP (ygorcanalli/documenthandler sequential_levenshtein's loop nest, MIN3 macros
   as there), anti-diagonal wavefront via CHiLL skew, tuned tile of the diagonal + unroll */
#define MIN3(v1, v2, v3) MIN(MIN(v1, v2), v3)
#define MIN(v1, v2) (v1 <= v2 ? v1 : v2)
#define INS_COST 1
#define DEL_COST 1
#define EXC_COST 1
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2 -fopenmp'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TI[] = [4, 8, 13, 32];
    param UF[] = [1, 2, 3];
  }
  def input_params { param LS[] = [70]; param LT[] = [45]; }
  def input_vars {
    decl static char s[LS] = random;
    decl static char t[LT] = random;
    decl static unsigned short int d[LS + 1][LT + 1] = random;
  }
  def search { arg algorithm = 'Exhaustive'; arg total_runs = 6; }
) @*/
unsigned int i, j;
/*@ begin CHiLL (
  skew(0,2,[1,1])
  permute(0,("j","i"))
  tile(0,"i",TI,"ii")
  omp_for(0,"ii")
  unroll(0,"i",UF)
) @*/
	for (i = 1;  i < (LS + 1); i++)
	{
		for (j = 1;  j < (LT + 1); j++)
		{
			if (s[i-1] == t[j-1])
				d[i][j] = MIN3(d[i-1][j] + DEL_COST, d[i][j-1] + INS_COST, d[i-1][j-1]);
			else
				d[i][j] = MIN3(d[i-1][j] + DEL_COST, d[i][j-1] + INS_COST, d[i-1][j-1] + EXC_COST);
		}
	}
/*@ end @*/
/*@ end @*/
