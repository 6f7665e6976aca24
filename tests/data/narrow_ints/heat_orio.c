/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param TI[] = [4, 8, 16];
    param TJ[] = [16, 32, 64];
    param UJ[] = [1, 2, 4];
    constraint c1 = UJ <= TJ;
  }
  def input_params { param NX[] = [50]; param NY[] = [70]; }
  def input_vars {
    decl static double u[NX*NY] = random;
    decl static double unew[NX*NY] = random;
    decl double alpha = 0.1;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 6; }
) @*/
int i, j;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  tile(0,"j",TJ,"jj")
  permute(0,("ii","jj","i","j"))
  unroll(0,"j",UJ)
) @*/
for (i = 1; i < NX-1; i++)
  for (j = 1; j < NY-1; j++)
    unew[i*NY+j] = u[i*NY+j] + alpha*(u[(i+1)*NY+j] + u[(i-1)*NY+j] + u[i*NY+j+1] + u[i*NY+j-1] - 4.0*u[i*NY+j]);
/*@ end @*/
/*@ end @*/
