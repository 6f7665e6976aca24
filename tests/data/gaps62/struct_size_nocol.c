struct S { int n; double *a; double x[16]; };
void k(struct S *s, double *b) {
  int i;
#pragma scop
  for (i = 1; i < s->n; i++)
    s->a[i] = s->a[i-1] + s->x[i % 16] + b[i];
#pragma endscop
}
