void fwd(float (*restrict u)[64][64], const int time_m, const int time_M)
{
#pragma scop
  for (int time = time_m; time <= time_M; time += 1)
    for (int x = 1; x < 63; x += 1)
      for (int y = 1; y < 63; y += 1)
        u[(time + 1)%(3)][x][y] = 2.0F*u[(time)%(3)][x][y] - u[(time + 2)%(3)][x][y] + 0.1F*(u[(time)%(3)][x-1][y] + u[(time)%(3)][x+1][y] + u[(time)%(3)][x][y-1] + u[(time)%(3)][x][y+1] - 4.0F*u[(time)%(3)][x][y]);
#pragma endscop
}
