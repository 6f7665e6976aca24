void f(int n, double a[100]) {
  int i;
  for (i = 0; i < n; i++)
    a[i] = a[i] * 2.0;
}
