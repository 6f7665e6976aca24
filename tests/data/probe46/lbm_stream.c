#ifndef NX
#define NX 64
#endif
#ifndef NY
#define NY 32
#endif
#define Q 9
static const int cx[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int cy[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};

void stream_soa(double f_new[Q][NY][NX], double f_old[Q][NY][NX])
{
  int q, y, x;
  for (q = 0; q < Q; q++)
    for (y = 1; y < NY - 1; y++)
      for (x = 1; x < NX - 1; x++)
        f_new[q][y][x] = f_old[q][y - cy[q]][x - cx[q]];
}
