#include <stdio.h>
#include <stdlib.h>
void pf(int rows, int cols, const int *restrict wall, int *restrict dst);
int main(int argc, char **argv) {
  int rows = atoi(argv[1]), cols = atoi(argv[2]);
  int *wall = malloc(sizeof(int) * (rows * cols + 1)), *dst = malloc(sizeof(int) * (rows * cols + 1));
  srand(7 + rows * 100 + cols);
  for (int i = 0; i < rows * cols; i++) { wall[i] = rand() % 10; dst[i] = rand() % 10; }
  pf(rows, cols, wall, dst);
  for (int i = 0; i < rows * cols; i++) printf("%d\n", dst[i]);
  return 0;
}
