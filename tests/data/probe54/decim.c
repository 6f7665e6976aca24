/* FIR decimator by M (CMSIS-DSP arm_fir_decimate_f32 / liquid-dsp firdecim semantics: output n is
   the dot product of the taps with the input window ending at n*M), index form, written for this
   probe; M as a run-time argument as arm_fir_decimate_instance_f32 holds it. */
void fir_decimate(const float *x, const float *h, float *y, int nout, int ntaps, int M)
{
  int n, k;
  for (n = 0; n < nout; n++) {
    float acc = 0.0f;
    for (k = 0; k < ntaps; k++)
      acc += h[k] * x[n * M + k];
    y[n] = acc;
  }
}
