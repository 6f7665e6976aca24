void f(int n, double *a, double *b) {
  short i;
  /*@ begin CHiLL ( ) @*/
  for (i = 0; i < n; i++)
    a[i] = b[i] * 2.0;
  /*@ end @*/
}
