double total;
double scale;
double G[64];
void glob(int n, double *a, double *b)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    b[i] = a[i] * scale + G[i % 64];
  total = 0.0;
  for (i = 0; i < n; i++)
    total = total + b[i];
#pragma endscop
}
