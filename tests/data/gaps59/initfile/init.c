void init_input_vars() {
  int i;
#ifdef DYNAMIC
  a = (double*) malloc(N*sizeof(double));
#endif
  n = N;
  for (i=0; i<=N-1; i++) a[i] = i;
}
