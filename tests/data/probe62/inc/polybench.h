#define POLYBENCH_X 1
