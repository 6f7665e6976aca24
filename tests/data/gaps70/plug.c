void f(double *a) {
  int i;
  /*@ begin PerfTuning(
        def performance_params { param UF[] = [1,2,3,4]; }
        def input_params { param N[] = [8]; }
        def input_vars { decl dynamic double a[N] = 0; }
  ) @*/
  int n = N;
  int len = n;
  /*@ begin Loop(transform Unroll(ufactor=UF)
  for(i=0; i<=len-1; i++)
    a[i] = 2.0*a[i];
  ) @*/
  for(i=0; i<=len-1; i++)
    a[i] = 2.0*a[i];
  /*@ end @*/
  /*@ end @*/
}
