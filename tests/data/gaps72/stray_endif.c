double x[3];
#endif
void f(void) {
  int i;
#pragma scop
  for (i = 0; i < 3; i++)
    x[i] = 1;
#pragma endscop
}
