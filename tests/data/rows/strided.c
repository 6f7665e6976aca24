/* every other row of a, and a 3-D array of pointers to pointers */
void strided(double **a, double ***t, int n)
{
  for (int i = 1; i < n; i++)
    for (int j = 0; j < 32; j++) {
      a[2*i][j+i] = a[2*i][j+i] * 0.5;
      t[i][j][j] = t[i-1][j][j+1] + 1.0;
    }
}
