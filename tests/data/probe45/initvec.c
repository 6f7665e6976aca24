void InitVectors(int nx, int ny, int nz, double * xv)
{
#ifndef HPCG_NO_OPENMP
  #pragma omp parallel for
#endif
  for (int iz=0; iz<nz; iz++)
    for (int iy=0; iy<ny; iy++)
      for (int ix=0; ix<nx; ix++)
        xv[iz*nx*ny+iy*nx+ix] = 0.0;
}
