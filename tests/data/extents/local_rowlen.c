void Kernel(float *ud, float *vd, int n, int m)
{
  int ny = m + 4;
  float (*restrict u)[ny] = (float (*)[ny]) ud;
  float (*restrict v)[ny] = (float (*)[ny]) vd;
  for (int x = 1; x < n; x += 1)
    for (int y = 1; y < m; y += 1)
      v[x][y] = 0.25F*(u[x-1][y] + u[x+1][y] + u[x][y-1] + u[x][y+1]);
}
