/* reduced from pjreddie/darknet blas.c upsample_cpu */
void f(float *in, float *out, int w, int h, int c, int stride) {
#pragma scop
    for (int k = 0; k < c; ++k)
        for (int j = 0; j < h*stride; ++j)
            for (int i = 0; i < w*stride; ++i)
                out[k*w*h*stride*stride + j*w*stride + i] = in[k*w*h + (j / stride)*w + i / stride];
#pragma endscop
}
