void f(double *a, double *b, double *c) {
  int i;
  /*@ begin PerfTuning(
        def performance_params { param UF[] = [1,2]; }
        def input_params { param N[] = [2000000000]; }
        def input_vars { decl dynamic double a[N] = 0; decl dynamic double b[N] = 0; decl dynamic double c[N] = 0; }
  ) @*/
  int n = N;
  /*@ begin Loop(transform Unroll(ufactor=UF)
  for(i=0; i<=n-1; i++)
    a[i] = 2.0*a[i] + b[i] + c[i];
  ) @*/
  for(i=0; i<=n-1; i++)
    a[i] = 2.0*a[i] + b[i] + c[i];
  /*@ end @*/
  /*@ end @*/
}
