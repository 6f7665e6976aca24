void add(int n, double *a, double *b, double *c) {
/*@ begin PerfTuning(
      def performance_params {
        param UF[] = [1, 2];
        param CFLAGS[] = ['-O1', '-O3'];
      }
      def build { arg build_command = 'icc @CFLAGS'; }
      def input_params { param N[] = [1000]; }
      def input_vars {
        decl dynamic double a[N] = random;
        decl dynamic double b[N] = random;
        decl dynamic double c[N] = 0;
      }
) @*/
  register int i;
/*@ begin Loop(transform Unroll(ufactor=UF)
  for(i=0; i<=N-1; ++i)
    c[i] = a[i] + b[i];
) @*/
  for(i=0; i<=N-1; ++i)
    c[i] = a[i] + b[i];
/*@ end @*/
/*@ end @*/
}
