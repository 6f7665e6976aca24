#define Q 4
void f(int ne, const double *b, double *y)
{
  int m = Q + 1;
  for (int e = 0; e < ne; e++) {
    double t[m][2];
    for (int q = 0; q < m; q++) {
      t[q][0] = b[q + m*e];
      t[q][1] = 2.0 * b[q + m*e];
    }
    for (int q = 0; q < m; q++)
      y[e] += t[q][0] * t[m - 1 - q][1];
  }
}
