/* Rodinia nw's maximum(): a pure helper whose local is assigned in an if/else */
int maximum(int a, int b, int c) {
    int k;
    if (a <= b)
        k = b;
    else
        k = a;
    if (k <= c)
        return (c);
    else
        return (k);
}
void f(int n, const int *x, const int *y, const int *z, int *o) {
#pragma scop
  for (int i = 0; i < n; i++)
    o[i] = maximum(x[i], y[i], z[i]);
#pragma endscop
}
