/* CMSIS-NN arm_convolve_HWC_q7_basic's padding test: a product of an iterator and a size in the
   condition of a branch that holds a loop */
void conv_rows(int n, int k, int c, int stride, int padding, int dim_in, const signed char *in, int *out)
{
  for (int j = 0; j < n; j++)
    for (int m = 0; m < k; m++) {
      int in_row = stride * j + m - padding;
      if (in_row >= 0 && in_row < dim_in)
        for (int l = 0; l < c; l++)
          out[j] += in[in_row * c + l];
    }
}
