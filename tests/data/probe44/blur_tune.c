/* Halide blur, blur_y stage tuned the way a Kernel Tuner user tunes it: tile sizes, unroll,
 * OpenMP on the row tiles. */
#include <stdint.h>

void blur_y(int width, int height, const uint16_t *tmp, uint16_t *out)
{
    int x, y;
    /*@ begin PerfTuning (
      def build { arg build_command = 'gcc -O2 -fopenmp'; }
      def performance_counter { arg repetitions = 1; }
      def performance_params {
        param TY[] = [4, 8, 32];
        param TX[] = [16, 64, 256];
        param UX[] = [1, 2, 4, 8];
        constraint unroll_fits = UX <= TX;
      }
      def input_params { param width[] = [203]; param height[] = [77]; }
      def input_vars {
        decl dynamic uint16_t tmp[height * width] = random;
        decl dynamic uint16_t out[height * width] = 0;
      }
      def search { arg algorithm = 'Randomsearch'; arg total_runs = 6; arg seed = 11; }
    ) @*/
    /*@ begin CHiLL (
      tile(0,"y",TY,"yy")
      tile(0,"x",TX,"xx")
      permute(0,("yy","xx","y","x"))
      omp_for(0,"yy")
      unroll(0,"x",UX)
    ) @*/
    for (y = 0; y < height - 2; y++)
        for (x = 0; x < width; x++)
            out[y * width + x] = (tmp[y * width + x] + tmp[(y + 1) * width + x] + tmp[(y + 2) * width + x]) / 3;
    /*@ end @*/
    /*@ end @*/
}
