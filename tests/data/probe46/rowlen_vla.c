void step(const int nx, const int ny, float u[nx][ny], float v[nx][ny], const int x_M, const int y_M)
{
#pragma scop
  for (int x = 0; x <= x_M; x += 1)
    for (int y = 0; y <= y_M; y += 1)
      v[x + 1][y + 1] = 0.5F*(u[x][y + 1] + u[x + 2][y + 1]);
#pragma endscop
}
