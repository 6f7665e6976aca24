/* Kernel Tuner examples/cuda/matmul: C = A * B on WIDTH x WIDTH floats, reference loop nest */
#define WIDTH 4096

void matmul_kernel(float *C, float *A, float *B)
{
    for (int y = 0; y < WIDTH; y++) {
        for (int x = 0; x < WIDTH; x++) {
            float sum = 0.0;
            for (int k = 0; k < WIDTH; k++) {
                sum += A[y * WIDTH + k] * B[k * WIDTH + x];
            }
            C[y * WIDTH + x] = sum;
        }
    }
}
