/* Kernel Tuner stencil example with Kernel Tuner's block sizes as Orio performance params;
 * the time loop stays on the host (one launch per sweep). */
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param block_size_x[] = [32 * i for i in range(1, 9)];
    param block_size_y[] = [2**i for i in range(6)];
    constraint max_threads = block_size_x * block_size_y <= 1024;
  }
  def input_params { param domain_width[] = [100]; param domain_height[] = [50]; param T[] = [3]; }
  def input_vars {
    decl static float x_new[domain_height * domain_width] = 0;
    decl static float x_old[domain_height * domain_width] = random;
  }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 5; arg seed = 3; }
) @*/
int t, x, y;
/*@ begin CHiLL (
  tile(0,"y",block_size_y,"yy")
  tile(0,"x",block_size_x,"xx")
  permute(0,("t","yy","xx","y","x"))
  cuda(0,block={"xx","yy"},thread={"x","y"})
  tile(1,"y",block_size_y,"yy")
  tile(1,"x",block_size_x,"xx")
  permute(1,("t","yy","xx","y","x"))
  cuda(1,block={"xx","yy"},thread={"x","y"})
) @*/
for (t = 0; t < T; t++) {
  for (y = 1; y < domain_height - 1; y++)
    for (x = 1; x < domain_width - 1; x++)
      x_new[y * domain_width + x] = (x_old[y * domain_width + x] + x_old[y * domain_width + (x - 1)] +
                                     x_old[y * domain_width + (x + 1)] + x_old[(y + 1) * domain_width + x] +
                                     x_old[(y - 1) * domain_width + x]) / 5.0f;
  for (y = 1; y < domain_height - 1; y++)
    for (x = 1; x < domain_width - 1; x++)
      x_old[y * domain_width + x] = (x_new[y * domain_width + x] + x_new[y * domain_width + (x - 1)] +
                                     x_new[y * domain_width + (x + 1)] + x_new[(y + 1) * domain_width + x] +
                                     x_new[(y - 1) * domain_width + x]) / 5.0f;
}
/*@ end @*/
/*@ end @*/
