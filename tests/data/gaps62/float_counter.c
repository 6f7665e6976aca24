float k(int n, double *a) {
  float x;
#pragma scop
  for (x = 0; x < n; x++)
    a[(int)x] = a[(int)x] + 1.0;
#pragma endscop
  return x;
}
