#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#ifndef N
#define N 64
#endif
#define M 48
#define PIx2 6.2831853071795864769252867665590058
struct kValues { double Kx; double Ky; double Kz; double PhiMag; };
struct kValues kv[M];
double X[N], Y[N], Z[N], QR[N], QI[N];

void ComputeQCPU(struct kValues kVals[M], double x[N], double y[N], double z[N], double Qr[N], double Qi[N])
{
  double expArg, cosArg, sinArg, phi;
  int indexK, indexX;
  for (indexX = 0; indexX < N; indexX++) {
    for (indexK = 0; indexK < M; indexK++) {
      expArg = PIx2 * (kVals[indexK].Kx * x[indexX] + kVals[indexK].Ky * y[indexX] + kVals[indexK].Kz * z[indexX]);
      cosArg = cos(expArg);
      sinArg = sin(expArg);
      phi = kVals[indexK].PhiMag;
      Qr[indexX] += phi * cosArg;
      Qi[indexX] += phi * sinArg;
    }
  }
}
