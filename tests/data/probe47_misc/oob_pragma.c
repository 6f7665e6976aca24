#define R 3
#define C 3
void f(char a[R][C], short res[R])
{
#pragma HLS ARRAY_PARTITION variable=a complete dim=2
  for (int i = 0; i < R; i++) {
    res[i] = 0;
    for (int k = 0; k < R; k++)
      res[i] += a[i][k];
  }
}
