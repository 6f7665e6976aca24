void f(int x_min, int x_max, int y_min, int y_max, double *a, double *b)
{
  int j, k;
  for (k = y_min; k <= y_max; k++)
    for (j = x_min; j <= x_max + 1; j++)
      b[(x_max + 5) * (k - (y_min - 2)) + j - (x_min - 2)] =
          a[(x_max + 4) * (k - (y_min - 2)) + j - (x_min - 2)];
}
