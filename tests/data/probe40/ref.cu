/* PolyBench/GPU keeps each CPU reference function in the benchmark's .cu file, next to its kernel */
#include <cuda.h>
#define N 1024

__global__ void scale_kernel(float *a, float *b)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N) b[i] = 2.0f * a[i];
}

void scale_cpu(float *a, float *b)
{
	int i;
#pragma scop
	for (i = 0; i < N; i++)
		b[i] = 2.0f * a[i];
#pragma endscop
}
