void f(int n, double *a)
{
  int i;
  for (i = 0; i < n; i++) {
    if (a[i] < 0) goto skip;
    a[i] = a[i] * 2;
skip:
    ;
  }
}
