#define PAD 4
typedef double MMD_float;
/* miniMD full neighbour list, padded (ELL) form: fixed maxneighs per atom, count guard */
void compute_ell(int nlocal, int nall, MMD_float *x, MMD_float *f, int *neighbors, int *numneigh, int maxneighs, MMD_float cutforcesq, MMD_float epsilon, MMD_float sigma6)
{
  for(int i = 0; i < nlocal; i++) {
    MMD_float fix = 0.0;
    MMD_float fiy = 0.0;
    MMD_float fiz = 0.0;
    for(int k = 0; k < maxneighs; k++) {
      const int j = neighbors[i * maxneighs + k];
      const MMD_float delx = x[i * PAD + 0] - x[j * PAD + 0];
      const MMD_float dely = x[i * PAD + 1] - x[j * PAD + 1];
      const MMD_float delz = x[i * PAD + 2] - x[j * PAD + 2];
      const MMD_float rsq = delx * delx + dely * dely + delz * delz;
      if(k < numneigh[i] && rsq < cutforcesq) {
        const MMD_float sr2 = 1.0 / rsq;
        const MMD_float sr6 = sr2 * sr2 * sr2 * sigma6;
        const MMD_float force = 48.0 * sr6 * (sr6 - 0.5) * sr2 * epsilon;
        fix += delx * force;
        fiy += dely * force;
        fiz += delz * force;
      }
    }
    f[i * PAD + 0] = fix;
    f[i * PAD + 1] = fiy;
    f[i * PAD + 2] = fiz;
  }
}
