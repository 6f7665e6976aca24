struct Mat { float *m; int mrows; };
typedef struct Mat Matrix;
void scale(Matrix *p)
{
  int i, imax;
  imax = p->mrows - 1;
  for (i = 1; i < imax; i++)
    p->m[i] = 2.0f * p->m[i];
}
