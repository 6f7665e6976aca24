/* Rodinia lavaMD's particle loop in small: a struct the loop body declares (`THREE_VECTOR d;`)
   and uses member by member, next to arrays of structs. */
typedef struct { double x, y, z; } THREE_VECTOR;
typedef struct { double v, x, y, z; } FOUR_VECTOR;

void pairs(int n, int m, const FOUR_VECTOR *rA, const FOUR_VECTOR *rB, const double *qB, FOUR_VECTOR *fA)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      THREE_VECTOR d;
      double r2 = rA[i].v + rB[j].v;
      d.x = rA[i].x - rB[j].x;
      d.y = rA[i].y - rB[j].y;
      d.z = rA[i].z - rB[j].z;
      fA[i].v += qB[j] * r2;
      fA[i].x += qB[j] * d.x;
      fA[i].y += qB[j] * d.y;
      fA[i].z += qB[j] * d.z;
    }
}

/* a union's members share their storage: not two scalars */
typedef union { float f; int i; } BITS;
void punned(int n, const float *a, int *out)
{
  for (int i = 0; i < n; i++) {
    BITS b;
    b.f = a[i];
    out[i] = b.i;
  }
}

/* used whole: stays a struct (refused as before) */
void whole(int n, const THREE_VECTOR *a, THREE_VECTOR *out)
{
  for (int i = 0; i < n; i++) {
    THREE_VECTOR d;
    d = a[i];
    d.x = 2.0 * d.x;
    out[i].x = d.x;
  }
}
