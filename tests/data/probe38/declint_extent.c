/*@ begin PerfTuning (
  def performance_params { param U[] = [1, 2]; }
  def input_params { param NCONT = 40; }
  def input_vars {
    decl int M = NCONT;
    decl dynamic double A[M] = random;
    decl dynamic double B[M] = 0;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i=0; i<=M-1; i++)
    B[i] = 2.0 * A[i];
) @*/
/*@ end @*/
/*@ end @*/
