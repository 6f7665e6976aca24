typedef int local_int_t;

int ComputeSPMV_ref(const local_int_t nrow, char * nonzerosInRow, double ** matrixValues,
                    local_int_t ** mtxIndL, const double * const xv, double * const yv) {
#ifndef HPCG_NO_OPENMP
  #pragma omp parallel for
#endif
  for (local_int_t i=0; i< nrow; i++)  {
    double sum = 0.0;
    const double * const cur_vals = matrixValues[i];
    const local_int_t * const cur_inds = mtxIndL[i];
    const int cur_nnz = nonzerosInRow[i];

    for (int j=0; j< cur_nnz; j++)
      sum += cur_vals[j]*xv[cur_inds[j]];
    yv[i] = sum;
  }
  return 0;
}
