void step(float *restrict u_data, float *restrict v_data, const int nx, const int ny, const int x_M, const int y_M)
{
  float (*restrict u)[ny] = (float (*)[ny]) u_data;
  float (*restrict v)[ny] = (float (*)[ny]) v_data;
#pragma scop
  for (int x = 0; x <= x_M; x += 1)
    for (int y = 0; y <= y_M; y += 1)
      v[x + 1][y + 1] = 0.5F*(u[x][y + 1] + u[x + 2][y + 1]);
#pragma endscop
}
