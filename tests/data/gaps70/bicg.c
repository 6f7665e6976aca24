#ifndef NX
#define NX 100
#endif
#ifndef NY
#define NY 90
#endif
void bicg(double A[NX][NY], double r[NX], double s[NY], double p[NY], double q[NX]) {
  int i, j;
  for (i = 0; i < NY; i++)
    s[i] = 0;
  for (i = 0; i < NX; i++) {
    q[i] = 0;
    for (j = 0; j < NY; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}
