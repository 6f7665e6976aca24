/* minimal: the run harness refuses valid spellings of integer types */
void k(int n, unsigned short int *a, unsigned long int *b, _Bool *f) {
  int i;
  for (i = 0; i < n; i++)
    a[i] = f[i] ? b[i] : a[i];
}
